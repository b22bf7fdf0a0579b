// Imports an ONNX ModelProto (parsed with protobuf, external data never opened) into a Graph:
// shape subgraphs on static values are folded to constants, an Expand of an initializer becomes
// a weight of its shape, a constant Pad is folded into the window of the convolution or pooling
// that reads it, weights keep their initializer dims, every shape is inferred and checked
// against the file's value_info.
#include "dse/config/onnx_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include "dse/ir/graph_shapes.hpp"
#include "onnx_broadcast.hpp"
#include "onnx_constants.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

using Ints = std::vector<std::int64_t>;

/// Input slots read as constant parameters rather than data.
bool is_parameter_slot(const std::string &op, size_t slot) {
  return slot >= 1 && (op == "Reshape" || op == "Split" || op == "Unsqueeze" || op == "Squeeze" ||
                       op == "ReduceMean" || op == "Slice" || op == "Clip" || op == "Dropout");
}

const onnx::AttributeProto *find_attr(const onnx::NodeProto &node, const std::string &name) {
  for (const onnx::AttributeProto &a : node.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

/// An integer list attribute as written (Slice's starts and ends: clamped to the axis later).
Ints clamped_ints_attr(const onnx::NodeProto &node, const std::string &name) {
  const onnx::AttributeProto *a = find_attr(node, name);
  return a ? Ints(a->ints().begin(), a->ints().end()) : Ints{};
}

/// A Pad node folded away: what it pads and by how much (begin and end of the two spatial axes,
/// in a convolution's `pads` order).
struct PendingPad {
  int source = 0; // graph tensor
  Ints pads;
  std::string label;
};

class OnnxImporter {
public:
  explicit OnnxImporter(std::string file) : file_(std::move(file)) {}

  Graph run(const onnx::ModelProto &model) {
    for (const onnx::OperatorSetIdProto &o : model.opset_import())
      if (o.domain().empty() || o.domain() == "ai.onnx")
        opset_ = o.version();
    const onnx::GraphProto &g = model.graph();
    if (g.node_size() == 0)
      fail("the model has no nodes");
    graph_.name = std::filesystem::path(file_).stem().string();
    graph_.source_file = file_;
    check_supported(g);
    read_declared_shapes(g);
    read_initializers(g);
    read_inputs(g);
    for (int i = 0; i < g.node_size(); ++i)
      import_node(g.node(i), i);
    read_outputs(g);
    link_graph(graph_);
    return std::move(graph_);
  }

private:
  [[noreturn]] void fail(const std::string &message) const {
    throw UserError(SourceLocation{file_, 0, 0}, message);
  }

  static std::string label(const onnx::NodeProto &node, int index) {
    return "node '" + node.name() + "' (#" + std::to_string(index) + ")";
  }

  /// Integer attributes enter shape arithmetic: bounded like dimensions, so it cannot overflow.
  std::int64_t bounded(const onnx::NodeProto &node, const std::string &name, std::int64_t v) const {
    if (v < -kMaxDimensionSize || v > kMaxDimensionSize)
      fail("node '" + node.name() + "' (" + node.op_type() + "): attribute '" + name + "' is " +
           std::to_string(v) + ", outside -" + std::to_string(kMaxDimensionSize) + ".." +
           std::to_string(kMaxDimensionSize));
    return v;
  }

  Ints ints_attr(const onnx::NodeProto &node, const std::string &name) const {
    Ints values = clamped_ints_attr(node, name);
    for (std::int64_t v : values)
      bounded(node, name, v);
    return values;
  }

  std::int64_t int_attr(const onnx::NodeProto &node, const std::string &name,
                        std::int64_t fallback) const {
    const onnx::AttributeProto *a = find_attr(node, name);
    return a ? bounded(node, name, a->i()) : fallback;
  }

  void check_supported(const onnx::GraphProto &g) const {
    std::vector<std::string> bad;
    for (int i = 0; i < g.node_size(); ++i) {
      const onnx::NodeProto &n = g.node(i);
      const bool std_domain = n.domain().empty() || n.domain() == "ai.onnx";
      if (!std_domain || (!op_type_info(n.op_type()) && !is_foldable(n.op_type()) &&
                          n.op_type() != "Constant" && n.op_type() != "Pad"))
        bad.push_back("'" + n.op_type() + "' at " + label(n, i));
    }
    if (bad.empty())
      return;
    std::string list;
    for (const std::string &b : bad)
      list += (list.empty() ? "" : ", ") + b;
    fail(std::to_string(bad.size()) + " unsupported operator" + (bad.size() > 1 ? "s" : "") + ": " +
         list + " (supported: " + supported_op_types() + ", Constant/" + foldable_op_types() +
         " on constants and shapes, Expand of an initializer, and Pad before a convolution or "
         "pooling)");
  }

  /// The static shape of a value's type, or nothing if any dimension is unknown.
  static std::optional<Shape> static_shape(const onnx::TypeProto &type) {
    if (!type.has_tensor_type() || !type.tensor_type().has_shape())
      return std::nullopt;
    Shape shape;
    for (const auto &d : type.tensor_type().shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() < 1)
        return std::nullopt;
      shape.push_back(d.dim_value());
    }
    return shape;
  }

  void read_declared_shapes(const onnx::GraphProto &g) {
    for (const auto &v : g.value_info())
      if (auto s = static_shape(v.type()))
        declared_[v.name()] = *s;
    for (const auto &v : g.output())
      if (auto s = static_shape(v.type()))
        declared_[v.name()] = *s;
  }

  void check_limits(const Shape &shape, const std::string &what) const {
    if (!within_tensor_limits(shape))
      fail(what + ": " + beyond_tensor_limits(shape));
  }

  int add_tensor(const std::string &name, Shape shape, TensorKind kind) {
    if (tensors_.count(name) || statics_.count(name))
      fail("tensor '" + name + "' is defined twice");
    graph_.tensors.push_back({name, std::move(shape), kind, -1, {}, false});
    tensors_[name] = static_cast<int>(graph_.tensors.size()) - 1;
    return tensors_[name];
  }

  void read_initializers(const onnx::GraphProto &g) {
    for (const onnx::TensorProto &init : g.initializer()) {
      StaticValue v = static_value_of(init);
      if (std::any_of(v.shape.begin(), v.shape.end(), [](std::int64_t d) { return d < 0; }))
        fail("initializer '" + init.name() + "' has a negative dimension");
      check_limits(v.shape, "initializer '" + init.name() + "'");
      if ((v.values && !is_float_type(v.elem_type)) || element_count(v.shape) == 0) {
        statics_[init.name()] = std::move(v);
        continue;
      }
      add_tensor(init.name(), v.shape, TensorKind::Weight);
    }
  }

  void read_inputs(const onnx::GraphProto &g) {
    for (const onnx::ValueInfoProto &in : g.input()) {
      if (tensors_.count(in.name()) || statics_.count(in.name()))
        continue; // an initializer also listed as an input (older exporters)
      const std::optional<Shape> shape = static_shape(in.type());
      if (!shape)
        fail("graph input '" + in.name() +
             "' has no static shape (symbolic or missing dimensions); export with fixed shapes");
      check_limits(*shape, "graph input '" + in.name() + "'");
      graph_.inputs.push_back(add_tensor(in.name(), *shape, TensorKind::Input));
    }
  }

  void read_outputs(const onnx::GraphProto &g) {
    for (const onnx::ValueInfoProto &out : g.output()) {
      const auto it = tensors_.find(out.name());
      if (it == tensors_.end() || graph_.tensor(it->second).kind != TensorKind::Activation)
        fail("graph output '" + out.name() + "' is not computed by any node");
      graph_.outputs.push_back(it->second);
    }
  }

  void import_node(const onnx::NodeProto &node, int index) {
    const std::string &op = node.op_type();
    if (node.output_size() == 0 || node.output(0).empty())
      fail(label(node, index) + " (" + op + ") has no output");
    if (op == "Constant") {
      statics_[node.output(0)] = constant_value(node, index);
      ++graph_.folded_nodes;
      return;
    }
    if (try_fold(node, index))
      return;
    if (op == "Pad") {
      read_pad(node, index);
      return;
    }
    if (op == "Identity" && tensors_.count(node.input(0)) &&
        graph_.tensor(tensors_.at(node.input(0))).kind == TensorKind::Weight) {
      tensors_[node.output(0)] = tensors_.at(node.input(0)); // a shared parameter
      ++graph_.folded_nodes;
      return;
    }
    if (op == "Expand") {
      import_expand(node, index);
      return;
    }
    if (!op_type_info(op) && op != "Unsqueeze" && op != "Squeeze")
      fail_unfolded(node, index);
    add_data_node(node, index);
  }

  [[noreturn]] void fail_undefined(const onnx::NodeProto &node, int index,
                                   const std::string &name) const {
    fail(label(node, index) + " (" + node.op_type() + ") reads tensor '" + name +
         "', which is not defined before it");
  }

  /// A node that only folds, stopped by an input that is not static.
  [[noreturn]] void fail_unfolded(const onnx::NodeProto &node, int index) const {
    for (const std::string &name : node.input())
      if (!name.empty() && !statics_.count(name) && !tensors_.count(name) && !pads_.count(name))
        fail_undefined(node, index, name);
    for (const std::string &name : node.input())
      if (!name.empty() && !statics_.count(name))
        fail(label(node, index) + " (" + node.op_type() + ") reads a computed tensor ('" + name +
             "'); only shape computations on constants are supported for it");
    fail(label(node, index) + " (" + node.op_type() + ") cannot be folded");
  }

  /// Expand of a graph tensor: an alias when the shape is kept, a weight of the expanded shape
  /// when it expands an initializer; expanding computed data is not supported.
  void import_expand(const onnx::NodeProto &node, int index) {
    const auto data = tensors_.find(node.input(0));
    if (data == tensors_.end() || node.input_size() != 2 || node.input(1).empty())
      fail_unfolded(node, index);
    parameter(node, index, 1); // a constant shape, or an error naming it
    const GraphTensor &from = graph_.tensor(data->second);
    Shape to;
    try {
      to = expanded_shape(from.shape, statics_.at(node.input(1)));
    } catch (const UserError &e) {
      fail(label(node, index) + " (Expand) cannot expand tensor '" + from.name +
           "': " + e.message());
    }
    check_declared_shape(node.output(0), to, label(node, index));
    if (to == from.shape)
      tensors_[node.output(0)] = data->second;
    else if (from.kind == TensorKind::Weight)
      add_tensor(node.output(0), to, TensorKind::Weight);
    else
      fail(label(node, index) + " (Expand) broadcasts computed tensor '" + from.name +
           "' of shape " + shape_text(from.shape) + " to " + shape_text(to) +
           "; only an Expand of a constant or an initializer, or one that keeps its input's "
           "shape, is supported");
    ++graph_.folded_nodes;
  }

  StaticValue constant_value(const onnx::NodeProto &node, int index) const {
    const std::optional<StaticValue> v = constant_node_value(node);
    if (!v)
      fail(label(node, index) + " (Constant) has no supported value attribute");
    check_limits(v->shape, label(node, index) + " (Constant)");
    return *v;
  }

  /// The attributes folding reads (Shape's start and end as written: they are clamped).
  FoldAttributes fold_attributes(const onnx::NodeProto &node) const {
    FoldAttributes a;
    a.axes = ints_attr(node, "axes");
    a.axis = int_attr(node, "axis", 0);
    a.to = static_cast<int>(int_attr(node, "to", onnx::TensorProto::INT64));
    if (const onnx::AttributeProto *start = find_attr(node, "start"))
      a.start = start->i();
    if (const onnx::AttributeProto *end = find_attr(node, "end"))
      a.end = end->i();
    a.allowzero = int_attr(node, "allowzero", 0) != 0;
    if (const onnx::AttributeProto *value = find_attr(node, "value"))
      a.fill = static_value_of(value->t());
    return a;
  }

  /// Folds a plumbing node whose inputs are all static; false if it reads computed data.
  bool try_fold(const onnx::NodeProto &node, int index) {
    const std::string &op = node.op_type();
    if (!is_foldable(op))
      return false;
    std::vector<StaticValue> inputs;
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string &name = node.input(i);
      if (name.empty())
        inputs.push_back({{0}, Ints{}, onnx::TensorProto::INT64}); // an absent optional input
      else if (const auto s = statics_.find(name); s != statics_.end())
        inputs.push_back(s->second);
      else if (op == "Shape" && tensors_.count(name))
        inputs.push_back(
            {graph_.tensor(tensors_.at(name)).shape, std::nullopt, onnx::TensorProto::UNDEFINED});
      else
        return false;
    }
    StaticValue folded;
    try {
      folded = fold_node(op, inputs, fold_attributes(node));
    } catch (const UserError &e) {
      fail(label(node, index) + " (" + op + ") cannot be folded: " + e.message());
    }
    check_declared_shape(node.output(0), folded.shape, label(node, index));
    statics_[node.output(0)] = std::move(folded);
    ++graph_.folded_nodes;
    return true;
  }

  Ints parameter(const onnx::NodeProto &node, int index, int slot) const {
    if (slot >= node.input_size() || node.input(slot).empty())
      return {};
    const auto s = statics_.find(node.input(slot));
    if (s == statics_.end() || !s->second.values)
      fail(label(node, index) + " (" + node.op_type() + ") reads parameter '" + node.input(slot) +
           "', which has no constant integer value in the file");
    return *s->second.values;
  }

  /// A constant Pad of the spatial axes of a rank-4 tensor, kept until a convolution or pooling
  /// reads its output and takes the padding into its window.
  void read_pad(const onnx::NodeProto &node, int index) {
    const auto source = tensors_.find(node.input(0));
    if (source == tensors_.end())
      fail(label(node, index) + " (Pad) reads tensor '" + node.input(0) +
           "', which is not defined before it");
    const onnx::AttributeProto *mode = find_attr(node, "mode");
    if (mode && mode->s() != "constant")
      fail(label(node, index) + " (Pad) has mode '" + mode->s() +
           "'; only constant padding is supported (folded into a convolution or pooling)");
    if (node.input_size() > 3 && !node.input(3).empty())
      fail(label(node, index) + " (Pad) names axes; only padding of every axis is supported");
    const Ints pads = opset_ >= 11 ? parameter(node, index, 1) : ints_attr(node, "pads");
    const bool spatial =
        graph_.tensor(source->second).shape.size() == 4 && pads.size() == 8 && pads[0] == 0 &&
        pads[1] == 0 && pads[4] == 0 && pads[5] == 0 &&
        std::all_of(pads.begin(), pads.end(), [](std::int64_t p) { return p >= 0; });
    if (!spatial)
      fail(label(node, index) + " (Pad) pads " + shape_text(pads) + " a tensor of shape " +
           shape_text(graph_.tensor(source->second).shape) +
           "; only non-negative padding of the two spatial axes of a rank-4 tensor is supported");
    pads_[node.output(0)] =
        PendingPad{source->second, {pads[2], pads[3], pads[6], pads[7]}, label(node, index)};
    ++graph_.folded_nodes;
  }

  /// Input `name` of `n` when it is a Pad's output: the Pad's input, its padding added to the
  /// window of `n`, which must be a convolution or pooling.
  int padded_input(const onnx::NodeProto &node, int index, const PendingPad &pad, size_t slot,
                   Ints &window_pads) const {
    const std::string &op = node.op_type();
    const onnx::AttributeProto *auto_pad = find_attr(node, "auto_pad");
    if (slot != 0 || (op != "Conv" && op != "MaxPool" && op != "AveragePool") ||
        (auto_pad && auto_pad->s() != "NOTSET" && !auto_pad->s().empty()))
      fail(pad.label + " (Pad) feeds " + label(node, index) + " (" + op +
           "); a Pad is supported only as the data input of a Conv, MaxPool or AveragePool "
           "without auto_pad, whose window takes the padding");
    window_pads = pad.pads;
    return pad.source;
  }

  void add_data_node(const onnx::NodeProto &node, int index) {
    GraphNode n;
    n.name = node.name().empty() ? node.op_type() + "_" + std::to_string(index) : node.name();
    n.op_type = node.op_type();
    n.where = SourceLocation{file_, 0, 0};
    n.source_index = index;
    Ints folded_pads; // of a Pad this node reads through
    for (int i = 0; i < node.input_size(); ++i) {
      const std::string &name = node.input(i);
      if (name.empty() || is_parameter_slot(n.op_type, static_cast<size_t>(i)))
        continue;
      if (const auto t = tensors_.find(name); t != tensors_.end())
        n.inputs.push_back(t->second);
      else if (const auto p = pads_.find(name); p != pads_.end())
        n.inputs.push_back(
            padded_input(node, index, p->second, static_cast<size_t>(i), folded_pads));
      else if (!statics_.count(name)) // scalar constants (exponents, epsilons) fold into the op
        fail_undefined(node, index, name);
    }
    if (n.inputs.empty())
      fail(label(node, index) + " (" + n.op_type + ") reads no tensor data");
    read_attributes(node, index, n);
    add_folded_pads(folded_pads, n.attrs);
    for (int i = 0; i < node.output_size(); ++i)
      if (n.kind == NodeKind::Split || i == 0)
        n.outputs.push_back(add_tensor(node.output(i), {}, TensorKind::Activation));
      else if (!node.output(i).empty())
        fail(label(node, index) + " (" + n.op_type + ") has optional output '" + node.output(i) +
             "', which is not supported");
    graph_.nodes.push_back(std::move(n));
    const int at = static_cast<int>(graph_.nodes.size()) - 1;
    infer_node_shapes(graph_, at);
    check_declared(graph_.nodes.back(), index);
  }

  void check_declared(const GraphNode &n, int index) const {
    for (int out : n.outputs)
      check_declared_shape(graph_.tensor(out).name, graph_.tensor(out).shape,
                           "node '" + n.name + "' (#" + std::to_string(index) + ")");
  }

  /// `shape`, inferred or folded at `where`, against the file's value_info for `name`.
  void check_declared_shape(const std::string &name, const Shape &shape,
                            const std::string &where) const {
    const auto d = declared_.find(name);
    if (d != declared_.end() && d->second != shape)
      fail(where + ": inferred shape " + shape_text(shape) + " of tensor '" + name +
           "' differs from the declared " + shape_text(d->second));
  }

  void read_attributes(const onnx::NodeProto &node, int index, GraphNode &n) const {
    const std::string &op = n.op_type;
    if (op == "Unsqueeze" || op == "Squeeze") {
      n.kind = NodeKind::Reshape;
      FoldAttributes axes;
      axes.axes = opset_ >= 13 ? parameter(node, index, 1) : ints_attr(node, "axes");
      const StaticValue shaped{graph_.tensor(n.inputs[0]).shape, std::nullopt,
                               onnx::TensorProto::UNDEFINED};
      try {
        n.attrs.shape = fold_node(op, {shaped}, axes).shape;
      } catch (const UserError &e) {
        fail(label(node, index) + " (" + op + ") " + e.message());
      }
      return;
    }
    const OpTypeInfo info = *op_type_info(op);
    n.kind = info.kind;
    NodeAttributes &a = n.attrs;
    a.ops_per_element = info.ops_per_element;
    a.kernel = ints_attr(node, "kernel_shape");
    a.strides = ints_attr(node, "strides");
    a.pads = ints_attr(node, "pads");
    a.dilations = ints_attr(node, "dilations");
    a.groups = int_attr(node, "group", 1);
    a.ceil_mode = int_attr(node, "ceil_mode", 0) != 0;
    a.trans_a = int_attr(node, "transA", 0) != 0;
    a.trans_b = int_attr(node, "transB", 0) != 0;
    a.perm = ints_attr(node, "perm");
    a.keepdims = int_attr(node, "keepdims", 1) != 0;
    a.axis = int_attr(node, "axis", default_axis(n.kind));
    if (op == "ReduceMean")
      a.axes = opset_ >= 18 ? parameter(node, index, 1) : ints_attr(node, "axes");
    if (op == "Split")
      a.split = opset_ >= 13 ? parameter(node, index, 1) : ints_attr(node, "split");
    if (op == "Reshape")
      a.shape = reshape_target(node, index);
    if (op == "Slice")
      read_slice(node, index, a);
    if (const onnx::AttributeProto *pad = find_attr(node, "auto_pad"))
      apply_auto_pad(node, index, pad->s(), n);
  }

  /// A folded Pad's padding added to the window's own.
  static void add_folded_pads(const Ints &pads, NodeAttributes &a) {
    if (pads.empty())
      return;
    if (a.pads.empty())
      a.pads.assign(4, 0);
    for (size_t i = 0; i < 4; ++i)
      a.pads[i] += pads[i];
  }

  std::int64_t default_axis(NodeKind kind) const {
    if (kind == NodeKind::Softmax)
      return opset_ >= 13 ? -1 : 1;
    if (kind == NodeKind::LayerNorm)
      return -1;
    if (kind == NodeKind::Flatten)
      return 1;
    return 0;
  }

  Ints reshape_target(const onnx::NodeProto &node, int index) const {
    const auto s = statics_.find(node.input_size() > 1 ? node.input(1) : "");
    if (s != statics_.end() && s->second.values)
      return *s->second.values;
    if (const auto d = declared_.find(node.output(0)); d != declared_.end())
      return d->second; // the shape input is external data: trust the declared output shape
    fail(label(node, index) + " (Reshape) has no constant target shape");
  }

  void read_slice(const onnx::NodeProto &node, int index, NodeAttributes &a) const {
    if (opset_ < 10) {
      a.starts = clamped_ints_attr(node, "starts");
      a.ends = clamped_ints_attr(node, "ends");
      a.axes = ints_attr(node, "axes");
      return;
    }
    a.starts = parameter(node, index, 1);
    a.ends = parameter(node, index, 2);
    a.axes = parameter(node, index, 3);
    a.steps = parameter(node, index, 4);
  }

  /// SAME_UPPER / SAME_LOWER padding resolved against the input shape (VALID is no padding).
  void apply_auto_pad(const onnx::NodeProto &node, int index, const std::string &mode,
                      GraphNode &n) const {
    if (mode == "NOTSET" || mode.empty())
      return;
    NodeAttributes &a = n.attrs;
    const Shape &x = graph_.tensor(n.inputs[0]).shape;
    if (a.kernel.empty() && n.inputs.size() > 1 && graph_.tensor(n.inputs[1]).shape.size() == 4)
      a.kernel = {graph_.tensor(n.inputs[1]).shape[2], graph_.tensor(n.inputs[1]).shape[3]};
    if (mode == "VALID" || x.size() != 4 || a.kernel.size() != 2) {
      a.pads.assign(4, 0);
      return;
    }
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER")
      fail(label(node, index) + " has unknown auto_pad '" + mode + "'");
    a.pads.assign(4, 0);
    for (size_t i = 0; i < 2; ++i) {
      const std::int64_t s = a.strides.empty() ? 1 : a.strides[i];
      const std::int64_t d = a.dilations.empty() ? 1 : a.dilations[i];
      const std::int64_t out = (x[i + 2] + s - 1) / s;
      const std::int64_t total =
          std::max<std::int64_t>(0, (out - 1) * s + (a.kernel[i] - 1) * d + 1 - x[i + 2]);
      const std::int64_t small = total / 2;
      a.pads[i] = mode == "SAME_UPPER" ? small : total - small;
      a.pads[i + 2] = total - a.pads[i];
    }
  }

  std::string file_;
  Graph graph_;
  std::int64_t opset_ = 13;
  std::map<std::string, int> tensors_; // name -> graph tensor (aliases included)
  std::map<std::string, StaticValue> statics_;
  std::map<std::string, Shape> declared_;
  std::map<std::string, PendingPad> pads_; // Pad outputs, by name
};

} // namespace

Graph parse_onnx(const std::string &bytes, const std::string &file_name) {
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes))
    throw UserError(SourceLocation{file_name, 0, 0},
                    "not a valid ONNX model (the protobuf message does not parse)");
  if (!model.has_graph())
    throw UserError(SourceLocation{file_name, 0, 0}, "the ONNX model has no graph");
  return OnnxImporter(file_name).run(model);
}

Graph load_onnx(const std::string &path) {
  return parse_onnx(read_text_file(path, kMaxOnnxBytes, " of protobuf"), path);
}

} // namespace dse
