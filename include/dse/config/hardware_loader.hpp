// Loads an accelerator description from YAML into a validated Hardware (format documented at
// the top of src/config/hardware_loader.cpp).
#pragma once

#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/ir/limits.hpp"

namespace dse {

/// Reads and validates the hardware file at `path` (at most `max_input_mib` MiB). Throws
/// UserError with file:line:column.
Hardware load_hardware(const std::string &path, std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// Validates hardware YAML given as text; `file_name` is used in error locations.
Hardware parse_hardware(const std::string &yaml_text, const std::string &file_name);

} // namespace dse
