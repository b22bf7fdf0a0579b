// Loads an ONNX model's structure into a Graph: operators, attributes and static shapes, with
// weights left in place (external data is never read; only initializer dims are used).
#pragma once

#include <string>

#include "dse/ir/graph.hpp"

namespace dse {

/// Reads the ONNX file at `path`. Throws UserError for malformed files, symbolic shapes and
/// unsupported operators (every unsupported node is listed by name and index). Files above
/// protobuf's 2 GiB limit are refused before they are read.
Graph load_onnx(const std::string &path);

/// Parses a serialised ModelProto; `file_name` is used in error messages.
Graph parse_onnx(const std::string &bytes, const std::string &file_name);

} // namespace dse
