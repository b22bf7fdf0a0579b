// Lowering of graph compute nodes to einsum workloads for the matrix engine: Conv to
// `Y[g,k,p,q] += W[g,k,c,r,s] * X[g,c,s1*p+d1*r,s2*q+d2*s]`, Gemm and MatMul to GEMM einsums,
// single-input vector nodes attached to the einsum whose result they read.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/graph.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

/// A compute node with the vector nodes applied to its result (attached): single-input ones and
/// a residual add, which follows only adds of weights (biases).
struct SegmentUnit {
  int node = -1;
  std::vector<int> attached;
};

/// A segment of the graph searched as one workload: one compute unit, or a chain of them, each
/// reading the previous one's result (after its attached nodes).
struct SegmentNodes {
  std::vector<SegmentUnit> units;
};

/// Whether a vector node can ride on the einsum whose result it reads: one activation input
/// (weights such as a bias are allowed), elementwise, batch norm or softmax.
bool is_attachable(const Graph &graph, int node);

/// The other operand when `node` adds another activation of the same shape to `result` (a
/// residual connection), else -1: right after the einsum that computes `result`, the add becomes
/// that einsum's residual (Einsum::residual), its output starting from the other operand.
int residual_operand(const Graph &graph, int node, int result);

/// The workload of a segment; nothing if a consumer cannot read its producer's result as the
/// engine fuses it (a grouped read, or a window it cannot lower).
std::optional<Workload> lower_segment(const Graph &graph, const SegmentNodes &segment);

/// The graph tensor behind each tensor of the segment's workload that lives outside it (its
/// inputs, weights included, and its result), by workload tensor name; empty when the segment
/// cannot be lowered.
std::map<std::string, int> segment_graph_tensors(const Graph &graph, const SegmentNodes &segment);

/// Canonical text of a workload's einsums and sizes: equal keys mean equal searches.
std::string workload_key(const Workload &workload);

} // namespace dse
