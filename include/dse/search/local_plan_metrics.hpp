// The metrics an operator's local plan contributes by itself (docs/DESIGN.md §4.4 stage 1): what
// the pruning of local plans compares, in the one-level search and the fused hierarchical one.
#pragma once

#include <vector>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/metrics.hpp"
#include "dse/search/symbolic_pruning.hpp"

namespace dse {

/// local_metrics(...) of each of op `op`'s `plans` under `choice` (any plan of the other operator
/// completes the dataflow: a plan's local metrics do not depend on it).
std::vector<LocalMetrics> local_plan_metrics(const Problem &problem, const PrefixChoice &choice,
                                             int op, const std::vector<LocalPlan> &plans,
                                             bool double_buffering);

/// The metrics of each plan as a row that pruning compares (LocalMetrics::as_vector).
std::vector<MetricRow> local_metric_rows(const std::vector<LocalMetrics> &metrics);

/// What operator `op`'s nests below level 0 read of its level-0 loops (`path`: the prefix, then
/// its sub-nest), as a row that orders loop trees (docs/HIERARCHY.md §8.3): per operator tensor
/// and pair of dimensions (d, j), 1 if `d` is a loop of `path` whose trips count in the tensor's
/// deliveries to level 1 whenever `j` steps (`d` indexes the tensor, a prefix loop indexing
/// every tensor, or `d` is at or above `j` and `j` indexes it), else 0; then the trips of every
/// loop of `path`, and the trips of its prefix loops the operator does not iterate (its
/// productions). A tree whose row is at most another's delivers every tensor of the operator at
/// most as often, with at most as many level-0 trips and productions, at every tiling
/// (FusedLevel0Trips).
MetricRow level0_loops_row(const Problem &problem, int op, const std::vector<int> &path,
                           size_t prefix_length);

} // namespace dse
