// The counts, cycles and energy of a fused pair's mapping on a hierarchy of any depth
// (docs/HIERARCHY.md §8): level 0 and level 1's fills by the one-level model's retention-depth
// formulas, every inner count by the closed forms of §4 with the prefix as a scope boundary, the
// intermediate produced into and read from level 1.
#pragma once

#include "dse/model/cost.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/hier_cost.hpp"

namespace dse {

/// HierCost with its per-level tensors indexed by problem tensor (Problem::tensors), plus the
/// vector work of the attached operators (an attached softmax is fused: no pass through level 0).
struct FusedHierCost {
  /// levels[l].buffer_words: level 1's words by the one-level rule (the larger of the two
  /// operators' live words, the intermediate and an online softmax's state included); an inner
  /// level's, the larger of the two operators' kept tiles.
  /// levels[l].instances: the larger of the two operators' utilised instances.
  HierCost totals;
  std::vector<double> macs; // per problem op, recompute included
  double vector_ops = 0;    // of the attached operators, recompute included
};

/// Evaluates a legal (fused_hier_mapping_problem) `mapping` of fused `problem` on `hw.hierarchy`;
/// capacities are not checked here (compare buffer_words with the levels' capacities).
FusedHierCost evaluate_fused_hier_mapping(const Hardware &hw, const Problem &problem,
                                          const FusedHierMapping &mapping, bool first_read_elision,
                                          LatencyModel latency_model);

} // namespace dse
