// Analytical work counts of graph nodes: MACs of compute nodes, vector operations of the others,
// and the words each node reads and writes.
#pragma once

#include "dse/ir/graph.hpp"

namespace dse {

/// Multiply-accumulates of a Conv, Gemm or MatMul node (0 for other kinds).
double node_macs(const Graph &graph, int node);

/// Vector operations of a pool, elementwise, normalisation or reduction node (0 for compute and
/// data-movement nodes).
double node_vector_ops(const Graph &graph, int node);

/// Words of weights the node reads.
double node_weight_words(const Graph &graph, int node);

/// Words of activations (and graph inputs) the node reads plus the words it writes.
double node_activation_words(const Graph &graph, int node);

/// Words the node writes (its outputs).
double node_output_words(const Graph &graph, int node);

} // namespace dse
