// Reads and validates YAML network graphs into dse::Graph.
//
// Format (operator names and semantics as in ONNX; weights are created from the attributes):
//
//   name: tiny-cnn
//   inputs:
//     - {name: image, shape: [1, 3, 32, 32]}
//   nodes:                                   # in topological order
//     - {name: conv1, op: Conv, inputs: [image], output: c1, channels: 16, kernel: [3, 3],
//        strides: [1, 1], pads: [1, 1, 1, 1], dilations: [1, 1], groups: 1, bias: true}
//     - {name: relu1, op: Relu, inputs: [c1], output: r1}
//     - {name: pool1, op: MaxPool, inputs: [r1], output: p1, kernel: [2, 2], strides: [2, 2]}
//     - {name: flat, op: Flatten, inputs: [p1], output: f}
//     - {name: fc, op: Gemm, inputs: [f], output: logits, features: 10}
//   outputs: [logits]
//
// Per-op keys: Conv {channels, kernel, strides, pads, dilations, groups, bias}; Gemm
// {features, bias}; MatMul {features} (a weight operand; without it, two inputs); MaxPool and
// AveragePool {kernel, strides, pads, ceil_mode}; Softmax, LayerNormalization, Flatten, Concat
// {axis}; ReduceMean {axes, keepdims}; Reshape {shape}; Transpose {perm}; Slice {starts, ends,
// axes, steps}; Split {axis, split} with `outputs: [...]` instead of `output`; elementwise ops
// {ops_per_element}. BatchNormalization and LayerNormalization get per-channel parameters.
#include "dse/config/graph_loader.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "dse/config/onnx_loader.hpp"
#include "dse/ir/graph_shapes.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

using Ints = std::vector<std::int64_t>;
constexpr std::int64_t kMaxAttribute = kMaxDimensionSize;

/// Attribute keys each node kind accepts besides name, op, inputs and output(s).
std::vector<std::string_view> attribute_keys(NodeKind kind) {
  switch (kind) {
  case NodeKind::Conv:
    return {"channels", "kernel", "strides", "pads", "dilations", "groups", "bias"};
  case NodeKind::Gemm:
    return {"features", "bias"};
  case NodeKind::MatMul:
    return {"features"};
  case NodeKind::MaxPool:
  case NodeKind::AveragePool:
    return {"kernel", "strides", "pads", "ceil_mode"};
  case NodeKind::Elementwise:
  case NodeKind::BatchNorm:
    return {"ops_per_element"};
  case NodeKind::Softmax:
  case NodeKind::LayerNorm:
  case NodeKind::Flatten:
  case NodeKind::Concat:
    return {"axis"};
  case NodeKind::ReduceMean:
    return {"axes", "keepdims"};
  case NodeKind::Reshape:
    return {"shape"};
  case NodeKind::Transpose:
    return {"perm"};
  case NodeKind::Slice:
    return {"starts", "ends", "axes", "steps"};
  case NodeKind::Split:
    return {"axis", "split"};
  case NodeKind::GlobalAveragePool:
  case NodeKind::Identity:
    return {};
  }
  return {};
}

class GraphReader {
public:
  explicit GraphReader(std::string file) : file_(std::move(file)) {}

  Graph read(const YAML::Node &root) {
    const YamlMap top(root, file_, "");
    top.allow_only({"name", "inputs", "nodes", "outputs"});
    graph_.name = top.name("name");
    graph_.source_file = file_;
    const YAML::Node &inputs = top.list("inputs");
    for (size_t i = 0; i < inputs.size(); ++i)
      read_input(inputs[i], i);
    const YAML::Node &nodes = top.list("nodes");
    if (nodes.size() == 0)
      top.fail(nodes, "nodes must list at least one node");
    for (size_t i = 0; i < nodes.size(); ++i)
      read_node(nodes[i], static_cast<int>(i));
    read_outputs(top);
    link_graph(graph_);
    return std::move(graph_);
  }

private:
  Ints int_list(const YamlMap &m, std::string_view key, std::int64_t min) const {
    const YAML::Node &list = m.list(key);
    Ints out;
    for (size_t i = 0; i < list.size(); ++i)
      out.push_back(m.integer_value(list[i], key, min, kMaxAttribute));
    return out;
  }

  Ints int_list_or(const YamlMap &m, std::string_view key, std::int64_t min) const {
    return m.has(key) ? int_list(m, key, min) : Ints{};
  }

  int add_tensor(const YamlMap &m, const YAML::Node &at, const std::string &name, Shape shape,
                 TensorKind kind) {
    if (tensor_index(name) >= 0)
      m.fail(at, "tensor '" + name + "' is already defined");
    if (!within_tensor_limits(shape))
      m.fail(at, "tensor '" + name + "': " + beyond_tensor_limits(shape));
    graph_.tensors.push_back({name, std::move(shape), kind, -1, {}, false});
    const int index = static_cast<int>(graph_.tensors.size()) - 1;
    tensor_of_.emplace(name, index);
    return index;
  }

  /// Graph::tensor_index by a map: a linear scan per name would make loading quadratic.
  int tensor_index(const std::string &name) const {
    const auto it = tensor_of_.find(name);
    return it == tensor_of_.end() ? -1 : it->second;
  }

