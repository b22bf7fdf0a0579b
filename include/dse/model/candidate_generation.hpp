// Enumeration of the decision space (docs/DESIGN.md §4.1): shared prefixes with the intermediates'
// retention, each operator's sub-nest orders with its tensors' retention depths, and spatial
// mappings. Pruning and combination happen in the search module.
#pragma once

#include <vector>

#include "dse/model/dataflow.hpp"

namespace dse {

/// What the operators of a fused chain share: the prefix and, per link, the intermediate's depth
/// and the halo dims whose overlap is kept on chip (Dataflow::cached).
struct PrefixChoice {
  std::vector<int> prefix;
  std::vector<int> intermediate_depths;
  std::vector<std::vector<int>> cached;
};

/// One operator's own decisions under a prefix: its sub-nest and the depth of each tensor it owns
/// (the intermediates excluded), in the order of `ProblemOp::tensors`.
struct LocalPlan {
  std::vector<int> subnest;
  std::vector<int> depths;
};

/// How many local plans enumerate_local_plans lists over every prefix choice and operator,
/// counted without listing them: the loop nests whose symbolic metrics building the candidate
/// space evaluates (without `allow_recompute`, prefixes with recompute loops are left out).
/// Once the count passes `stop_above`, counting stops and some value above it is returned.
double count_local_plans(const Problem &problem, bool allow_recompute, double stop_above);

/// Every legal prefix choice (a single operator has exactly one: empty).
std::vector<PrefixChoice> enumerate_prefix_choices(const Problem &problem);

/// Every sub-nest order and retention assignment of op `op` under `choice`.
std::vector<LocalPlan> enumerate_local_plans(const Problem &problem, const PrefixChoice &choice,
                                             int op);

/// The dataflow made of a prefix choice and one local plan per operator.
Dataflow assemble_dataflow(const Problem &problem, const PrefixChoice &choice,
                           const std::vector<const LocalPlan *> &plans);

/// Spatial mappings of one operator: pairs of dims that index the output or two operands
/// (rows take the one listed first in the einsum).
std::vector<SpatialMapping> spatial_options(const Problem &problem, int op);

/// Every combination of per-operator spatial mappings, in lexicographic order.
std::vector<std::vector<SpatialMapping>> spatial_combinations(const Problem &problem);

} // namespace dse
