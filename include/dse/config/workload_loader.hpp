// Loads a workload (dimensions and einsum/softmax/elementwise operators) from YAML into a
// validated Workload (format documented at the top of src/config/workload_loader.cpp).
#pragma once

#include <string>

#include "dse/ir/limits.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

/// Reads and validates the workload file at `path` (at most `max_input_mib` MiB). Throws
/// UserError with file:line:column.
Workload load_workload(const std::string &path, std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// Validates workload YAML given as text; `file_name` is used in error locations.
Workload parse_workload(const std::string &yaml_text, const std::string &file_name);

} // namespace dse