  void read_input(const YAML::Node &node, size_t index) {
    const YamlMap m(node, file_, "inputs[" + std::to_string(index) + "]");
    m.allow_only({"name", "shape"});
    const Ints shape = int_list(m, "shape", 1);
    if (shape.empty())
      m.fail(m.required("shape"), "shape must list at least one dimension");
    graph_.inputs.push_back(
        add_tensor(m, m.required("name"), m.name("name"), shape, TensorKind::Input));
  }

  void read_outputs(const YamlMap &top) {
    const YAML::Node &outputs = top.list("outputs");
    if (outputs.size() == 0)
      top.fail(outputs, "outputs must list at least one tensor");
    for (size_t i = 0; i < outputs.size(); ++i) {
      const std::string name = top.string_value(outputs[i], "outputs");
      const int t = tensor_index(name);
      if (t < 0 || graph_.tensor(t).kind != TensorKind::Activation)
        top.fail(outputs[i], "output '" + name + "' is not produced by any node");
      graph_.outputs.push_back(t);
    }
  }

  void read_node(const YAML::Node &node, int index) {
    const YamlMap unnamed(node, file_, "nodes[" + std::to_string(index) + "]");
    GraphNode n;
    n.name = unnamed.name("name");
    n.where = location_of(node, file_);
    n.source_index = index;
    if (!node_names_.insert(n.name).second)
      unnamed.fail(unnamed.required("name"), "duplicate node name '" + n.name + "'");
    const YamlMap m(node, file_, "node '" + n.name + "'");
    n.op_type = m.name("op");
    const std::optional<OpTypeInfo> info = op_type_info(n.op_type);
    if (!info)
      m.fail(m.required("op"),
             "unknown op '" + n.op_type + "' (expected one of: " + supported_op_types() + ")");
    n.kind = info->kind;
    n.attrs.ops_per_element =
        m.number_or("ops_per_element", info->ops_per_element, Bound::Positive);
    check_keys(m, n.kind);
    read_inputs(m, n);
    read_attributes(m, n);
    add_weights(m, n);
    read_node_outputs(m, n);
    graph_.nodes.push_back(std::move(n));
    infer_node_shapes(graph_, static_cast<int>(graph_.nodes.size()) - 1);
  }

  void check_keys(const YamlMap &m, NodeKind kind) const {
    const std::vector<std::string_view> extra = attribute_keys(kind);
    for (const auto &[key, value] : m.entries()) {
      const std::string &k = key.Scalar();
      const bool common = k == "name" || k == "op" || k == "inputs" ||
                          (kind == NodeKind::Split ? k == "outputs" : k == "output");
      if (common || std::find(extra.begin(), extra.end(), k) != extra.end())
        continue;
      std::string expected =
          kind == NodeKind::Split ? "name, op, inputs, outputs" : "name, op, inputs, output";
      for (std::string_view e : extra)
        expected += ", " + std::string(e);
      m.fail_plain(key, "unknown key '" + k + "' in " + m.context() +
                            " (expected one of: " + expected + ")");
    }
  }

