// Searched-space restrictions (`--no-fusion`, `--no-recompute`): the restricted fronts hold no
// fused or no recomputing point, and every one of their points is matched or beaten by a point
// of the full front (the full space contains the restricted one).
#include <gtest/gtest.h>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/explore.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

bool weakly_dominated(const FrontPoint &p, const std::vector<FrontPoint> &front) {
  return std::any_of(front.begin(), front.end(), [&](const FrontPoint &q) {
    return q.objectives.latency_s <= p.objectives.latency_s &&
           q.objectives.energy_pj <= p.objectives.energy_pj;
  });
}

bool any_fused(const ExploreResult &r) {
  for (const FrontPoint &p : r.front)
    for (const MappingPart &part : p.parts)
      if (r.problems[part.problem].fused())
        return true;
  return false;
}

bool any_recompute(const ExploreResult &r) {
  for (const FrontPoint &p : r.front)
    for (const MappingPart &part : p.parts)
      if (!part.candidate.dataflow.recompute_dims(r.problems[part.problem]).empty())
        return true;
  return false;
}

struct Ablation {
  ExploreResult full, no_fusion, no_recompute;
};

Ablation explore_three_ways(const Workload &w, const Hardware &hw) {
  SearchOptions no_fusion, no_recompute;
  no_fusion.fusion = false;
  no_recompute.recompute = false;
  return {explore(w, hw, SearchOptions{}), explore(w, hw, no_fusion), explore(w, hw, no_recompute)};
}

void expect_restricted_fronts_are_dominated(const Ablation &a) {
  ASSERT_FALSE(a.full.front.empty());
  for (const ExploreResult *r : {&a.no_fusion, &a.no_recompute}) {
    ASSERT_FALSE(r->front.empty());
    for (const FrontPoint &p : r->front)
      EXPECT_TRUE(weakly_dominated(p, a.full.front));
  }
  EXPECT_FALSE(any_fused(a.no_fusion));
  EXPECT_FALSE(any_recompute(a.no_fusion));
  EXPECT_FALSE(any_recompute(a.no_recompute));
}

TEST(Ablation, GemmPairWhereFusionAndRecomputeBothPay) {
  // The brute-force scenario where recompute is favoured: a cheap producer, a 16-word buffer.
  const Workload w = parse_workload(test_common::gemm_pair_workload("pair", 4, 1, 8, 8), "w.yaml");
  test::HardwareSpec spec;
  spec.gb_words = 16;
  const Ablation a = explore_three_ways(w, test::tiny_hardware(spec));
  expect_restricted_fronts_are_dominated(a);
  EXPECT_TRUE(any_fused(a.full));
  EXPECT_TRUE(any_recompute(a.full));
  EXPECT_TRUE(any_fused(a.no_recompute));
  // Leaving either out loses something: some full-front point is beaten by no restricted one.
  for (const ExploreResult *r : {&a.no_fusion, &a.no_recompute})
    EXPECT_TRUE(std::any_of(a.full.front.begin(), a.full.front.end(),
                            [&](const FrontPoint &p) { return !weakly_dominated(p, r->front); }));
}

TEST(Ablation, Attention) {
  const Workload w =
      parse_workload(test_common::attention_workload("attention", 2, 16, 32, 8, 8), "w.yaml");
  test::HardwareSpec spec;
  spec.gb_words = 256;
  expect_restricted_fronts_are_dominated(explore_three_ways(w, test::tiny_hardware(spec)));
}

} // namespace
} // namespace dse
