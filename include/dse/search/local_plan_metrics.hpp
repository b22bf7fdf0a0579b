// The metrics an operator's local plan contributes by itself (docs/DESIGN.md §4.4 stage 1): what
// the pruning of local plans compares, in the one-level search and the fused hierarchical one.
#pragma once

#include <vector>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/metrics.hpp"
#include "dse/search/symbolic_pruning.hpp"

namespace dse {

/// local_metrics(...).as_vector() of each of op `op`'s `plans` under `choice` (any plan of the
/// other operator completes the dataflow: a plan's local metrics do not depend on it).
std::vector<MetricRow> local_plan_metrics(const Problem &problem, const PrefixChoice &choice,
                                          int op, const std::vector<LocalPlan> &plans,
                                          bool double_buffering);

/// Which loops of `plan`'s sub-nest sit above which, as the nests of a fused pair below level 0
/// read them (FusedLevel0Trips::to_last_indexing, docs/HIERARCHY.md §8.3): per operator tensor,
/// per sub-nest loop `d` that does not index it and loop `j` that does, 1 if `d` is above `j`
/// (its trips then count in the tensor's deliveries to level 1), else 0. Of two plans of an
/// operator over the same loops under one prefix, one whose entries are at most the other's
/// delivers every tensor at most as often at every tiling.
MetricRow loop_order_row(const Problem &problem, int op, const LocalPlan &plan);

} // namespace dse
