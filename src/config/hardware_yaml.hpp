// Internal to src/config: builds a validated Hardware from an already parsed YAML document, so
// that callers may edit the document first (parameter sweeps).
#pragma once

#include <string>

#include <yaml-cpp/yaml.h>

#include "dse/ir/hardware.hpp"

namespace dse {

Hardware hardware_from_yaml(const YAML::Node &root, const std::string &file_name);

} // namespace dse
