// The inputs of `dse eval`, `dse emit` and `dse run`: dse files or Timeloop's (an architecture
// with its energy reference table, a problem, a mapping), each recognised by its top-level keys.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

/// A dse hardware file, or a Timeloop architecture with its energies from `ert_path`, or from an
/// `ERT` section beside it when `ert_path` is empty. Throws UserError when a Timeloop
/// architecture has no energies or `ert_path` goes with a dse file.
Hardware load_hardware_input(const std::string &hw_path, const std::string &ert_path,
                             std::uint64_t max_input_mib);

/// A dse workload (its sibling einsums also stacked, which a mapping may name) or a Timeloop
/// problem.
Workload load_workload_input(const std::string &path, std::uint64_t max_input_mib);

/// A mapping file for a general hierarchy, or a Timeloop mapping (one segment, located at the
/// file).
std::vector<HierSegmentMapping> load_hier_mapping_input(const std::string &path, const Hardware &hw,
                                                        const Workload &workload,
                                                        std::uint64_t max_input_mib);

} // namespace dse
