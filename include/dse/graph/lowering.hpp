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

/// A segment of the graph searched as one workload: one compute node, or a producer and a
/// consumer that reads the producer's result with bare indices, each with the single-input
/// vector nodes applied to its result (attached).
struct SegmentNodes {
  int producer = -1;
  std::vector<int> producer_attached;
  int consumer = -1; // -1: a single compute node
  std::vector<int> consumer_attached;
};

/// Whether a vector node can ride on the einsum whose result it reads: one activation input
/// (weights such as a bias are allowed), elementwise, batch norm or softmax.
bool is_attachable(const Graph &graph, int node);

/// The workload of a segment; nothing if the consumer cannot read the producer's result with
/// bare indices (a strided, windowed or grouped read), which the engine cannot fuse.
std::optional<Workload> lower_segment(const Graph &graph, const SegmentNodes &segment);

/// The graph tensor behind each tensor of the segment's workload that lives outside it (its
/// inputs, weights included, and its result), by workload tensor name; empty when the segment
/// cannot be lowered.
std::map<std::string, int> segment_graph_tensors(const Graph &graph, const SegmentNodes &segment);

/// Canonical text of a workload's einsums and sizes: equal keys mean equal searches.
std::string workload_key(const Workload &workload);

} // namespace dse
