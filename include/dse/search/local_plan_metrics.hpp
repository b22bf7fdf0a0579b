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

} // namespace dse
