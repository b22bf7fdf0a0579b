// Soundness of the least costs the fused search bounds with (docs/HIERARCHY.md §8.3), on random
// fused pairs: every operator's nest has the least cost's MACs (and, given its fan-outs and keep
// sets, its utilised units) and at least its level-1 reads and updates, inner energies and inner
// transfer cycles, with and without the nest's shape; every divisor tiling of a box (some
// dimensions chosen, the others free) costs at least the outer part's bound over the box in every
// count and in level 1's words, and its operators' least costs are at least those of the partly
// chosen tiling.
#include <gtest/gtest.h>

#include <random>

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

std::vector<std::int64_t> divisors_of(std::int64_t n) {
  std::vector<std::int64_t> out;
  for (std::int64_t d = 1; d <= n; ++d)
    if (n % d == 0)
      out.push_back(d);
  return out;
}

/// Every count of the outer part, and level 1's words.
std::vector<double> outer_counts(const FusedOuterCost &c) {
  std::vector<double> counts{c.level1.buffer_words, c.vector_ops};
  for (const HierLevelCost *level : {&c.dram, &c.level1})
    for (const std::optional<HierTensorCounts> &t : level->tensors)
      counts.insert(counts.end(), {t ? t->reads : 0, t ? t->fills : 0, t ? t->updates : 0,
                                   t ? t->tile_words : 0});
  return counts;
}

/// Every divisor tiling of the pair that keeps the extents of `chosen` dimensions (in
/// problem.dims) as `partial` has them.
std::vector<FusedTiles> completions(const Problem &problem, const FusedTiles &partial,
                                    size_t chosen) {
  std::vector<FusedTiles> out{partial};
  for (size_t i = chosen; i < problem.dims.size(); ++i) {
    const auto d = static_cast<size_t>(problem.dims[i]);
    std::vector<FusedTiles> next;
    for (const FusedTiles &t : out)
      for (std::int64_t e : divisors_of(problem.workload->dims[d].size)) {
        next.push_back(t);
        next.back().extent[d] = e;
        next.back().trips[d] = problem.workload->dims[d].size / e;
      }
    out = std::move(next);
  }
  return out;
}

TEST(FusedLeastCost, EveryTilingOfABoxCostsAtLeastItsBound) {
  for (std::uint64_t seed = 1; seed <= 150; ++seed) {
    const fused_hier_random::Case c =
        fused_hier_random::random_case(seed, fused_hier_random::ChainKind::Gemm);
    const Problem problem = fused_hier_random::fused_problem(c);
    const Workload &w = c.workload;
    std::mt19937_64 rng(seed);
    const size_t chosen = std::uniform_int_distribution<size_t>(0, problem.dims.size() - 1)(rng);
    FusedTiles partial{std::vector<std::int64_t>(w.dims.size(), 1),
                       std::vector<std::int64_t>(w.dims.size(), 1)};
    AtomTable lo, hi;
    for (size_t d = 0; d < w.dims.size(); ++d) {
      const std::int64_t size = w.dims[d].size;
      const std::vector<std::int64_t> extents = divisors_of(size);
      lo.per_dim.push_back(atom_values(size, 1, 1, 1));
      hi.per_dim.push_back(lo.per_dim.back());
      for (std::int64_t e : extents)
        for (size_t a = 0; a < kAtomCount; ++a) {
          lo.per_dim[d][a] = std::min(lo.per_dim[d][a], atom_values(size, e, 1, 1)[a]);
          hi.per_dim[d][a] = std::max(hi.per_dim[d][a], atom_values(size, e, 1, 1)[a]);
        }
    }
    for (size_t i = 0; i < chosen; ++i) {
      const auto d = static_cast<size_t>(problem.dims[i]);
      const std::vector<std::int64_t> extents = divisors_of(w.dims[d].size);
      partial.extent[d] =
          extents[std::uniform_int_distribution<size_t>(0, extents.size() - 1)(rng)];
      partial.trips[d] = w.dims[d].size / partial.extent[d];
      lo.per_dim[d] = hi.per_dim[d] = atom_values(w.dims[d].size, partial.extent[d], 1, 1);
    }
    const bool elision = seed % 2 == 0;
    const FusedOuterForms forms = fused_outer_forms(c.hardware, problem, c.mapping.outer);
    const std::vector<double> bound =
        outer_counts(fused_outer_cost_bound(problem, forms, lo, hi, elision));
    SCOPED_TRACE("seed " + std::to_string(seed) + ": " + fused_hier_random::describe(c));
    for (const FusedTiles &tiles : completions(problem, partial, chosen)) {
      const std::vector<double> exact =
          outer_counts(fused_outer_cost(problem, forms, tiles, elision));
      for (size_t i = 0; i < exact.size(); ++i)
        expect_at_most(bound[i], exact[i]);
      for (int o = 0; o < 2; ++o) {
        const auto least = [&](const FusedTiles &t) {
          return fused_least_operator_cost(c.hardware, problem, t, o,
                                           fused_level0_trips(problem, c.mapping.outer, t, o));
        };
        const FusedOperatorCost of_box = least(partial), of_tiling = least(tiles);
        for (size_t t = 0; t < of_box.levels[1].tensors.size(); ++t) {
          expect_at_most(of_box.levels[1].tensors[t]->reads, of_tiling.levels[1].tensors[t]->reads);
          expect_at_most(of_box.levels[1].tensors[t]->updates,
                         of_tiling.levels[1].tensors[t]->updates);
        }
      }
    }
  }
}

} // namespace
} // namespace dse
