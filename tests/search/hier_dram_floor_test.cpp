// The DRAM floor of the hierarchical search's bounds (docs/HIERARCHY.md §7.3) is a floor: on
// seeded random hierarchies with one instance of level 1 and small level-1 capacities, and random
// legal mappings of GEMMs, 1-D convolutions and batched GEMMs, the DRAM words of the tensors level
// 1 keeps (level 0's reads and updates of them, by the model) are never below the floor at the
// mapping's level-1 extents, nor at any extents they are multiples of, with first-read elision on
// and off; it reaches the least words of every order where one fits; and a level 1 too small for
// any tile has an infinite floor.
#include <gtest/gtest.h>

#include <cmath>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_dram_floor.hpp"
#include "model/hier_random.hpp"

namespace dse {
namespace {

/// Level 0's reads and updates of the tensors level 1 keeps.
double kept_dram_words(const HierCost &cost, std::uint32_t kept) {
  double words = 0;
  for (size_t t = 0; t < cost.levels[0].tensors.size(); ++t)
    if ((kept >> t & 1U) != 0)
      words += cost.levels[0].tensors[t]->reads + cost.levels[0].tensors[t]->updates;
  return words;
}

/// What an output's level-0 reads leave out: its first arrivals, when elided.
double first_arrivals(const Workload &w, const Operator &op, bool elision) {
  std::vector<std::int64_t> whole(w.dims.size(), 1);
  for (size_t d = 0; d < w.dims.size(); ++d)
    whole[d] = w.dims[d].size;
  return elides_first_read(op, elision) ? op.einsum.output.words(whole) : 0;
}

/// Per dimension, the product of the mapping's factors from level `level` in (its extent there),
/// or an empty vector when a dimension is padded (the floor covers divisor extents).
std::vector<std::int64_t> extents_inside(const Workload &w, const OpMapping &m, size_t level) {
  std::vector<std::int64_t> extent(w.dims.size(), 1);
  for (size_t d = 0; d < w.dims.size(); ++d) {
    for (size_t l = level; l < m.levels.size(); ++l)
      extent[d] *= m.levels[l].factor[d];
    for (size_t gap = level; gap < m.fanouts.size(); ++gap)
      for (const FanoutMapping &f : m.fanouts[gap])
        extent[d] *= f.factor(static_cast<int>(d));
    if (w.dims[d].size % extent[d] != 0)
      return {};
  }
  return extent;
}

TEST(HierDramFloor, NoMappingOfTheKeptTensorsMovesFewerWords) {
  size_t checked = 0;
  for (std::uint64_t seed = 0; seed < 600; ++seed) {
    std::mt19937_64 rng(seed);
    Hardware hw = hier_random::random_hardware(rng);
    hw.hierarchy.fanouts[0].clear();
    if (hw.hierarchy.levels.size() < 2)
      continue;
    hw.hierarchy.levels[1].capacity_words = hier_random::uniform(rng, 4, 96);
    const auto kind = static_cast<hier_random::EinsumKind>(seed % 3);
    const Workload w = hier_random::random_workload(rng, kind);
    const Operator &op = w.ops[0];
    const OpMapping m = hier_random::random_mapping(rng, hw.hierarchy, w, op);
    const std::vector<std::int64_t> level1 = extents_inside(w, m, 1);
    if (level1.empty() || hier_mapping_violation(hw, w, op, m))
      continue;
    const bool elision = seed % 2 == 0;
    const std::uint32_t kept = m.levels[1].keep;
    const HierDramFloor floor(hw, w, op, op.dims(), kept, first_arrivals(w, op, elision),
                              size_t{1} << 20);
    const HierCost cost = evaluate_hier_mapping(hw, w, op, m, elision, LatencyModel::Roofline);
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_LE(floor.at_least(level1), kept_dram_words(cost, kept));
    const std::vector<std::int64_t> inner =
        m.levels.size() > 2 ? extents_inside(w, m, 2) : std::vector<std::int64_t>{};
    if (!inner.empty()) {
      EXPECT_LE(floor.at_least(inner), floor.at_least(level1));
    }
    ++checked;
  }
  EXPECT_GT(checked, 150u);
}

/// DRAM -> a level 1 of `capacity` words -> compute, for C[m,n] += A[m,k] * B[k,n].
Hardware one_level(std::int64_t capacity) {
  std::mt19937_64 rng(1);
  Hardware hw = hier_random::random_hardware(rng, {1, 0, 1, capacity});
  hw.hierarchy.levels[1].holds = role::kAll;
  hw.hierarchy.levels[1].double_buffering = false;
  return hw;
}

TEST(HierDramFloor, ReachesTheLeastWordsOfEveryOrderAndTiling) {
  // A 4x4x4 GEMM with every tensor kept in 12 words: the least over every divisor tiling that
  // fits and every order, enumerated by the model.
  const Hardware hw = one_level(12);
  const Workload w = parse_workload(test_common::gemm_workload("g", 4, 4, 4), "g.yaml");
  const Operator &op = w.ops[0];
  const HierDramFloor floor(hw, w, op, op.dims(), 7, first_arrivals(w, op, true), 1024);
  double least = std::numeric_limits<double>::infinity();
  const std::vector<std::int64_t> divisors = {1, 2, 4};
  for (std::int64_t a : divisors)
    for (std::int64_t b : divisors)
      for (std::int64_t c : divisors) {
        OpMapping m = hier_random::unit_mapping(hw.hierarchy, w.dims.size());
        m.levels[1].factor = {a, b, c};
        m.levels[1].order = {0, 1, 2};
        m.levels[0].factor = {4 / a, 4 / b, 4 / c};
        m.levels[0].keep = 7;
        m.levels[1].keep = 7;
        std::vector<int> order = {0, 1, 2};
        do {
          m.levels[0].order = order;
          if (hier_mapping_violation(hw, w, op, m))
            continue; // its tiles overflow the 12 words
          least = std::min(
              least, kept_dram_words(
                         evaluate_hier_mapping(hw, w, op, m, true, LatencyModel::Roofline), 7));
        } while (std::next_permutation(order.begin(), order.end()));
      }
  ASSERT_TRUE(std::isfinite(least));
  EXPECT_EQ(floor.at_least({1, 1, 1}), least);
  EXPECT_GT(least, 3 * 16); // 12 words cannot hold the three tensors: some are fetched again
}

TEST(HierDramFloor, ALevelTooSmallForAnyTileHasNoFloorToReach) {
  const Hardware hw = one_level(2);
  const Workload w = parse_workload(test_common::gemm_workload("g", 4, 4, 4), "g.yaml");
  const HierDramFloor floor(hw, w, w.ops[0], w.ops[0].dims(), 7, 0, 1024);
  EXPECT_EQ(floor.at_least({1, 1, 1}), std::numeric_limits<double>::infinity());
  const HierDramFloor without_output(hw, w, w.ops[0], w.ops[0].dims(), 3, 0, 1024);
  EXPECT_TRUE(std::isfinite(without_output.at_least({1, 1, 1}))); // A and B: a word each
}

TEST(HierDramFloor, ALatticeBeyondItsLimitGivesNoFloor) {
  const Hardware hw = one_level(12);
  const Workload w = parse_workload(test_common::gemm_workload("g", 4, 4, 4), "g.yaml");
  const HierDramFloor floor(hw, w, w.ops[0], w.ops[0].dims(), 7, 0, 26); // 27 points
  EXPECT_EQ(floor.at_least({1, 1, 1}), 0);
}

} // namespace
} // namespace dse
