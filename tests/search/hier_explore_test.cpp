// A workload's front on a general hierarchy with fusion: each chain's front is the exact choice,
// link by link, between the operators alone and fused pairs (docs/HIERARCHY.md §8.4), checked
// against the fronts of the segments combined here by enumeration, EDP included; a pair searched
// fused only is its fused search's front.
#include <gtest/gtest.h>

#include <limits>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {
namespace {

using Key = ParetoFront::Key;

const std::vector<Objective> kObjectives{Objective::Latency, Objective::Energy, Objective::Dram};

/// The keys no other key is at most in every objective (equal keys kept once), sorted.
std::vector<Key> undominated(std::vector<Key> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  std::vector<Key> out;
  for (const Key &k : keys)
    if (std::none_of(keys.begin(), keys.end(), [&](const Key &o) {
          return o != k && std::equal(o.begin(), o.begin() + 3, k.begin(),
                                      [](double a, double b) { return a <= b; });
        }))
      out.push_back(k);
  return out;
}

/// Every sum of one point of each front, run one after another.
std::vector<Objectives> in_sequence(const std::vector<std::vector<Objectives>> &fronts) {
  std::vector<Objectives> sums{Objectives{}};
  for (const std::vector<Objectives> &front : fronts) {
    std::vector<Objectives> next;
    for (const Objectives &a : sums)
      for (const Objectives &b : front)
        next.push_back(objectives_in_sequence(a, b));
    sums = std::move(next);
  }
  return sums;
}

std::vector<Objectives> objectives_of(const HierSearchResult &r) {
  std::vector<Objectives> out;
  for (const HierFrontPoint &p : r.front)
    out.push_back(p.objectives);
  return out;
}

std::vector<Objectives> objectives_of(const FusedHierSearchResult &r) {
  std::vector<Objectives> out;
  for (const FusedHierFrontPoint &p : r.front)
    out.push_back(p.objectives);
  return out;
}

std::vector<Key> keys_of(const std::vector<Objectives> &points) {
  std::vector<Key> keys;
  for (const Objectives &o : points)
    keys.push_back(ParetoFront::key_of(o, kObjectives));
  return keys;
}

/// Two GEMMs in a chain (an FFN's up and down projections), small enough for fused searches.
Workload two_gemms() {
  return parse_workload("name: ffn\ndims: {m: 8, k: 4, n: 8, l: 4}\nops:\n"
                        "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                        "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n",
                        "ffn.yaml");
}

Hardware a16() {
  return load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/a16-timeloop.yaml");
}

TEST(HierExplore, AChainOfThreeChoosesPerLinkBetweenFusedPairsAndOperatorsAlone) {
  const Workload w = parse_workload("name: mlp3\ndims: {m: 8, k: 4, n: 8, l: 4, p: 2}\nops:\n"
                                    "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                                    "  - {name: mid, einsum: \"G[m,l] += H[m,n] * W2[n,l]\"}\n"
                                    "  - {name: down, einsum: \"O[m,p] += G[m,l] * W3[l,p]\"}\n",
                                    "mlp3.yaml");
  const Hardware hw = a16();
  HierSearchOptions options;
  options.objectives = kObjectives;
  options.fusion = true;
  const HierExploreResult fused = explore_hier(hw, w, options);

  const Chain chain = chain_splits(w).front().front();
  std::vector<std::vector<Objectives>> alone, pairs;
  for (size_t i = 0; i < 3; ++i)
    alone.push_back(objectives_of(search_hier_front(hw, w, w.ops[i], options)));
  for (size_t i = 0; i < 2; ++i) {
    const Problem problem = make_fused_problem(w, chain.links[i], chain.links[i + 1]);
    pairs.push_back(objectives_of(search_fused_hier_front(hw, problem, options)));
  }
  std::vector<Key> expected = keys_of(in_sequence(alone));
  for (const std::vector<Objectives> &sums :
       {in_sequence({pairs[0], alone[2]}), in_sequence({alone[0], pairs[1]})}) {
    const std::vector<Key> keys = keys_of(sums);
    expected.insert(expected.end(), keys.begin(), keys.end());
  }
  std::vector<Objectives> found;
  for (const HierPlan &plan : fused.front)
    found.push_back(plan.objectives);
  EXPECT_EQ(undominated(keys_of(found)), undominated(expected));

  // Every plan runs each operator once, in order, and some plan of the front fuses a pair.
  bool fuses = false;
  for (const HierPlan &plan : fused.front) {
    std::vector<int> ops;
    for (const HierPlanPart &part : plan.parts) {
      const HierSegmentFront &s = fused.segments[part.segment];
      ASSERT_LT(part.point, s.points());
      fuses |= s.pair.has_value();
      ops.insert(ops.end(), s.ops.begin(), s.ops.end());
    }
    EXPECT_EQ(ops, (std::vector<int>{0, 1, 2}));
  }
  EXPECT_TRUE(fuses);

  options.fusion = false;
  const HierExploreResult apart = explore_hier(hw, w, options);
  for (const HierSegmentFront &s : apart.segments)
    EXPECT_FALSE(s.pair.has_value());
  std::vector<Objectives> alone_front;
  for (const HierPlan &plan : apart.front)
    alone_front.push_back(plan.objectives);
  EXPECT_EQ(undominated(keys_of(alone_front)), undominated(keys_of(in_sequence(alone))));
}

TEST(HierExplore, AFusedPairAloneIsItsFusedSearchsFrontAndNothingElse) {
  const Workload w = two_gemms();
  const Hardware hw = a16();
  HierSearchOptions options;
  options.objectives = kObjectives;
  options.fusion = true;
  const std::optional<HierExploreResult> pair = explore_hier_fused_pair(hw, w, options);
  ASSERT_TRUE(pair);
  ASSERT_EQ(pair->segments.size(), 1u); // neither operator searched alone
  EXPECT_TRUE(pair->segments[0].pair.has_value());
  EXPECT_EQ(pair->segments[0].ops, (std::vector<int>{0, 1}));
  const Chain chain = chain_splits(w).front().front();
  const Problem problem = make_fused_problem(w, chain.links[0], chain.links[1]);
  std::vector<Objectives> found;
  for (const HierPlan &plan : pair->front) {
    ASSERT_EQ(plan.parts.size(), 1u);
    found.push_back(plan.objectives);
  }
  EXPECT_EQ(keys_of(found),
            undominated(keys_of(objectives_of(search_fused_hier_front(hw, problem, options)))));

  options.fusion = false; // nothing fused, as explore_hier would fuse nothing
  EXPECT_FALSE(explore_hier_fused_pair(hw, w, options));
  options.fusion = true;
  const Workload single = parse_workload("name: one\ndims: {m: 8, k: 4, n: 8}\nops:\n"
                                         "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n",
                                         "one.yaml");
  EXPECT_FALSE(explore_hier_fused_pair(hw, single, options)); // not a pair
}

TEST(HierExplore, AnEdpFrontIsTheLeastEdpOfTheSumsOfLatencyEnergyFronts) {
  // EDP does not add up: the best EDP of two operators in sequence need not pair each
  // operator's best EDP, so the parts are searched over latency and energy.
  const Workload w = two_gemms();
  const Hardware hw = a16();
  HierSearchOptions options;
  std::vector<std::vector<Objectives>> fronts;
  for (const Operator &op : w.ops)
    fronts.push_back(objectives_of(search_hier_front(hw, w, op, options)));
  double least = std::numeric_limits<double>::infinity();
  for (const Objectives &o : in_sequence(fronts))
    least = std::min(least, o.edp);
  options.objectives = {Objective::Edp};
  const HierExploreResult r = explore_hier(hw, w, options);
  ASSERT_FALSE(r.front.empty());
  for (const HierPlan &plan : r.front)
    EXPECT_EQ(plan.objectives.edp, least);
}

// An einsum that is an earlier one with its dimensions renamed takes that einsum's front renamed:
// every point is a legal mapping of it that evaluates to the point's objectives, and the front
// is the one its own search finds.
TEST(HierExplore, AnEinsumThatIsAnEarlierOneRenamedTakesItsFrontRenamed) {
  const Workload w = parse_workload("name: three\ndims: {m: 16, n: 16, d: 8, k: 4, l: 4}\nops:\n"
                                    "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                                    "  - {name: b, einsum: \"B[n,l] += Y[n,d] * Wb[d,l]\"}\n"
                                    "  - {name: c, einsum: \"C[m,k] += X[m,d] * Wc[k,d]\"}\n",
                                    "three.yaml");
  const Hardware hw = a16();
  HierSearchOptions options;
  options.objectives = kObjectives;
  const HierExploreResult r = explore_hier(hw, w, options);
  ASSERT_EQ(r.segments.size(), 3u);
  EXPECT_FALSE(r.segments[0].renamed_from);
  EXPECT_EQ(r.segments[1].renamed_from, std::optional<size_t>(0));
  EXPECT_FALSE(r.segments[2].renamed_from); // its weight is read transposed
  const Operator &b = w.ops[1];
  std::vector<Objectives> renamed;
  for (const HierFrontPoint &p : r.segments[1].search.front) {
    EXPECT_EQ(hier_mapping_violation(hw, w, b, p.mapping), std::nullopt);
    const HierCost cost = evaluate_hier_mapping(hw, w, b, p.mapping, options.first_read_elision,
                                                options.latency_model);
    EXPECT_EQ(hier_objectives(hw, cost).energy_pj, p.objectives.energy_pj);
    EXPECT_EQ(hier_objectives(hw, cost).latency_s, p.objectives.latency_s);
    EXPECT_EQ(hier_objectives(hw, cost).dram_words, p.objectives.dram_words);
    renamed.push_back(p.objectives);
  }
  ASSERT_FALSE(renamed.empty());
  EXPECT_EQ(keys_of(renamed), keys_of(objectives_of(search_hier_front(hw, w, b, options))));
}

} // namespace
} // namespace dse
