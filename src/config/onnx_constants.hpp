// Constant folding of ONNX shape plumbing (Constant, Shape, Gather, Unsqueeze, arithmetic on
// shape values): the integer values that Reshape, Slice and Split read as parameters.
// Internal to src/config (the only ONNX user).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "dse/ir/graph.hpp"

namespace dse {

/// A tensor whose value is known at import time: its shape, and its integer values when it is
/// an integer tensor stored in the file (float constants and external data have no values).
struct StaticValue {
  Shape shape;
  std::optional<std::vector<std::int64_t>> values;
};

/// The value of an ONNX TensorProto (values only for inline INT64/INT32 data).
StaticValue static_value_of(const onnx::TensorProto &tensor);

/// Whether `op_type` can be folded when all its inputs are static.
bool is_foldable(const std::string &op_type);

/// Evaluates a foldable node on static inputs. `attr_ints` reads an integer-list attribute
/// (empty when absent). Throws UserError (message only) when the inputs do not fit the operator.
StaticValue fold_node(const std::string &op_type, const std::vector<StaticValue> &inputs,
                      const std::vector<std::int64_t> &axes_attr, std::int64_t axis_attr);

} // namespace dse