  void read_inputs(const YamlMap &m, GraphNode &n) const {
    const YAML::Node &list = m.list("inputs");
    if (list.size() == 0)
      m.fail(list, "inputs must list at least one tensor");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string name = m.string_value(list[i], "inputs");
      const int t = tensor_index(name);
      if (t < 0)
        m.fail(list[i], "input '" + name + "' is not a graph input or an earlier node's output");
      n.inputs.push_back(t);
    }
  }

  void read_attributes(const YamlMap &m, GraphNode &n) const {
    NodeAttributes &a = n.attrs;
    a.kernel = int_list_or(m, "kernel", 1);
    a.strides = int_list_or(m, "strides", 1);
    a.pads = int_list_or(m, "pads", 0);
    a.dilations = int_list_or(m, "dilations", 1);
    a.groups = m.integer_or("groups", 1, 1, kMaxAttribute);
    a.ceil_mode = m.boolean_or("ceil_mode", false);
    a.perm = int_list_or(m, "perm", 0);
    a.axes = int_list_or(m, "axes", -kMaxAttribute);
    a.keepdims = m.boolean_or("keepdims", true);
    a.starts = int_list_or(m, "starts", -kMaxAttribute);
    a.ends = int_list_or(m, "ends", -kMaxAttribute);
    a.steps = int_list_or(m, "steps", 1);
    a.shape = int_list_or(m, "shape", -1);
    a.split = int_list_or(m, "split", 1);
    const std::int64_t fallback = n.kind == NodeKind::Flatten  ? 1
                                  : n.kind == NodeKind::Concat ? 0
                                                               : -1;
    a.axis = m.integer_or("axis", fallback, -64, 64);
    if (n.kind == NodeKind::Conv && !m.has("kernel"))
      m.required("kernel");
    if ((n.kind == NodeKind::MaxPool || n.kind == NodeKind::AveragePool) && !m.has("kernel"))
      m.required("kernel");
    if (n.kind == NodeKind::Reshape && !m.has("shape"))
      m.required("shape");
    if (n.kind == NodeKind::Slice && (!m.has("starts") || !m.has("ends")))
      m.required(m.has("starts") ? "ends" : "starts");
  }

  /// The activation shape of the node's first input, which weights are sized from.
  const Shape &data_shape(const YamlMap &m, const GraphNode &n, size_t rank) const {
    const Shape &x = graph_.tensor(n.inputs[0]).shape;
    if (x.size() != rank)
      m.fail(m.required("inputs"), "input '" + graph_.tensor(n.inputs[0]).name + "' has shape " +
                                       shape_text(x) + "; " + n.op_type + " needs rank " +
                                       std::to_string(rank));
    return x;
  }

  void add_weight(const YamlMap &m, GraphNode &n, const std::string &suffix, Shape shape) {
    n.inputs.push_back(add_tensor(m, m.node(), n.name + "." + suffix, shape, TensorKind::Weight));
  }

  void expect_inputs(const YamlMap &m, const GraphNode &n, size_t count) const {
    if (n.inputs.size() != count)
      m.fail(m.required("inputs"), n.op_type + " takes " + std::to_string(count) + " input" +
                                       (count > 1 ? "s" : "") + ", got " +
                                       std::to_string(n.inputs.size()));
  }

  void add_weights(const YamlMap &m, GraphNode &n) {
    const bool bias = m.boolean_or("bias", true);
    if (n.kind == NodeKind::Conv) {
      expect_inputs(m, n, 1);
      const Shape &x = data_shape(m, n, 4);
      const std::int64_t k = m.integer("channels", 1, kMaxAttribute);
      if (x[1] % n.attrs.groups != 0 || k % n.attrs.groups != 0)
        m.fail(m.required("channels"), "groups must divide the input channels (" +
                                           std::to_string(x[1]) + ") and channels (" +
                                           std::to_string(k) + ")");
      if (n.attrs.kernel.size() != 2)
        m.fail(m.required("kernel"), "kernel must list two extents");
      add_weight(m, n, "weight", {k, x[1] / n.attrs.groups, n.attrs.kernel[0], n.attrs.kernel[1]});
      if (bias)
        add_weight(m, n, "bias", {k});
    } else if (n.kind == NodeKind::Gemm) {
      expect_inputs(m, n, 1);
      const Shape &x = data_shape(m, n, 2);
      const std::int64_t f = m.integer("features", 1, kMaxAttribute);
      add_weight(m, n, "weight", {x[1], f});
      if (bias)
        add_weight(m, n, "bias", {f});
    } else if (n.kind == NodeKind::MatMul) {
      expect_inputs(m, n, m.has("features") ? 1 : 2);
      if (m.has("features"))
        add_weight(
            m, n, "weight",
            {graph_.tensor(n.inputs[0]).shape.back(), m.integer("features", 1, kMaxAttribute)});
    } else if (n.kind == NodeKind::BatchNorm) {
      expect_inputs(m, n, 1);
      const Shape &x = graph_.tensor(n.inputs[0]).shape;
      const std::int64_t c = x.size() > 1 ? x[1] : 1;
      for (const char *p : {"scale", "bias", "mean", "var"})
        add_weight(m, n, p, {c});
    } else if (n.kind == NodeKind::LayerNorm) {
      expect_inputs(m, n, 1);
      const Shape &x = graph_.tensor(n.inputs[0]).shape;
      add_weight(m, n, "scale", {x.back()});
      add_weight(m, n, "bias", {x.back()});
    }
  }

  void read_node_outputs(const YamlMap &m, GraphNode &n) {
    if (n.kind != NodeKind::Split) {
      const std::string name = m.name("output");
      n.outputs.push_back(add_tensor(m, m.required("output"), name, {}, TensorKind::Activation));
      return;
    }
    const YAML::Node &list = m.list("outputs");
    if (list.size() == 0)
      m.fail(list, "outputs must list at least one tensor");
    for (size_t i = 0; i < list.size(); ++i)
      n.outputs.push_back(
          add_tensor(m, list[i], m.string_value(list[i], "outputs"), {}, TensorKind::Activation));
  }

  std::string file_;
  Graph graph_;
  std::map<std::string, int> tensor_of_;
  std::set<std::string> node_names_;
};

bool has_extension(const std::string &path, std::initializer_list<const char *> extensions) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return std::any_of(extensions.begin(), extensions.end(), [&](const char *e) { return ext == e; });
}

} // namespace

Graph parse_graph_yaml(const std::string &yaml_text, const std::string &file_name) {
  return GraphReader(file_name).read(parse_yaml(yaml_text, file_name));
}

Graph load_graph_yaml(const std::string &path, std::uint64_t max_input_mib) {
  return parse_graph_yaml(read_yaml_file(path, max_input_mib), path);
}

Graph load_network(const std::string &path, std::uint64_t max_input_mib) {
  if (has_extension(path, {".onnx"}))
    return load_onnx(path);
  if (has_extension(path, {".yaml", ".yml"}))
    return load_graph_yaml(path, max_input_mib);
  throw UserError("network file '" + path + "' must end in .onnx, .yaml or .yml");
}

} // namespace dse
