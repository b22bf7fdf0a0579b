// Numpy broadcasting and element types of folded ONNX values, with ONNX's rules: integer
// division truncates, Equal yields booleans, Where takes its second input where the condition
// holds, floating-point results are kept only while they are whole numbers.
#include "onnx_broadcast.hpp"

#include <limits>

#include "dse/ir/graph_shapes.hpp"

namespace dse {

namespace {

using Ints = std::vector<std::int64_t>;
using onnx::TensorProto;

/// The magnitude up to which a floating-point type holds every whole number (0: not one).
std::int64_t exact_whole_numbers(int elem_type) {
  switch (elem_type) {
  case TensorProto::FLOAT:
    return std::int64_t{1} << 24;
  case TensorProto::DOUBLE:
    return std::int64_t{1} << 53;
  case TensorProto::FLOAT16:
    return std::int64_t{1} << 11;
  case TensorProto::BFLOAT16:
    return std::int64_t{1} << 8;
  default:
    return 0;
  }
}

/// `v` wrapped to an integer type's width, or nothing for a type that is not an integer.
std::optional<std::int64_t> as_integer_type(std::int64_t v, int elem_type) {
  switch (elem_type) {
  case TensorProto::INT64:
  case TensorProto::UINT64:
    return v;
  case TensorProto::INT32:
    return static_cast<std::int32_t>(v);
  case TensorProto::UINT32:
    return static_cast<std::uint32_t>(v);
  case TensorProto::INT16:
    return static_cast<std::int16_t>(v);
  case TensorProto::UINT16:
    return static_cast<std::uint16_t>(v);
  case TensorProto::INT8:
    return static_cast<std::int8_t>(v);
  case TensorProto::UINT8:
    return static_cast<std::uint8_t>(v);
  case TensorProto::BOOL:
    return v != 0 ? 1 : 0;
  default:
    return std::nullopt;
  }
}

/// `a op b`; a UserError when integers divide by zero or the result does not fit in 64 bits,
/// nothing when a floating-point quotient is not a whole number.
std::optional<std::int64_t> apply(const std::string &op, std::int64_t a, std::int64_t b,
                                  bool float_type) {
  std::int64_t result = 0;
  bool overflow = false;
  if (op == "Add")
    overflow = __builtin_add_overflow(a, b, &result);
  else if (op == "Sub")
    overflow = __builtin_sub_overflow(a, b, &result);
  else if (op == "Mul")
    overflow = __builtin_mul_overflow(a, b, &result);
  else if (b == 0 && float_type)
    return std::nullopt; // an infinity or a NaN
  else if (b == 0)
    throw UserError("it divides by zero");
  else if (a == std::numeric_limits<std::int64_t>::min() && b == -1)
    overflow = true;
  else if (float_type && a % b != 0)
    return std::nullopt;
  else
    result = a / b;
  if (overflow)
    throw UserError(op + " of " + std::to_string(a) + " and " + std::to_string(b) +
                    " overflows 64-bit integers");
  return result;
}

/// For every element of a tensor of shape `out`, the element of a tensor of shape `in` that
/// numpy broadcasting reads there (row-major flat indices).
Ints source_indices(const Shape &in, const Shape &out) {
  const size_t rank = out.size();
  const size_t offset = rank - in.size();
  Ints stride(rank, 0);
  std::int64_t step = 1;
  for (size_t d = in.size(); d-- > 0;) {
    stride[d + offset] = in[d] == 1 ? 0 : step;
    step *= in[d];
  }
  Ints index(static_cast<size_t>(element_count(out)));
  Ints coord(rank, 0);
  std::int64_t at = 0;
  for (std::int64_t &i : index) {
    i = at;
    for (size_t d = rank; d-- > 0;) {
      at += stride[d];
      if (++coord[d] < out[d])
        break;
      at -= stride[d] * coord[d];
      coord[d] = 0;
    }
  }
  return index;
}

/// Each input's values at every element of `shape`, or nothing when an input has no values or
/// the result is too large to keep.
std::optional<std::vector<Ints>> values_at(const std::vector<StaticValue> &inputs,
                                           const Shape &shape) {
  if (element_count(shape) > kMaxFoldedValues)
    return std::nullopt;
  std::vector<Ints> out;
  for (const StaticValue &v : inputs) {
    if (!v.values)
      return std::nullopt;
    Ints at = source_indices(v.shape, shape);
    for (std::int64_t &i : at)
      i = (*v.values)[static_cast<size_t>(i)];
    out.push_back(std::move(at));
  }
  return out;
}

/// Element `i` of `op` applied to its broadcast operands `at`.
std::optional<std::int64_t> element(const std::string &op, const std::vector<Ints> &at, size_t i,
                                    int elem_type) {
  if (op == "Where")
    return at[0][i] != 0 ? at[1][i] : at[2][i];
  if (op == "Equal")
    return at[0][i] == at[1][i] ? 1 : 0;
  const std::optional<std::int64_t> v = apply(op, at[0][i], at[1][i], is_float_type(elem_type));
  return v ? as_element_type(*v, elem_type) : std::nullopt;
}

} // namespace

bool is_float_type(int elem_type) { return exact_whole_numbers(elem_type) > 0; }

std::optional<std::int64_t> as_element_type(std::int64_t v, int elem_type) {
  if (!is_float_type(elem_type))
    return as_integer_type(v, elem_type);
  const std::int64_t exact = exact_whole_numbers(elem_type);
  if (v >= -exact && v <= exact)
    return v;
  constexpr std::int64_t kDoubleExact = std::int64_t{1} << 53;
  if (elem_type == TensorProto::FLOAT && v >= -kDoubleExact && v <= kDoubleExact)
    return static_cast<std::int64_t>(static_cast<float>(v)); // rounds to nearest, as a float op
  return std::nullopt;
}

Shape broadcast_all(const std::vector<Shape> &shapes) {
  Shape out;
  std::string listed;
  for (const Shape &s : shapes)
    listed += (listed.empty() ? "" : ", ") + shape_text(s);
  try {
    for (const Shape &s : shapes)
      out = broadcast_shapes(out, s, "");
  } catch (const UserError &) {
    throw UserError("its inputs of shapes " + listed + " do not broadcast");
  }
  if (!within_tensor_limits(out))
    throw UserError("its inputs of shapes " + listed + " broadcast to a shape whose " +
                    beyond_tensor_limits(out));
  return out;
}

StaticValue fold_elementwise(const std::string &op, const std::vector<StaticValue> &inputs) {
  const size_t arity = op == "Where" ? 3 : 2;
  if (inputs.size() != arity)
    throw UserError("it has " + std::to_string(inputs.size()) + " inputs; expected " +
                    std::to_string(arity));
  std::vector<Shape> shapes;
  for (const StaticValue &v : inputs)
    shapes.push_back(v.shape);
  const int type = op == "Equal"   ? TensorProto::BOOL
                   : op == "Where" ? inputs[1].elem_type
                                   : inputs[0].elem_type;
  StaticValue out{broadcast_all(shapes), std::nullopt, type};
  const std::optional<std::vector<Ints>> at = values_at(inputs, out.shape);
  if (!at)
    return out;
  Ints values(at->front().size());
  for (size_t i = 0; i < values.size(); ++i) {
    const std::optional<std::int64_t> v = element(op, *at, i, type);
    if (!v)
      return out;
    values[i] = *v;
  }
  out.values = std::move(values);
  return out;
}

StaticValue fold_cast(const StaticValue &input, int to) {
  StaticValue out{input.shape, std::nullopt, to};
  if (!input.values)
    return out;
  Ints values;
  for (std::int64_t v : *input.values) {
    const std::optional<std::int64_t> cast = as_element_type(v, to);
    if (!cast)
      return out;
    values.push_back(*cast);
  }
  out.values = std::move(values);
  return out;
}

StaticValue broadcast_to(const StaticValue &input, const Shape &shape) {
  StaticValue out{shape, std::nullopt, input.elem_type};
  if (const std::optional<std::vector<Ints>> at = values_at({input}, shape))
    out.values = std::move(at->front());
  return out;
}

} // namespace dse
