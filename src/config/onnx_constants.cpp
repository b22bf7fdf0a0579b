// Folds ONNX shape-plumbing nodes on static values with ONNX semantics (integer division
// truncates, Gather and Slice on rank-1 shape vectors).
#include "onnx_constants.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "dse/ir/graph_shapes.hpp"

namespace dse {

namespace {

using Ints = std::vector<std::int64_t>;

template <class T> Ints decode_raw(const std::string &raw) {
  Ints out(raw.size() / sizeof(T));
  for (size_t i = 0; i < out.size(); ++i) {
    T v;
    std::memcpy(&v, raw.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<std::int64_t>(v);
  }
  return out;
}

std::optional<Ints> integer_values(const onnx::TensorProto &t) {
  if (t.data_location() == onnx::TensorProto::EXTERNAL)
    return std::nullopt;
  if (t.data_type() == onnx::TensorProto::INT64)
    return t.has_raw_data() ? decode_raw<std::int64_t>(t.raw_data())
                            : Ints(t.int64_data().begin(), t.int64_data().end());
  if (t.data_type() == onnx::TensorProto::INT32)
    return t.has_raw_data() ? decode_raw<std::int32_t>(t.raw_data())
                            : Ints(t.int32_data().begin(), t.int32_data().end());
  return std::nullopt;
}

const Ints &values_of(const StaticValue &v, const char *what) {
  if (!v.values)
    throw UserError(std::string("its ") + what + " input has no constant integer value");
  return *v.values;
}

/// `a op b`; a UserError when the result does not fit in 64 bits.
std::int64_t apply(const std::string &op, std::int64_t a, std::int64_t b) {
  std::int64_t result = 0;
  bool overflow = false;
  if (op == "Add")
    overflow = __builtin_add_overflow(a, b, &result);
  else if (op == "Sub")
    overflow = __builtin_sub_overflow(a, b, &result);
  else if (op == "Mul")
    overflow = __builtin_mul_overflow(a, b, &result);
  else if (b == 0)
    throw UserError("it divides by zero");
  else if (a == std::numeric_limits<std::int64_t>::min() && b == -1)
    overflow = true;
  else
    result = a / b;
  if (overflow)
    throw UserError(op + " of " + std::to_string(a) + " and " + std::to_string(b) +
                    " overflows 64-bit integers");
  return result;
}

StaticValue arithmetic(const std::string &op, const StaticValue &a, const StaticValue &b) {
  StaticValue out{broadcast_shapes(a.shape, b.shape, ""), std::nullopt};
  if (!a.values || !b.values)
    return out;
  const size_t n = static_cast<size_t>(element_count(out.shape));
  if ((a.values->size() != 1 && a.values->size() != n) ||
      (b.values->size() != 1 && b.values->size() != n))
    throw UserError("its operands broadcast only along one axis here");
  Ints v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = apply(op, (*a.values)[a.values->size() == 1 ? 0 : i],
                 (*b.values)[b.values->size() == 1 ? 0 : i]);
  out.values = v;
  return out;
}

StaticValue gather(const StaticValue &data, const StaticValue &indices, std::int64_t axis) {
  if (data.shape.size() != 1 || axis != 0)
    throw UserError("only gathers from rank-1 shape vectors are folded");
  StaticValue out{indices.shape, std::nullopt};
  if (!data.values || !indices.values)
    return out;
  Ints v;
  const auto n = static_cast<std::int64_t>(data.values->size());
  for (std::int64_t i : *indices.values) {
    const std::int64_t at = i < 0 ? i + n : i;
    if (at < 0 || at >= n)
      throw UserError("its index " + std::to_string(i) + " is out of range");
    v.push_back((*data.values)[static_cast<size_t>(at)]);
  }
  out.values = v;
  return out;
}

StaticValue unsqueeze(const StaticValue &data, Ints axes, bool squeeze) {
  StaticValue out = data;
  const auto rank = static_cast<std::int64_t>(data.shape.size() + (squeeze ? 0 : axes.size()));
  for (std::int64_t &a : axes)
    a = a < 0 ? a + rank : a;
  std::sort(axes.begin(), axes.end());
  if (squeeze) {
    out.shape.clear();
    for (size_t d = 0; d < data.shape.size(); ++d)
      if (!(axes.empty() ? data.shape[d] == 1
                         : std::binary_search(axes.begin(), axes.end(), std::int64_t(d))))
        out.shape.push_back(data.shape[d]);
    return out;
  }
  for (std::int64_t a : axes) {
    if (a < 0 || a > static_cast<std::int64_t>(out.shape.size()))
      throw UserError("its axis " + std::to_string(a) + " is out of range");
    out.shape.insert(out.shape.begin() + a, 1);
  }
  return out;
}

StaticValue concat(const std::vector<StaticValue> &inputs) {
  StaticValue out{{0}, Ints{}};
  for (const StaticValue &v : inputs) {
    if (v.shape.size() != 1)
      throw UserError("only rank-1 shape vectors are concatenated when folding");
    out.shape[0] += v.shape[0];
    if (v.values && out.values)
      out.values->insert(out.values->end(), v.values->begin(), v.values->end());
    else
      out.values.reset();
  }
  return out;
}

StaticValue slice(const std::vector<StaticValue> &inputs) {
  if (inputs.size() < 3 || inputs[0].shape.size() != 1)
    throw UserError("only slices of rank-1 shape vectors are folded");
  const Ints &data = values_of(inputs[0], "data");
  const auto n = static_cast<std::int64_t>(data.size());
  const auto bound = [n](std::int64_t v) {
    return std::clamp(v < 0 ? v + n : v, std::int64_t{0}, n);
  };
  const std::int64_t start = bound(values_of(inputs[1], "starts").at(0));
  const std::int64_t end = bound(values_of(inputs[2], "ends").at(0));
  Ints v(data.begin() + start, data.begin() + std::max(start, end));
  return {{static_cast<std::int64_t>(v.size())}, v};
}

} // namespace

StaticValue static_value_of(const onnx::TensorProto &tensor) {
  return {Shape(tensor.dims().begin(), tensor.dims().end()), integer_values(tensor)};
}

bool is_foldable(const std::string &op_type) {
  for (const char *op : {"Shape", "Gather", "Unsqueeze", "Squeeze", "Concat", "Add", "Sub", "Mul",
                         "Div", "Cast", "Identity", "Slice"})
    if (op_type == op)
      return true;
  return false;
}

StaticValue fold_node(const std::string &op_type, const std::vector<StaticValue> &inputs,
                      const Ints &axes_attr, std::int64_t axis_attr) {
  if (inputs.empty())
    throw UserError("it has no inputs");
  if (op_type == "Shape")
    return {{static_cast<std::int64_t>(inputs[0].shape.size())}, inputs[0].shape};
  if (op_type == "Gather" && inputs.size() == 2)
    return gather(inputs[0], inputs[1], axis_attr);
  if (op_type == "Unsqueeze" || op_type == "Squeeze")
    return unsqueeze(inputs[0], inputs.size() > 1 ? values_of(inputs[1], "axes") : axes_attr,
                     op_type == "Squeeze");
  if (op_type == "Concat")
    return concat(inputs);
  if ((op_type == "Add" || op_type == "Sub" || op_type == "Mul" || op_type == "Div") &&
      inputs.size() == 2)
    return arithmetic(op_type, inputs[0], inputs[1]);
  if (op_type == "Slice")
    return slice(inputs);
  if (op_type == "Cast" || op_type == "Identity")
    return inputs[0];
  throw UserError("it has " + std::to_string(inputs.size()) + " inputs, which cannot be folded");
}

} // namespace dse
