// The exact front of a whole workload on a hierarchy of any depth: each einsum's front
// (search_hier_front), then their Minkowski sum, the operators running one after another
// (fusion over general hierarchies is not built yet).
#pragma once

#include <vector>

#include "dse/search/hier_search.hpp"

namespace dse {

/// One point of the workload's front: the sum of one point of each operator's front.
struct HierPlan {
  Objectives objectives;
  /// parts[i]: the index into HierExploreResult::operators[i].front of the point chosen for it.
  std::vector<size_t> parts;
};

struct HierOperatorFront {
  int op = 0; // index into Workload::ops
  HierSearchResult search;
};

struct HierExploreResult {
  std::vector<HierOperatorFront> operators; // every einsum, in workload order
  std::vector<HierPlan> front;              // sorted by the objectives
};

/// Throws a UserError naming the first operator that is not an einsum: general hierarchies
/// evaluate einsums only so far.
HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options);

} // namespace dse
