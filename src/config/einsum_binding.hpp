// Binds a parsed einsum to a workload's dimensions and checks what the grammar cannot: known
// dimensions, bare output indices, no repeats, bounded tensor sizes. Internal to src/config.
#pragma once

#include <string>
#include <vector>

#include "dse/config/einsum_parser.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

/// Resolves `parsed` against `dims`. `where` locates the first character of the einsum string;
/// errors point at the offending access, index or term and name `op_name`.
/// Whether `access` spans at most kMaxTensorElements elements over `dims` (each affine index
/// spanning 1 + sum coef * (size - 1)), computed without overflow.
bool access_within_element_limit(const TensorAccess &access, const std::vector<Dimension> &dims);

Einsum bind_einsum(const ParsedEinsum &parsed, const std::vector<Dimension> &dims,
                   const SourceLocation &where, const std::string &op_name);

} // namespace dse
