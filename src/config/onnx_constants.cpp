// Folds ONNX shape-subgraph nodes on static values with ONNX semantics (Shape's start and end,
// Gather, Squeeze and Slice on rank-1 shape vectors, Slice's steps and clamping, Reshape's 0 and
// -1, ConstantOfShape's float 0 default, Range's element count, Expand's two-way broadcast).
#include "onnx_constants.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "dse/ir/graph_shapes.hpp"
#include "onnx_broadcast.hpp"

namespace dse {

namespace {

using Ints = std::vector<std::int64_t>;
using Inputs = std::vector<StaticValue>;
using onnx::TensorProto;

/// `v` as a 64-bit integer, or nothing when it is not a whole number held exactly.
template <class T> std::optional<std::int64_t> whole(T v) {
  if constexpr (std::is_integral_v<T>) {
    return static_cast<std::int64_t>(v);
  } else {
    constexpr double kExact = 9007199254740992.0; // 2^53
    if (!(std::fabs(v) <= kExact) || std::trunc(v) != v)
      return std::nullopt;
    return static_cast<std::int64_t>(v);
  }
}

/// The elements of `t` (raw data of T, or the typed `field`), if they are all whole numbers.
template <class T, class Field>
std::optional<Ints> whole_numbers(const TensorProto &t, const Field &field) {
  const bool raw = t.has_raw_data();
  const size_t n = raw ? t.raw_data().size() / sizeof(T) : static_cast<size_t>(field.size());
  if (std::is_floating_point_v<T> && n > static_cast<size_t>(kMaxFoldedValues))
    return std::nullopt; // weights, not shape values
  Ints out(n);
  for (size_t i = 0; i < n; ++i) {
    T v;
    if (raw)
      std::memcpy(&v, t.raw_data().data() + i * sizeof(T), sizeof(T));
    else
      v = static_cast<T>(field.Get(static_cast<int>(i)));
    const std::optional<std::int64_t> w = whole(v);
    if (!w)
      return std::nullopt;
    out[i] = *w;
  }
  return out;
}

std::optional<Ints> known_values(const TensorProto &t) {
  if (t.data_location() == TensorProto::EXTERNAL)
    return std::nullopt;
  switch (t.data_type()) {
  case TensorProto::INT64:
    return whole_numbers<std::int64_t>(t, t.int64_data());
  case TensorProto::INT32:
    return whole_numbers<std::int32_t>(t, t.int32_data());
  case TensorProto::INT16:
    return whole_numbers<std::int16_t>(t, t.int32_data());
  case TensorProto::UINT16:
    return whole_numbers<std::uint16_t>(t, t.int32_data());
  case TensorProto::INT8:
    return whole_numbers<std::int8_t>(t, t.int32_data());
  case TensorProto::UINT8:
  case TensorProto::BOOL:
    return whole_numbers<std::uint8_t>(t, t.int32_data());
  case TensorProto::UINT32:
    return whole_numbers<std::uint32_t>(t, t.uint64_data());
  case TensorProto::FLOAT:
    return whole_numbers<float>(t, t.float_data());
  case TensorProto::DOUBLE:
    return whole_numbers<double>(t, t.double_data());
  default:
    return std::nullopt;
  }
}

const Ints &values_of(const StaticValue &v, const char *what) {
  if (!v.values)
    throw UserError(std::string("its ") + what + " input has no constant integer value");
  return *v.values;
}

/// The one value of a scalar or one-element input (an absent input: `fallback`).
std::int64_t single(const StaticValue &v, const char *what, std::optional<std::int64_t> fallback) {
  const Ints &values = values_of(v, what);
  if (values.empty() && fallback)
    return *fallback;
  if (values.size() != 1)
    throw UserError(std::string("its ") + what + " input has " + std::to_string(values.size()) +
                    " values; only one is folded");
  return values[0];
}

/// The dimensions a rank-1 shape input lists (ConstantOfShape, Expand), none negative.
const Ints &shape_operand(const StaticValue &shape) {
  if (shape.shape.size() != 1)
    throw UserError("its shape input has rank " + std::to_string(shape.shape.size()) +
                    "; expected a rank-1 shape vector");
  const Ints &dims = values_of(shape, "shape");
  if (std::any_of(dims.begin(), dims.end(), [](std::int64_t d) { return d < 0; }))
    throw UserError("its shape " + shape_text(dims) + " has a negative dimension");
  return dims;
}

/// `v` (negative: from the end of `n`) clamped to lo..hi.
std::int64_t clamped(std::int64_t v, std::int64_t n, std::int64_t lo, std::int64_t hi) {
  return std::clamp(v < 0 ? v + n : v, lo, hi);
}

/// How many of from, from + step, ... lie before `to` in the direction of `step` (non-zero).
std::int64_t count_steps(std::int64_t from, std::int64_t to, std::int64_t step) {
  std::int64_t diff = 0;
  if (__builtin_sub_overflow(step > 0 ? to : from, step > 0 ? from : to, &diff))
    throw UserError("its range from " + std::to_string(from) + " to " + std::to_string(to) +
                    " overflows 64-bit integers");
  if (diff <= 0)
    return 0;
  return step > 0 ? 1 + (diff - 1) / step : 1 - (diff - 1) / step;
}

/// `count` values from `start` by `step`, or the elements of `data` at them when it is given.
std::optional<Ints> stepped(std::int64_t start, std::int64_t step, std::int64_t count,
                            const Ints *data) {
  if (count > kMaxFoldedValues)
    return std::nullopt;
  Ints v(static_cast<size_t>(count));
  for (std::int64_t i = 0; i < count; ++i) {
    const std::int64_t at = start + i * step;
    v[static_cast<size_t>(i)] = data ? (*data)[static_cast<size_t>(at)] : at;
  }
  return v;
}

StaticValue shape_of(const Inputs &in, const FoldAttributes &a) {
  const auto rank = static_cast<std::int64_t>(in[0].shape.size());
  const std::int64_t start = clamped(a.start.value_or(0), rank, 0, rank);
  const std::int64_t end = std::max(start, clamped(a.end.value_or(rank), rank, 0, rank));
  Ints v(in[0].shape.begin() + start, in[0].shape.begin() + end);
  return {{end - start}, v, TensorProto::INT64};
}

StaticValue gather(const Inputs &in, const FoldAttributes &a) {
  const StaticValue &data = in[0];
  if (data.shape.size() != 1 || (a.axis != 0 && a.axis != -1))
    throw UserError("only gathers from rank-1 shape vectors are folded");
  StaticValue out{in[1].shape, std::nullopt, data.elem_type};
  if (!data.values || !in[1].values)
    return out;
  Ints v;
  const auto n = static_cast<std::int64_t>(data.values->size());
  for (std::int64_t i : *in[1].values) {
    const std::int64_t at = i < 0 ? i + n : i;
    if (at < 0 || at >= n)
      throw UserError("its index " + std::to_string(i) + " is out of range");
    v.push_back((*data.values)[static_cast<size_t>(at)]);
  }
  out.values = v;
  return out;
}

/// `axes` made non-negative against `rank` and sorted; a UserError if one is out of range.
Ints normalised_axes(Ints axes, std::int64_t rank) {
  for (std::int64_t &a : axes) {
    if (a < -rank || a >= rank)
      throw UserError("its axis " + std::to_string(a) + " is out of range");
    a = a < 0 ? a + rank : a;
  }
  std::sort(axes.begin(), axes.end());
  return axes;
}

Ints axes_input(const Inputs &in, const FoldAttributes &a) {
  return in.size() > 1 ? values_of(in[1], "axes") : a.axes;
}

StaticValue unsqueeze(const Inputs &in, const FoldAttributes &a) {
  const Ints given = axes_input(in, a);
  const auto rank = static_cast<std::int64_t>(in[0].shape.size() + given.size());
  StaticValue out = in[0];
  for (std::int64_t axis : normalised_axes(given, rank))
    out.shape.insert(out.shape.begin() + axis, 1);
  return out;
}

StaticValue squeeze(const Inputs &in, const FoldAttributes &a) {
  const Shape &shape = in[0].shape;
  const Ints axes = normalised_axes(axes_input(in, a), static_cast<std::int64_t>(shape.size()));
  StaticValue out = in[0];
  out.shape.clear();
  for (size_t d = 0; d < shape.size(); ++d) {
    const bool named = std::binary_search(axes.begin(), axes.end(), std::int64_t(d));
    if (named && shape[d] != 1)
      throw UserError("its axis " + std::to_string(d) + " has size " + std::to_string(shape[d]) +
                      ", not 1");
    if (!(axes.empty() ? shape[d] == 1 : named))
      out.shape.push_back(shape[d]);
  }
  return out;
}

StaticValue concat(const Inputs &in, const FoldAttributes &) {
  StaticValue out{{0}, Ints{}, in[0].elem_type};
  for (const StaticValue &v : in) {
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

/// Slice of a rank-1 vector along its one axis, with ONNX's clamping for either sign of step.
StaticValue slice(const Inputs &in, const FoldAttributes &) {
  if (in[0].shape.size() != 1)
    throw UserError("only slices of rank-1 shape vectors are folded");
  const std::int64_t n = in[0].shape[0];
  const std::int64_t axis = in.size() > 3 ? single(in[3], "axes", 0) : 0;
  if (axis != 0 && axis != -1)
    throw UserError("its axis " + std::to_string(axis) + " is out of range");
  const std::int64_t step = in.size() > 4 ? single(in[4], "steps", 1) : 1;
  if (step == 0)
    throw UserError("its step is 0");
  const std::int64_t lo = step > 0 ? 0 : -1;
  const std::int64_t hi = step > 0 ? n : n - 1;
  const std::int64_t start =
      clamped(single(in[1], "starts", {}), n, 0, std::max<std::int64_t>(hi, 0));
  const std::int64_t end = clamped(single(in[2], "ends", {}), n, lo, std::max(hi, lo));
  const std::int64_t count = n == 0 ? 0 : count_steps(start, end, step);
  return {{count},
          in[0].values ? stepped(start, step, count, &*in[0].values) : std::nullopt,
          in[0].elem_type};
}

StaticValue range(const Inputs &in, const FoldAttributes &) {
  const std::int64_t start = single(in[0], "start", {});
  const std::int64_t limit = single(in[1], "limit", {});
  const std::int64_t delta = single(in[2], "delta", {});
  if (delta == 0)
    throw UserError("its delta is 0");
  const std::int64_t count = count_steps(start, limit, delta);
  if (count > kMaxDimensionSize)
    throw UserError("it would produce " + std::to_string(count) + " elements, over " +
                    std::to_string(kMaxDimensionSize));
  return {{count}, stepped(start, delta, count, nullptr), in[0].elem_type};
}

StaticValue constant_of_shape(const Inputs &in, const FoldAttributes &a) {
  const Ints &dims = shape_operand(in[0]);
  if (!within_tensor_limits(dims))
    throw UserError("its " + beyond_tensor_limits(dims));
  if (element_count(a.fill.shape) != 1)
    throw UserError("its value attribute has " + std::to_string(element_count(a.fill.shape)) +
                    " elements; expected 1");
  StaticValue out{dims, std::nullopt, a.fill.elem_type};
  if (a.fill.values && element_count(dims) <= kMaxFoldedValues)
    out.values = Ints(static_cast<size_t>(element_count(dims)), a.fill.values->front());
  return out;
}

StaticValue reshape(const Inputs &in, const FoldAttributes &a) {
  const Ints &target = values_of(in[1], "shape");
  if (a.allowzero && std::find(target.begin(), target.end(), 0) != target.end())
    throw UserError("its target shape " + shape_text(target) +
                    " has a 0 with allowzero set (an empty tensor)");
  try {
    return {reshape_shape(in[0].shape, target), in[0].values, in[0].elem_type};
  } catch (const UserError &e) {
    throw UserError("it " + e.message());
  }
}

StaticValue expand(const Inputs &in, const FoldAttributes &) {
  return broadcast_to(in[0], expanded_shape(in[0].shape, in[1]));
}

/// A foldable operator: its name, how many inputs it takes and its evaluation.
struct Folder {
  const char *op;
  size_t min_inputs;
  size_t max_inputs;
  StaticValue (*fold)(const Inputs &, const FoldAttributes &);
};

template <const char *Op> StaticValue elementwise_op(const Inputs &in, const FoldAttributes &) {
  return fold_elementwise(Op, in);
}

constexpr char kAdd[] = "Add", kSub[] = "Sub", kMul[] = "Mul", kDiv[] = "Div", kEqual[] = "Equal",
               kWhere[] = "Where";
constexpr size_t kAny = std::numeric_limits<size_t>::max();

constexpr Folder kFolders[] = {
    {kAdd, 2, 2, elementwise_op<kAdd>},
    {"Cast", 1, 1,
     [](const Inputs &in, const FoldAttributes &a) { return fold_cast(in[0], a.to); }},
    {"Concat", 1, kAny, concat},
    {"ConstantOfShape", 1, 1, constant_of_shape},
    {kDiv, 2, 2, elementwise_op<kDiv>},
    {kEqual, 2, 2, elementwise_op<kEqual>},
    {"Expand", 2, 2, expand},
    {"Gather", 2, 2, gather},
    {"Identity", 1, 1, [](const Inputs &in, const FoldAttributes &) { return in[0]; }},
    {kMul, 2, 2, elementwise_op<kMul>},
    {"Range", 3, 3, range},
    {"Reshape", 2, 2, reshape},
    {"Shape", 1, 1, shape_of},
    {"Slice", 3, 5, slice},
    {"Squeeze", 1, 2, squeeze},
    {kSub, 2, 2, elementwise_op<kSub>},
    {"Unsqueeze", 1, 2, unsqueeze},
    {kWhere, 3, 3, elementwise_op<kWhere>},
};

const Folder *folder_of(const std::string &op_type) {
  for (const Folder &f : kFolders)
    if (op_type == f.op)
      return &f;
  return nullptr;
}

} // namespace

StaticValue static_value_of(const onnx::TensorProto &tensor) {
  StaticValue v{Shape(tensor.dims().begin(), tensor.dims().end()), std::nullopt,
                tensor.data_type()};
  if (!within_tensor_limits(v.shape))
    return v;
  v.values = known_values(tensor);
  if (v.values && static_cast<std::int64_t>(v.values->size()) != element_count(v.shape))
    v.values.reset(); // data that does not fill the dims is not trusted
  return v;
}

std::optional<StaticValue> constant_node_value(const onnx::NodeProto &node) {
  for (const onnx::AttributeProto &a : node.attribute()) {
    if (a.name() == "value")
      return static_value_of(a.t());
    const bool ints = a.name() == "value_int" || a.name() == "value_ints";
    const bool list = a.name() == "value_ints" || a.name() == "value_floats";
    if (!ints && !list && a.name() != "value_float")
      continue;
    TensorProto t;
    t.set_data_type(ints ? TensorProto::INT64 : TensorProto::FLOAT);
    if (ints)
      t.mutable_int64_data()->CopyFrom(a.ints());
    else
      t.mutable_float_data()->CopyFrom(a.floats());
    if (!list && ints)
      t.add_int64_data(a.i());
    else if (!list)
      t.add_float_data(a.f());
    else
      t.add_dims(ints ? a.ints_size() : a.floats_size());
    return static_value_of(t);
  }
  return std::nullopt;
}

bool is_foldable(const std::string &op_type) { return folder_of(op_type) != nullptr; }

std::string foldable_op_types() {
  std::string out;
  for (const Folder &f : kFolders)
    out += (out.empty() ? "" : "/") + std::string(f.op);
  return out;
}

StaticValue fold_node(const std::string &op_type, const std::vector<StaticValue> &inputs,
                      const FoldAttributes &attrs) {
  const Folder *f = folder_of(op_type);
  if (!f)
    throw UserError("it is not an operator that folds");
  if (inputs.size() < f->min_inputs || inputs.size() > f->max_inputs)
    throw UserError("it has " + std::to_string(inputs.size()) + " inputs, which cannot be folded");
  return f->fold(inputs, attrs);
}

Shape expanded_shape(const Shape &data, const StaticValue &shape) {
  const Ints &dims = shape_operand(shape);
  Shape out;
  try {
    out = broadcast_shapes(data, dims, "");
  } catch (const UserError &) {
    throw UserError("its input of shape " + shape_text(data) + " does not expand to " +
                    shape_text(dims));
  }
  if (!within_tensor_limits(out))
    throw UserError("it would produce a tensor whose " + beyond_tensor_limits(out));
  return out;
}

} // namespace dse
