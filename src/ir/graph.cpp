// Queries on network graphs and the linking of producers and consumers.
#include "dse/ir/graph.hpp"

#include <algorithm>
#include <sstream>

namespace dse {

bool is_compute(NodeKind kind) {
  return kind == NodeKind::Conv || kind == NodeKind::Gemm || kind == NodeKind::MatMul;
}

bool is_movement(NodeKind kind) {
  switch (kind) {
  case NodeKind::Reshape:
  case NodeKind::Flatten:
  case NodeKind::Transpose:
  case NodeKind::Concat:
  case NodeKind::Slice:
  case NodeKind::Split:
  case NodeKind::Identity:
    return true;
  case NodeKind::Conv:
  case NodeKind::Gemm:
  case NodeKind::MatMul:
  case NodeKind::MaxPool:
  case NodeKind::AveragePool:
  case NodeKind::GlobalAveragePool:
  case NodeKind::BatchNorm:
  case NodeKind::Elementwise:
  case NodeKind::Softmax:
  case NodeKind::LayerNorm:
  case NodeKind::ReduceMean:
    return false;
  }
  return false;
}

namespace {

struct OpTypeEntry {
  const char *name;
  OpTypeInfo info;
};

constexpr OpTypeEntry kOpTypes[] = {
    {"Abs", {NodeKind::Elementwise, 1}},
    {"Add", {NodeKind::Elementwise, 1}},
    {"AveragePool", {NodeKind::AveragePool, 1}},
    {"BatchNormalization", {NodeKind::BatchNorm, 2}},
    {"Cast", {NodeKind::Elementwise, 1}},
    {"Clip", {NodeKind::Elementwise, 2}},
    {"Concat", {NodeKind::Concat, 0}},
    {"Conv", {NodeKind::Conv, 0}},
    {"Div", {NodeKind::Elementwise, 1}},
    {"Dropout", {NodeKind::Identity, 0}},
    {"Erf", {NodeKind::Elementwise, 4}},
    {"Exp", {NodeKind::Elementwise, 4}},
    {"Flatten", {NodeKind::Flatten, 0}},
    {"Gelu", {NodeKind::Elementwise, 8}},
    {"Gemm", {NodeKind::Gemm, 0}},
    {"GlobalAveragePool", {NodeKind::GlobalAveragePool, 1}},
    {"HardSigmoid", {NodeKind::Elementwise, 3}},
    {"HardSwish", {NodeKind::Elementwise, 4}},
    {"Identity", {NodeKind::Identity, 0}},
    {"LayerNormalization", {NodeKind::LayerNorm, 8}},
    {"LeakyRelu", {NodeKind::Elementwise, 2}},
    {"MatMul", {NodeKind::MatMul, 0}},
    {"Max", {NodeKind::Elementwise, 1}},
    {"MaxPool", {NodeKind::MaxPool, 1}},
    {"Min", {NodeKind::Elementwise, 1}},
    {"Mul", {NodeKind::Elementwise, 1}},
    {"Neg", {NodeKind::Elementwise, 1}},
    {"Pow", {NodeKind::Elementwise, 1}},
    {"Reciprocal", {NodeKind::Elementwise, 1}},
    {"ReduceMean", {NodeKind::ReduceMean, 1}},
    {"Relu", {NodeKind::Elementwise, 1}},
    {"Reshape", {NodeKind::Reshape, 0}},
    {"Sigmoid", {NodeKind::Elementwise, 4}},
    {"Slice", {NodeKind::Slice, 0}},
    {"Softmax", {NodeKind::Softmax, 4}},
    {"Split", {NodeKind::Split, 0}},
    {"Sqrt", {NodeKind::Elementwise, 1}},
    {"Sub", {NodeKind::Elementwise, 1}},
    {"Tanh", {NodeKind::Elementwise, 4}},
    {"Transpose", {NodeKind::Transpose, 0}},
};

} // namespace

std::optional<OpTypeInfo> op_type_info(const std::string &op_type) {
  for (const OpTypeEntry &e : kOpTypes)
    if (op_type == e.name)
      return e.info;
  return std::nullopt;
}

std::string supported_op_types() {
  std::string out;
  for (const OpTypeEntry &e : kOpTypes)
    out += (out.empty() ? "" : ", ") + std::string(e.name);
  return out;
}

std::string node_label(const GraphNode &node) {
  return "node '" + node.name + "' (#" + std::to_string(node.source_index) + ")";
}

int Graph::tensor_index(const std::string &tensor_name) const {
  for (size_t i = 0; i < tensors.size(); ++i)
    if (tensors[i].name == tensor_name)
      return static_cast<int>(i);
  return -1;
}

int Graph::data_input(int node_index) const {
  for (int t : node(node_index).inputs)
    if (tensor(t).kind != TensorKind::Weight)
      return t;
  return -1;
}

std::int64_t element_count(const Shape &shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape)
    n *= d;
  return n;
}

bool within_tensor_limits(const Shape &shape) {
  std::int64_t n = 1;
  for (std::int64_t d : shape) {
    if (d < 0 || d > kMaxDimensionSize || (d > 0 && n > kMaxTensorElements / d))
      return false;
    n *= d;
  }
  return true;
}

std::string beyond_tensor_limits(const Shape &shape) {
  return "shape " + shape_text(shape) + " has a dimension over " +
         std::to_string(kMaxDimensionSize) + " or more than " + std::to_string(kMaxTensorElements) +
         " (2^50) elements";
}

std::string shape_text(const Shape &shape) {
  std::ostringstream out;
  out << "[";
  for (size_t i = 0; i < shape.size(); ++i)
    out << (i ? ", " : "") << shape[i];
  out << "]";
  return out.str();
}

void link_graph(Graph &graph) {
  for (GraphTensor &t : graph.tensors) {
    t.producer = -1;
    t.consumers.clear();
    t.is_output = false;
  }
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    const GraphNode &node = graph.nodes[n];
    for (int in : node.inputs) {
      GraphTensor &t = graph.tensors.at(static_cast<size_t>(in));
      if (t.kind == TensorKind::Activation && t.producer < 0)
        throw UserError(node.where, node_label(node) + " reads tensor '" + t.name +
                                        "' before any node produces it");
      if (t.consumers.empty() || t.consumers.back() != static_cast<int>(n))
        t.consumers.push_back(static_cast<int>(n));
    }
    for (int out : node.outputs) {
      GraphTensor &t = graph.tensors.at(static_cast<size_t>(out));
      if (t.kind != TensorKind::Activation || t.producer >= 0)
        throw UserError(node.where, node_label(node) + " writes tensor '" + t.name +
                                        "', which is already defined");
      t.producer = static_cast<int>(n);
    }
  }
  for (int out : graph.outputs)
    graph.tensors.at(static_cast<size_t>(out)).is_output = true;
}

} // namespace dse
