// Sound symbolic dominance pruning (docs/DESIGN.md §4.4): a row of posynomial metrics is removed
// when another row is provably no larger in every metric for every tiling.
#pragma once

#include <cstddef>
#include <vector>

#include "dse/model/posynomial.hpp"

namespace dse {

/// One candidate's metrics, compared position by position.
using MetricRow = std::vector<Posynomial>;

/// One candidate's metrics held elsewhere (not copied).
using MetricRowView = std::vector<const Posynomial *>;

/// Indices (ascending) of the rows that no other row dominates. Of rows that dominate each other
/// (equal functions), the lowest index is kept, so the result is deterministic.
std::vector<size_t> undominated_rows(const std::vector<MetricRowView> &rows);
std::vector<size_t> undominated_rows(const std::vector<MetricRow> &rows);

/// Whether `u` is provably <= `v` in every metric.
bool dominates(const MetricRow &u, const MetricRow &v);

} // namespace dse
