// Element types and numpy broadcasting of folded ONNX values: the elementwise operators of shape
// subgraphs (Add, Sub, Mul, Div, Equal, Where, Cast) and Expand's values. Internal to
// src/config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "onnx_constants.hpp"

namespace dse {

/// Folded values are kept only up to this many elements (shape vectors are far smaller); a
/// larger static tensor keeps its shape alone.
constexpr std::int64_t kMaxFoldedValues = std::int64_t{1} << 20;

/// Whether an ONNX element type is a floating-point type.
bool is_float_type(int elem_type);

/// `v` as an ONNX element of type `elem_type` would hold it (integers wrap to their width,
/// booleans are 0 or 1, floating-point values round), or nothing when that value is not a
/// whole number this code can represent exactly.
std::optional<std::int64_t> as_element_type(std::int64_t v, int elem_type);

/// The numpy broadcast of every shape; throws UserError (message only) if two clash.
Shape broadcast_all(const std::vector<Shape> &shapes);

/// Add, Sub, Mul, Div (two inputs), Equal (two) or Where (three) with numpy broadcasting.
StaticValue fold_elementwise(const std::string &op, const std::vector<StaticValue> &inputs);

/// Cast to ONNX element type `to`.
StaticValue fold_cast(const StaticValue &input, int to);

/// `input` broadcast to `shape` (which must be its broadcast with the input's own shape).
StaticValue broadcast_to(const StaticValue &input, const Shape &shape);

} // namespace dse
