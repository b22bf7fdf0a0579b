// explore_fused_chain, what the network planner searches for a pair segment: only fused points,
// and together with the pair searched unfused exactly the front of the whole pair (also through
// a halo); nothing when the pair cannot run fused.
#include <gtest/gtest.h>

#include <set>
#include <utility>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/explore.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using Values = std::set<std::pair<double, double>>; // (latency, energy) of each front point

Values values(const std::vector<FrontPoint> &front) {
  Values out;
  for (const FrontPoint &p : front)
    out.insert({p.objectives.latency_s, p.objectives.energy_pj});
  return out;
}

/// The points of `a` and `b` that no other point of either beats in latency and energy.
Values undominated_union(const Values &a, const Values &b) {
  Values all = a;
  all.insert(b.begin(), b.end());
  Values out;
  for (const auto &p : all) {
    const bool beaten = std::any_of(all.begin(), all.end(), [&](const auto &q) {
      return q != p && q.first <= p.first && q.second <= p.second;
    });
    if (!beaten)
      out.insert(p);
  }
  return out;
}

void expect_whole_front_is_fused_plus_unfused(const Workload &w, const Hardware &hw) {
  SearchOptions unfused_options;
  unfused_options.fusion = false;
  const ExploreResult whole = explore(w, hw, SearchOptions{});
  const ExploreResult unfused = explore(w, hw, unfused_options);
  const std::optional<ExploreResult> fused = explore_fused_chain(w, hw, SearchOptions{});
  ASSERT_TRUE(fused.has_value());
  ASSERT_FALSE(fused->front.empty());
  for (const FrontPoint &p : fused->front) {
    ASSERT_EQ(p.parts.size(), 1U);
    EXPECT_TRUE(fused->problems[p.parts[0].problem].fused());
  }
  EXPECT_EQ(values(whole.front), undominated_union(values(fused->front), values(unfused.front)));
}

TEST(ExploreFusedPair, WithTheUnfusedPairItGivesTheWholeFront) {
  test::HardwareSpec spec;
  spec.gb_words = 16; // small enough for recompute and for the unfused pair to matter
  expect_whole_front_is_fused_plus_unfused(
      parse_workload(test_common::gemm_pair_workload("pair", 4, 1, 8, 8), "w.yaml"),
      test::tiny_hardware(spec));
  spec.gb_words = 256;
  expect_whole_front_is_fused_plus_unfused(
      parse_workload(test_common::attention_workload("attention", 2, 16, 32, 8, 8), "w.yaml"),
      test::tiny_hardware(spec));
}

/// A convolution read through a 3-wide window by the next: fused, each tile recomputes a halo.
const char *const kHaloPair = "name: halo\ndims: {p: 4, q: 2, c: 2, k: 2, r: 3, j: 2, u: 3}\nops:\n"
                              "  - {name: a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
                              "  - {name: b, einsum: \"Z[j,q] += W2[j,k,u] * Y[k,q+u]\"}\n";

TEST(ExploreFusedPair, HaloPairWithTheUnfusedPairGivesTheWholeFront) {
  test::HardwareSpec spec;
  spec.gb_words = 64;
  expect_whole_front_is_fused_plus_unfused(parse_workload(kHaloPair, "halo.yaml"),
                                           test::tiny_hardware(spec));
}

TEST(ExploreFusedPair, NothingWhenThePairCannotRunFused) {
  const Hardware hw = test::tiny_hardware();
  // Without recompute, a pair fused through a window keeps every overlap on chip (a strided
  // window's too), and a strided producer, whose overlap cannot be cached, is not fused.
  const Workload halo = parse_workload(kHaloPair, "halo.yaml");
  EXPECT_TRUE(explore_fused_chain(halo, hw, SearchOptions{}).has_value());
  SearchOptions no_recompute;
  no_recompute.recompute = false;
  const std::optional<ExploreResult> cached = explore_fused_chain(halo, hw, no_recompute);
  ASSERT_TRUE(cached.has_value());
  for (const FrontPoint &p : cached->front)
    EXPECT_EQ(p.parts[0].candidate.dataflow.cached,
              std::vector<std::vector<int>>{{halo.dim_index("q")}});
  const std::string strided_consumer =
      "name: strided\ndims: {p: 5, q: 2, c: 2, k: 2, r: 3, j: 2, u: 3}\nops:\n"
      "  - {name: a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
      "  - {name: b, einsum: \"Z[j,q] += W2[j,k,u] * Y[k,2*q+u]\"}\n";
  const Workload strided = parse_workload(strided_consumer, "strided.yaml");
  EXPECT_TRUE(explore_fused_chain(strided, hw, SearchOptions{}).has_value());
  EXPECT_TRUE(explore_fused_chain(strided, hw, no_recompute).has_value());
  const Workload strided_producer = parse_workload(
      "name: strided-producer\ndims: {p: 5, q: 3, c: 2, k: 2, r: 3, j: 2, u: 3}\nops:\n"
      "  - {name: a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,2*p+r]\"}\n"
      "  - {name: b, einsum: \"Z[j,q] += W2[j,k,u] * Y[k,q+u]\"}\n",
      "strided-producer.yaml");
  EXPECT_TRUE(explore_fused_chain(strided_producer, hw, SearchOptions{}).has_value());
  EXPECT_FALSE(explore_fused_chain(strided_producer, hw, no_recompute).has_value());
  const Workload pair =
      parse_workload(test_common::gemm_pair_workload("pair", 4, 2, 4, 4), "w.yaml");
  SearchOptions no_fusion;
  no_fusion.fusion = false;
  EXPECT_FALSE(explore_fused_chain(pair, hw, no_fusion).has_value());
  EXPECT_TRUE(explore_fused_chain(pair, hw, SearchOptions{}).has_value());
  // Not a chain of two operators.
  const Workload single = parse_workload(test_common::gemm_workload("gemm", 4, 2, 4), "g.yaml");
  EXPECT_FALSE(explore_fused_chain(single, hw, SearchOptions{}).has_value());
}

TEST(ExploreFusedPair, ThrowsWhenNoFusedMappingFits) {
  test::HardwareSpec spec;
  spec.gb_words = 2; // below any fused tile of the pair
  const Workload pair =
      parse_workload(test_common::gemm_pair_workload("pair", 4, 2, 4, 4), "w.yaml");
  EXPECT_THROW(explore_fused_chain(pair, test::tiny_hardware(spec), SearchOptions{}),
               NoMappingFits);
}

} // namespace
} // namespace dse
