// The pruned nests of a fused operator below level 0 (docs/HIERARCHY.md §8.3) lose nothing: every
// nest of the unpruned enumeration that fits its inner levels is matched or beaten in every count
// (reads, fills and updates per level and tensor, compute cycles) by a pruned nest, which itself
// fits. Maximal tilings, capacity filtering, order dominance and the innermost level's single
// order are all checked at once, on random fused pairs over two and three on-chip levels.
#include <gtest/gtest.h>

#include <random>

#include "dse/search/fused_inner_nests.hpp"
#include "model/fused_hier_random.hpp"

namespace dse {
namespace {

/// Every count of a nest below level 0 that a cost grows with.
std::vector<double> counts_of(const FusedOperatorCost &c) {
  std::vector<double> counts{c.macs / c.utilised_units};
  for (size_t l = 1; l < c.levels.size(); ++l)
    for (const std::optional<HierTensorCounts> &t : c.levels[l].tensors)
      counts.insert(counts.end(), {t ? t->reads : 0, t ? t->fills : 0, t ? t->updates : 0});
  return counts;
}

/// The counts of every nest `prune` enumerates, and how many of them fit.
struct Enumerated {
  std::vector<std::vector<double>> fitting;
  size_t all = 0;
};

Enumerated enumerate(const Hardware &hw, const Problem &problem, const Dataflow &tree,
                     const FusedTiles &tiles, int o, bool prune) {
  std::vector<bool> refilled;
  for (double trips : fused_level0_trips(problem, tree, tiles, o).to_last_indexing)
    refilled.push_back(trips > 1);
  Enumerated e;
  for_each_inner_nest(
      hw, problem, o, tiles, refilled, prune, [](const OpMapping &) { return false; },
      [&](const OpMapping &m) {
        ++e.all;
        const FusedOperatorCost cost = fused_operator_cost(hw, problem, tree, tiles, o, m, true);
        if (fused_operator_fits(hw, cost))
          e.fitting.push_back(counts_of(cost));
      });
  return e;
}

bool weakly_dominated(const std::vector<double> &counts,
                      const std::vector<std::vector<double>> &by) {
  return std::any_of(by.begin(), by.end(), [&](const std::vector<double> &b) {
    for (size_t i = 0; i < b.size(); ++i)
      if (b[i] > counts[i])
        return false;
    return true;
  });
}

/// The case's pair with m of size 16 at level-1 extent 8 (so that an inner block's factor of m
/// can give a prime to a deeper level), the other dimensions at random extents and trips.
void expect_pruned_nests_lose_nothing(std::uint64_t seed,
                                      const hier_random::HierarchyLimits &limits) {
  fused_hier_random::Case c =
      fused_hier_random::random_case(seed, fused_hier_random::ChainKind::Gemm, limits);
  std::mt19937_64 rng(seed);
  FusedTiles tiles{{}, {}};
  for (size_t d = 0; d < c.workload.dims.size(); ++d) {
    const std::int64_t trips = std::uniform_int_distribution<std::int64_t>(1, 2)(rng);
    const std::int64_t extent = d == 0 ? 8 : std::uniform_int_distribution<std::int64_t>(1, 4)(rng);
    tiles.extent.push_back(extent);
    tiles.trips.push_back(trips);
    c.workload.dims[d].size = extent * trips;
  }
  for (size_t l = 2; l < c.hardware.hierarchy.levels.size(); ++l) {
    StorageLevel &level = c.hardware.hierarchy.levels[l];
    level.capacity_words = std::uniform_int_distribution<std::int64_t>(2, 24)(rng);
    level.double_buffering = l % 2 == 0;
  }
  const Problem problem = fused_hier_random::fused_problem(c);
  for (int o = 0; o < 2; ++o) {
    SCOPED_TRACE("seed " + std::to_string(seed) + ", operator " + std::to_string(o) + ": " +
                 fused_hier_random::describe(c));
    const Enumerated every =
        enumerate(c.hardware, problem, c.mapping.outer, tiles, o, /*prune=*/false);
    const Enumerated pruned =
        enumerate(c.hardware, problem, c.mapping.outer, tiles, o, /*prune=*/true);
    EXPECT_EQ(pruned.fitting.size(), pruned.all) << "a pruned nest does not fit";
    EXPECT_LE(pruned.all, every.fitting.size());
    for (const std::vector<double> &counts : every.fitting)
      ASSERT_TRUE(weakly_dominated(counts, pruned.fitting));
  }
}

TEST(FusedInnerNests, PrunedNestsMatchEveryFittingNestOverTwoOnChipLevels) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed)
    expect_pruned_nests_lose_nothing(seed, {2, 1, 2, 1 << 20});
}

TEST(FusedInnerNests, PrunedNestsMatchEveryFittingNestOverThreeOnChipLevels) {
  for (std::uint64_t seed = 31; seed <= 40; ++seed)
    expect_pruned_nests_lose_nothing(seed, {3, 1, 2, 1 << 20});
}

} // namespace
} // namespace dse
