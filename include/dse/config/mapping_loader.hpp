// Loads a mapping file (the format `dse explore --emit-mapping` writes) into a MappingSpec.
#pragma once

#include <string>

#include "dse/ir/mapping_spec.hpp"

namespace dse {

MappingSpec load_mapping(const std::string &path);
MappingSpec parse_mapping(const std::string &yaml_text, const std::string &file_name);

} // namespace dse
