// The exact front of a whole workload on a hierarchy of any depth: each einsum's front
// (search_hier_front), each attached softmax or elementwise operator's pass
// (dse/model/hier_vector_pass.hpp) and, with fusion on, each fusible producer -> consumer pair's
// fused front (search_fused_hier_front, the attached operators of both inside); a chain's front
// chooses per link between the pair and the operators alone (docs/HIERARCHY.md §8.4), and the
// chains run one after another.
#pragma once

#include <optional>
#include <vector>

#include "dse/model/hier_vector_pass.hpp"
#include "dse/model/problem.hpp"
#include "dse/search/fused_hier_search.hpp"
#include "dse/search/hier_search.hpp"

namespace dse {

/// One segment of a plan: an einsum alone, an attached operator's pass, or a fused pair.
struct HierSegmentFront {
  std::vector<int> ops;    // indices into Workload::ops, in the order they run
  HierSearchResult search; // an einsum alone
  /// An einsum alone that is an earlier one renamed: that einsum's segment, whose front `search`
  /// holds renamed (no search of its own).
  std::optional<size_t> renamed_from;
  std::optional<HierVectorPass> pass; // an attached operator alone (one point)
  std::optional<Problem> pair;        // a fused pair (it points into the workload)
  FusedHierSearchResult fused;        // the pair's front

  size_t points() const { return pass ? 1 : pair ? fused.front.size() : search.front.size(); }
};

struct HierPlanPart {
  size_t segment = 0; // index into HierExploreResult::segments
  size_t point = 0;   // index into that segment's front
};

/// One point of the workload's front: a point of each segment it runs, in the order they run.
struct HierPlan {
  Objectives objectives;
  std::vector<HierPlanPart> parts;
};

struct HierExploreResult {
  std::vector<HierSegmentFront> segments; // every segment searched, chain by chain
  std::vector<HierPlan> front;            // sorted by the objectives
};

/// With options.fusion, pairs are searched fused where can_fuse holds, the hierarchy has no
/// mapspace rules and its first on-chip level may hold every tensor role.
HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options);

/// The front of a workload that is one producer -> consumer pair (with their attached
/// operators), run fused only: its operators alone are not searched. std::nullopt when the
/// workload is not one such pair or explore_hier would not fuse it (options.fusion off, mapspace
/// rules, a first on-chip level that may not hold every tensor role, or can_fuse false).
std::optional<HierExploreResult> explore_hier_fused_pair(const Hardware &hw,
                                                         const Workload &workload,
                                                         const HierSearchOptions &options);

} // namespace dse
