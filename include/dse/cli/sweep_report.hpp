// The report layer of `dse sweep`: the summary and buffer-curve CSV columns (the fronts file
// uses the front table of front_report.hpp) and the answers of --within. Rows start with the
// configuration and workload columns, which the sweep command writes.
#pragma once

#include <cstddef>
#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/search/explore.hpp"
#include "dse/search/hier_explore.hpp"
#include "dse/search/sweep.hpp"

namespace dse {

/// The summary's columns after the workload column.
std::string summary_header();
/// A feasible case's summary fields: best latency, energy and EDP with their dataflows, then
/// `feasible` = yes.
std::string summary_fields(const ExploreResult &result, const Hardware &hw);
/// The same for a general hierarchy's front, each dataflow its plan's mapping line.
std::string summary_fields(const HierExploreResult &result, const Workload &workload,
                           const Hardware &hw);

/// The buffer curve's columns after the workload column (from capacity_words on).
std::string curve_header();
/// A feasible curve point's fields after its capacity, then `feasible` = yes.
std::string curve_fields(const BufferCurvePoint &p);

/// The fields of an infeasible row after the first `shared` columns of `header` (which it fills
/// like a feasible row), separator first: empty ones, then `feasible` = no (the last column).
std::string infeasible_fields(const std::string &header, size_t shared);

/// The answer of --within for one curve: "workload W on CONFIGURATION: smallest BUFFER within P%
/// of the best OBJECTIVE is N words (K KiB)", BUFFER being "global buffer" or a level's name.
std::string within_answer(const std::string &workload, const std::string &configuration,
                          const std::string &buffer, double percent, const std::string &objective,
                          double capacity_words, int word_bytes);

} // namespace dse
