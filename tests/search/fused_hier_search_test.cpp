// Rung 2 for fused pairs on hierarchies of any depth (docs/HIERARCHY.md §8, §10): the pruned
// search (order dominance below level 0, each operator's nests kept only when no other nest is
// at most as costly in every additive part, loop trees and tilings skipped by their least cost)
// finds the front of the brute force over every mapping; every front point is a legal mapping
// that fits and whose evaluation gives its objectives.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "common/suite_scale.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/fused_hier_search.hpp"
#include "dse/search/local_plan_metrics.hpp"
#include "dse/search/symbolic_pruning.hpp"
#include "model/fused_hier_random.hpp"

namespace dse {
namespace {

using fused_hier_random::ChainKind;

/// The random case's hardware with small capacities, finite bandwidths and, at random, double
/// buffering, so that capacities cut the space and every level's time can set the latency.
Hardware constrained(Hardware hw, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const auto pick = [&rng](std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  hw.hierarchy.levels[0].shared_words_per_cycle = static_cast<double>(pick(1, 4));
  for (size_t l = 1; l < hw.hierarchy.levels.size(); ++l) {
    StorageLevel &level = hw.hierarchy.levels[l];
    level.capacity_words = l == 1 ? pick(24, 200) : pick(2, 24);
    level.shared_words_per_cycle = static_cast<double>(pick(2, 16));
    level.double_buffering = pick(0, 3) == 0;
  }
  return hw;
}

std::vector<std::vector<double>> front_values(const FusedHierSearchResult &r,
                                              const std::vector<Objective> &objectives) {
  std::vector<std::vector<double>> values;
  for (const FusedHierFrontPoint &p : r.front) {
    values.emplace_back();
    for (Objective o : objectives)
      values.back().push_back(objective_value(p.objectives, o));
  }
  return values;
}

void expect_points_are_legal_and_evaluate_to_their_objectives(const Hardware &hw,
                                                              const Problem &problem,
                                                              const FusedHierSearchResult &r,
                                                              const HierSearchOptions &options) {
  for (const FusedHierFrontPoint &p : r.front) {
    ASSERT_EQ(fused_hier_mapping_problem(hw, problem, p.mapping), "");
    const FusedHierCost cost = evaluate_fused_hier_mapping(
        hw, problem, p.mapping, options.first_read_elision, options.latency_model);
    EXPECT_FALSE(hier_capacity_violation(hw, cost.totals).has_value());
    const Objectives o = hier_objectives(hw, cost.totals);
    EXPECT_EQ(o.latency_s, p.objectives.latency_s);
    EXPECT_EQ(o.energy_pj, p.objectives.energy_pj);
    EXPECT_EQ(o.dram_words, p.objectives.dram_words);
  }
}

/// The objectives of seed `seed`: latency and energy (the default), or a pair that trades level
/// 1's words against energy, DRAM words or latency.
std::vector<Objective> objectives_of(std::uint64_t seed) {
  switch (seed % 4) {
  case 0:
    return {Objective::Latency, Objective::Energy};
  case 1:
    return {Objective::Energy, Objective::Buffer};
  case 2:
    return {Objective::Dram, Objective::Buffer};
  default:
    return {Objective::Latency, Objective::Buffer};
  }
}

/// `sizes`: the size of each workload dimension from its position and random size (spaces the
/// brute force walks in seconds).
void expect_pruned_equals_brute_force(std::uint64_t seed,
                                      const hier_random::HierarchyLimits &limits,
                                      std::int64_t (*sizes)(size_t, std::int64_t),
                                      ChainKind kind = ChainKind::Gemm) {
  fused_hier_random::Case c = fused_hier_random::random_case(seed, kind, limits);
  for (size_t d = 0; d < c.workload.dims.size(); ++d)
    c.workload.dims[d].size = sizes(d, c.workload.dims[d].size);
  const Hardware hw = constrained(c.hardware, seed);
  const Problem problem = fused_hier_random::fused_problem(c);
  HierSearchOptions options;
  options.first_read_elision = seed % 2 == 0;
  options.objectives = objectives_of(seed);
  if (seed % 5 == 0)
    options.latency_model = LatencyModel::Sequential;
  options.prune = false;
  const FusedHierSearchResult brute = search_fused_hier_front(hw, problem, options);
  options.prune = true;
  const FusedHierSearchResult pruned = search_fused_hier_front(hw, problem, options);
  std::string sizes_text;
  for (const auto &d : c.workload.dims)
    sizes_text += " " + std::to_string(d.size);
  SCOPED_TRACE("seed " + std::to_string(seed) + " with sizes" + sizes_text + ": " +
               fused_hier_random::describe(c));
  EXPECT_EQ(front_values(pruned, options.objectives), front_values(brute, options.objectives));
  EXPECT_LE(pruned.statistics.mappings, brute.statistics.mappings);
  expect_points_are_legal_and_evaluate_to_their_objectives(hw, problem, pruned, options);
}

TEST(FusedHierSearch, PrunedEqualsBruteForceOnRandomChainsWithFanouts) {
  const hier_random::HierarchyLimits limits{2, 1, 2, 1 << 20};
  // The sanitizer suite's seeds take elision on and off, the sequential model (seed % 5) and three
  // objective pairs; the fourth (DRAM and buffer words) is batched chain seed 102's.
  for (std::uint64_t seed : test_common::per_suite<std::vector<std::uint64_t>>(
           {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, {3, 4, 5}))
    expect_pruned_equals_brute_force(
        seed, limits, [](size_t, std::int64_t size) { return std::int64_t{1} << (size % 2); });
}

TEST(FusedHierSearch, PrunedEqualsBruteForceWhereTilingsAreNotMaximal) {
  // m = 8 over two on-chip levels (seeds 24 and 25; seed 23 has one): an inner block's factor
  // of m can give a prime to the level below it (maximal tilings), and the small inner levels cut
  // tilings part way (capacities).
  const hier_random::HierarchyLimits limits{2, 1, 2, 1 << 20};
  for (std::uint64_t seed : test_common::per_suite<std::vector<std::uint64_t>>({23, 24, 25}, {24}))
    expect_pruned_equals_brute_force(seed, limits, [](size_t d, std::int64_t) {
      return d == 0 ? std::int64_t{8} : std::int64_t{1};
    });
}

/// Every tiling of `problem`'s dimensions (level-1 extents dividing the sizes), with its trips.
std::vector<FusedTiles> every_tiling(const Problem &problem) {
  const Workload &w = *problem.workload;
  std::vector<FusedTiles> out{
      {std::vector<std::int64_t>(w.dims.size(), 1), std::vector<std::int64_t>(w.dims.size(), 1)}};
  for (int d : problem.dims) {
    std::vector<FusedTiles> next;
    const std::int64_t size = w.dim_size(d);
    for (const FusedTiles &t : out)
      for (std::int64_t e = 1; e <= size; ++e)
        if (size % e == 0) {
          FusedTiles u = t;
          u.extent[static_cast<size_t>(d)] = e;
          u.trips[static_cast<size_t>(d)] = size / e;
          next.push_back(std::move(u));
        }
    out = std::move(next);
  }
  return out;
}

/// Every loop tree of `problem` with a distinct level-0 path for operator `op` (what its
/// FusedLevel0Trips read), the other operator's plan the first one.
std::vector<Dataflow> trees_by_path(const Problem &problem, int op) {
  std::vector<Dataflow> trees;
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    const LocalPlan other = enumerate_local_plans(problem, choice, 1 - op).front();
    for (const LocalPlan &plan : enumerate_local_plans(problem, choice, op)) {
      Dataflow tree = op == 0 ? assemble_dataflow(problem, choice, {&plan, &other})
                              : assemble_dataflow(problem, choice, {&other, &plan});
      if (std::none_of(trees.begin(), trees.end(), [&](const Dataflow &t) {
            return t.prefix == tree.prefix && t.path(op) == tree.path(op);
          }))
        trees.push_back(std::move(tree));
    }
  }
  return trees;
}

TEST(FusedHierSearch, Level0LoopsRowsBoundWhatEveryNestReadsOfItsLoopTree) {
  // The lemma behind pruning loop trees before their nests are searched: of two trees, the one
  // whose level0_loops_row for an operator is at most the other's gives that operator at most
  // the other's trips to the last indexing loop for every tensor, level-0 trips and
  // productions, at every tiling (across prefixes, with and without recompute).
  size_t compared = 0, dominated = 0;
  for (std::uint64_t seed = 201; seed <= 206; ++seed) {
    const fused_hier_random::Case c =
        fused_hier_random::random_case(seed, ChainKind::BatchedGemm, {1, 0, 1, 1 << 20});
    const Problem problem = fused_hier_random::fused_problem(c);
    const std::vector<FusedTiles> tilings = every_tiling(problem);
    for (int op = 0; op < 2; ++op) {
      const std::vector<Dataflow> trees = trees_by_path(problem, op);
      std::vector<MetricRow> rows;
      for (const Dataflow &t : trees)
        rows.push_back(level0_loops_row(problem, op, t.path(op), t.prefix.size()));
      for (size_t a = 0; a < trees.size(); ++a)
        for (size_t b = 0; b < trees.size(); ++b) {
          ++compared;
          if (!dominates(rows[a], rows[b]))
            continue;
          ++dominated;
          for (const FusedTiles &tiles : tilings) {
            const FusedLevel0Trips x = fused_level0_trips(problem, trees[a], tiles, op);
            const FusedLevel0Trips y = fused_level0_trips(problem, trees[b], tiles, op);
            for (size_t t = 0; t < x.to_last_indexing.size(); ++t)
              ASSERT_LE(x.to_last_indexing[t], y.to_last_indexing[t])
                  << "seed " << seed << ", operator " << op << ", tensor " << t;
            ASSERT_LE(x.all, y.all);
            ASSERT_LE(x.productions, y.productions);
          }
        }
    }
  }
  EXPECT_LT(dominated, compared / 2); // most paths are incomparable
  EXPECT_GT(dominated, compared / 20);
}

TEST(FusedHierSearch, BatchedChainsGiveLegalPointsThatEvaluateToTheirObjectives) {
  for (std::uint64_t seed = 101; seed <= test_common::per_suite<std::uint64_t>(106, 102); ++seed) {
    const fused_hier_random::Case c =
        fused_hier_random::random_case(seed, ChainKind::BatchedGemm, {2, 1, 2, 1 << 20});
    const Hardware hw = constrained(c.hardware, seed);
    const Problem problem = fused_hier_random::fused_problem(c);
    HierSearchOptions options;
    options.objectives = objectives_of(seed);
    const FusedHierSearchResult r = search_fused_hier_front(hw, problem, options);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + fused_hier_random::describe(c));
    EXPECT_FALSE(r.front.empty());
    expect_points_are_legal_and_evaluate_to_their_objectives(hw, problem, r, options);
  }
}

std::vector<std::uint64_t> statistics_of(const FusedHierSearchResult &r) {
  const FusedHierSearchStatistics &s = r.statistics;
  return {s.loop_trees, s.partial_tilings_cut, s.tilings, s.tilings_skipped, s.nest_fronts, s.nests,
          s.mappings};
}

TEST(FusedHierSearch, FrontAndStatisticsDoNotDependOnTheThreadCount) {
  // The nest fronts are built in batches on the threads; the search and its counts must not see
  // how many there are.
  for (std::uint64_t seed = 1; seed <= test_common::per_suite<std::uint64_t>(4, 2); ++seed) {
    fused_hier_random::Case c =
        fused_hier_random::random_case(seed, ChainKind::Gemm, {2, 1, 2, 1 << 20});
    for (size_t d = 0; d < c.workload.dims.size(); ++d)
      c.workload.dims[d].size = 8; // tens of nest fronts
    const Hardware hw = constrained(c.hardware, seed);
    const Problem problem = fused_hier_random::fused_problem(c);
    HierSearchOptions options;
    options.objectives = objectives_of(seed);
    options.threads = 1;
    const FusedHierSearchResult one = search_fused_hier_front(hw, problem, options);
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + fused_hier_random::describe(c));
    ASSERT_GT(one.statistics.nest_fronts, 16U); // more than one batch
    for (int threads : {2, 3}) {
      options.threads = threads;
      const FusedHierSearchResult many = search_fused_hier_front(hw, problem, options);
      EXPECT_EQ(front_values(many, options.objectives), front_values(one, options.objectives));
      EXPECT_EQ(statistics_of(many), statistics_of(one));
      for (size_t i = 0; i < std::min(one.front.size(), many.front.size()); ++i)
        EXPECT_EQ(many.front[i].mapping.outer.prefix, one.front[i].mapping.outer.prefix);
    }
  }
}

} // namespace
} // namespace dse
