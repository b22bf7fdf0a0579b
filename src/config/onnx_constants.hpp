// Constant folding of ONNX shape subgraphs (Constant, Shape, Gather, Unsqueeze, ConstantOfShape,
// Equal, Where, Expand, Range, arithmetic on shape values): the integer values that Reshape,
// Slice and Split read as parameters. Internal to src/config (the only ONNX user).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "dse/ir/graph.hpp"

namespace dse {

/// A tensor whose value is known at import time: its shape, its ONNX element type, and its
/// values when they are known integers (integer and boolean tensors stored in the file or
/// folded; floating-point tensors only while every value is a whole number held exactly).
struct StaticValue {
  Shape shape;
  std::optional<std::vector<std::int64_t>> values;
  int elem_type = onnx::TensorProto::INT64;
};

/// The value of an ONNX TensorProto (values only for inline data).
StaticValue static_value_of(const onnx::TensorProto &tensor);
/// The value of a Constant node (its `value` tensor, or a scalar or list attribute read as the
/// tensor it stands for), or nothing when it has none of them.
std::optional<StaticValue> constant_node_value(const onnx::NodeProto &node);

/// The node attributes folding reads, with ONNX's defaults.
struct FoldAttributes {
  std::vector<std::int64_t> axes;    // Squeeze, Unsqueeze before opset 13
  std::int64_t axis = 0;             // Gather, Concat
  int to = onnx::TensorProto::INT64; // Cast
  std::optional<std::int64_t> start; // Shape (opset 15)
  std::optional<std::int64_t> end;   // Shape (opset 15)
  bool allowzero = false;            // Reshape
  StaticValue fill{{}, std::vector<std::int64_t>{0}, onnx::TensorProto::FLOAT}; // ConstantOfShape
};

/// Whether `op_type` can be folded when all its inputs are static.
bool is_foldable(const std::string &op_type);
/// The foldable operator types, '/'-separated (for messages).
std::string foldable_op_types();

/// Evaluates a foldable node on static inputs (an absent optional input is an empty rank-1
/// value). Throws UserError (message only) when the inputs do not fit the operator.
StaticValue fold_node(const std::string &op_type, const std::vector<StaticValue> &inputs,
                      const FoldAttributes &attrs);

/// The shape Expand gives a tensor of shape `data` for the shape value `shape`; throws
/// UserError (message only) when they do not broadcast.
Shape expanded_shape(const Shape &data, const StaticValue &shape);

} // namespace dse
