// The exact front of a whole workload on a hierarchy of any depth: each einsum's front
// (search_hier_front) and each attached softmax or elementwise operator's pass
// (dse/model/hier_vector_pass.hpp), then their Minkowski sum, the operators running one after
// another (fusion over general hierarchies is not built yet).
#pragma once

#include <optional>
#include <vector>

#include "dse/model/hier_vector_pass.hpp"
#include "dse/search/hier_search.hpp"

namespace dse {

/// One point of the workload's front: the sum of one point of each operator's front.
struct HierPlan {
  Objectives objectives;
  /// parts[i]: the index into HierExploreResult::operators[i].front of the point chosen for it.
  std::vector<size_t> parts;
};

/// One operator: an einsum's searched front, or an attached operator's pass (one point).
struct HierOperatorFront {
  int op = 0; // index into Workload::ops
  HierSearchResult search;
  std::optional<HierVectorPass> pass;
};

struct HierExploreResult {
  std::vector<HierOperatorFront> operators; // every operator, in workload order
  std::vector<HierPlan> front;              // sorted by the objectives
};

HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options);

} // namespace dse
