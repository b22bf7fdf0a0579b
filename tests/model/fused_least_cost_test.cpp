// Soundness of the least cost the fused search bounds with (docs/HIERARCHY.md §8.3): on random
// fused pairs, every operator's nest has the least cost's MACs (and, given its fan-outs and keep
// sets, its utilised units) and at least its level-1 reads and updates, inner energies and inner
// transfer cycles, with and without the nest's shape.
#include <gtest/gtest.h>

#include "dse/model/fused_least_cost.hpp"
#include "model/fused_hier_random.hpp"

namespace dse {
namespace {

/// `least` is at most `actual` up to rounding (the two sum in different orders).
void expect_at_most(double least, double actual) { EXPECT_LE(least, actual * (1 + 1e-12) + 1e-9); }

void expect_bounds(const FusedOperatorCost &least, const FusedOperatorCost &actual) {
  EXPECT_EQ(least.macs, actual.macs);
  for (size_t t = 0; t < actual.levels[1].tensors.size(); ++t) {
    expect_at_most(least.levels[1].tensors[t]->reads, actual.levels[1].tensors[t]->reads);
    expect_at_most(least.levels[1].tensors[t]->updates, actual.levels[1].tensors[t]->updates);
  }
  for (size_t l = 2; l < actual.levels.size(); ++l) {
    expect_at_most(least.levels[l].energy_pj, actual.levels[l].energy_pj);
    expect_at_most(least.levels[l].transfer_cycles, actual.levels[l].transfer_cycles);
  }
}

TEST(FusedLeastCost, EveryNestCostsAtLeastItsLeastCost) {
  for (std::uint64_t seed = 1; seed <= 400; ++seed) {
    const fused_hier_random::Case c = fused_hier_random::random_case(
        seed, seed % 3 == 0 ? fused_hier_random::ChainKind::BatchedGemm
                            : fused_hier_random::ChainKind::Gemm);
    const Problem problem = fused_hier_random::fused_problem(c);
    const FusedTiles tiles = fused_tiles(problem, c.mapping);
    for (int o = 0; o < 2; ++o) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", operator " + std::to_string(o) + ": " +
                   fused_hier_random::describe(c));
      const OpMapping &nest = c.mapping.ops[static_cast<size_t>(o)];
      const FusedOperatorCost actual =
          fused_operator_cost(c.hardware, problem, c.mapping.outer, tiles, o, nest, seed % 2 == 0);
      const FusedLevel0Trips trips = fused_level0_trips(problem, c.mapping.outer, tiles, o);
      const FusedOperatorCost of_shape =
          fused_least_operator_cost(c.hardware, problem, tiles, o, trips, &nest);
      expect_bounds(of_shape, actual);
      EXPECT_EQ(of_shape.utilised_units, actual.utilised_units);
      const FusedOperatorCost of_all =
          fused_least_operator_cost(c.hardware, problem, tiles, o, trips);
      expect_bounds(of_all, actual);
      EXPECT_GE(of_all.utilised_units, actual.utilised_units);
    }
  }
}

} // namespace
} // namespace dse
