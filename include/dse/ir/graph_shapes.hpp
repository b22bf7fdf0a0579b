// Static shape inference for graph nodes: each loader adds a node, then asks for its output
// shapes, so every tensor of a loaded graph has a known shape.
#pragma once

#include "dse/ir/graph.hpp"

namespace dse {

/// Normalises the attributes of node `node_index` against its input shapes (negative axes,
/// slice bounds clamped, reshape targets resolved, default kernels, strides and pads) and sets
/// the shapes of its output tensors. Throws UserError naming the node on inconsistent shapes.
void infer_node_shapes(Graph &graph, int node_index);

/// Numpy-style broadcast of two shapes; throws UserError (with `what` as context) if they clash.
Shape broadcast_shapes(const Shape &a, const Shape &b, const std::string &what);

/// The shape Reshape gives `input` for `target` as written (0 copies the input's dimension, one
/// -1 is inferred); throws UserError ("has an invalid target shape ..." or "cannot reshape ...").
Shape reshape_shape(const Shape &input, const Shape &target);

} // namespace dse
