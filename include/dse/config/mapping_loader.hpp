// Loads a mapping file (the format `dse explore --emit-mapping` writes) into a MappingSpec.
#pragma once

#include <string>

#include "dse/ir/limits.hpp"
#include "dse/ir/mapping_spec.hpp"

namespace dse {

/// Reads the mapping file at `path` (at most `max_input_mib` MiB).
MappingSpec load_mapping(const std::string &path,
                         std::uint64_t max_input_mib = kDefaultMaxInputMib);
MappingSpec parse_mapping(const std::string &yaml_text, const std::string &file_name);

} // namespace dse
