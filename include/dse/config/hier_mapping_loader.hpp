// Loads a mapping file for a hierarchy of any depth (docs/HIERARCHY.md §3.2; format at the top of
// src/config/hier_mapping_loader.cpp) into one OpMapping per segment, checked against the
// hardware's hierarchy and the workload.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/limits.hpp"
#include "dse/ir/workload.hpp"
#include "dse/support/error.hpp"

namespace dse {

/// Reads the mapping file at `path` (at most `max_input_mib` MiB) for `workload` on `hw`, in
/// file order. Throws UserError with file:line:column.
std::vector<HierSegmentMapping>
load_hier_mapping(const std::string &path, const Hardware &hw, const Workload &workload,
                  std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// Validates a mapping given as text; `file_name` is used in error locations.
std::vector<HierSegmentMapping> parse_hier_mapping(const std::string &yaml_text,
                                                   const std::string &file_name, const Hardware &hw,
                                                   const Workload &workload);

} // namespace dse
