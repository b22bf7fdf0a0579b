// The exact front of a fused producer -> consumer pair on a hierarchy of any depth
// (docs/HIERARCHY.md §8): every loop tree at level 0 (prefix, sub-nests, retention depths),
// every divisor tiling of level 1, and below level 0 every nest of each operator (spatial rows,
// keep vectors, divisor splits, loop orders). With pruning, each operator's nests are kept only
// if no other nest is at most as costly in every part that the pair's objectives add up, and a
// loop tree and tiling whose least cost the front already beats is skipped before any nest is
// searched; without, every mapping of the space is evaluated.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/model/fused_hier_cost.hpp"
#include "dse/search/hier_search.hpp"

namespace dse {

struct FusedHierFrontPoint {
  Objectives objectives;
  FusedHierMapping mapping;
  FusedHierCost cost;
};

struct FusedHierSearchStatistics {
  std::uint64_t loop_trees = 0;          // level-0 loop trees with retention depths
  std::uint64_t partial_tilings_cut = 0; // partly chosen level-1 tilings not completed (bound)
  std::uint64_t tilings = 0;         // (loop tree, level-1 tiling) pairs completed that fit level 1
  std::uint64_t tilings_skipped = 0; // of those, skipped by the bound before any nest
  std::uint64_t nest_fronts = 0;     // per-operator fronts of nests searched (not reused)
  std::uint64_t nests = 0;           // operator nests evaluated
  std::uint64_t mappings = 0;        // whole mappings (a nest per operator) evaluated
};

struct FusedHierSearchResult {
  std::vector<FusedHierFrontPoint> front; // sorted by the objectives
  FusedHierSearchStatistics statistics;
};

/// The exact front of fused `problem` on `hw.hierarchy`, which needs at least one on-chip level
/// and no mapspace rules. The loop trees are searched in order; each tree's nest fronts are built
/// beforehand on options.threads threads, and neither the front nor the statistics depend on it.
FusedHierSearchResult search_fused_hier_front(const Hardware &hw, const Problem &problem,
                                              const HierSearchOptions &options);

} // namespace dse
