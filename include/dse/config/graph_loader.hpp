// Loads hand-written network graphs from YAML (format documented at the top of
// src/config/graph_loader.cpp), and picks the ONNX or YAML loader for a network file.
#pragma once

#include <string>

#include "dse/ir/graph.hpp"
#include "dse/ir/limits.hpp"

namespace dse {

/// Reads and validates the YAML graph at `path` (at most `max_input_mib` MiB). Throws UserError
/// with file:line:column.
Graph load_graph_yaml(const std::string &path, std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// Validates YAML graph text; `file_name` is used in error locations.
Graph parse_graph_yaml(const std::string &yaml_text, const std::string &file_name);

/// A network file: `.onnx` through the ONNX loader (at most 2 GiB, protobuf's limit),
/// `.yaml`/`.yml` through the YAML loader (at most `max_input_mib` MiB).
Graph load_network(const std::string &path, std::uint64_t max_input_mib = kDefaultMaxInputMib);

} // namespace dse
