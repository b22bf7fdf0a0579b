// MACs, vector operations and operand words per node, from shapes and attributes.
#include "dse/graph/node_work.hpp"

namespace dse {

namespace {

double elements(const Graph &graph, int tensor) {
  return static_cast<double>(element_count(graph.tensor(tensor).shape));
}

} // namespace

double node_macs(const Graph &graph, int node) {
  const GraphNode &n = graph.node(node);
  const double out = elements(graph, n.outputs[0]);
  if (n.kind == NodeKind::Conv) {
    const Shape &w = graph.tensor(n.inputs[1]).shape; // [K, C/g, R, S]
    return out * static_cast<double>(w[1] * w[2] * w[3]);
  }
  if (n.kind == NodeKind::Gemm || n.kind == NodeKind::MatMul) {
    const Shape &a = graph.tensor(n.inputs[0]).shape;
    const bool ta = n.kind == NodeKind::Gemm && n.attrs.trans_a;
    return out * static_cast<double>(ta ? a[a.size() - 2] : a.back());
  }
  return 0;
}

double node_vector_ops(const Graph &graph, int node) {
  const GraphNode &n = graph.node(node);
  if (is_compute(n.kind) || is_movement(n.kind))
    return 0;
  const double out = elements(graph, n.outputs[0]);
  if (n.kind == NodeKind::MaxPool || n.kind == NodeKind::AveragePool)
    return out * static_cast<double>(n.attrs.kernel[0] * n.attrs.kernel[1]);
  if (n.kind == NodeKind::GlobalAveragePool || n.kind == NodeKind::ReduceMean)
    return elements(graph, n.inputs[0]);
  return out * n.attrs.ops_per_element;
}

double node_weight_words(const Graph &graph, int node) {
  double words = 0;
  for (int t : graph.node(node).inputs)
    if (graph.tensor(t).kind == TensorKind::Weight)
      words += elements(graph, t);
  return words;
}

double node_activation_words(const Graph &graph, int node) {
  const GraphNode &n = graph.node(node);
  double words = 0;
  for (int t : n.inputs)
    if (graph.tensor(t).kind != TensorKind::Weight)
      words += elements(graph, t);
  for (int t : n.outputs)
    words += elements(graph, t);
  return words;
}

double node_output_words(const Graph &graph, int node) {
  double words = 0;
  for (int t : graph.node(node).outputs)
    words += elements(graph, t);
  return words;
}

} // namespace dse
