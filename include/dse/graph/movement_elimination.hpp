// Data-movement elimination (Inferentia): Identity, Transpose, Slice, Split, Reshape and
// Flatten become strided views of their input composed into the consumers, and Concat inputs
// are written in place by their producers, removing the load-store pair each would execute.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/graph.hpp"

namespace dse {

/// Where a tensor's elements live: element (i0, i1, ...) is element
/// offset + sum_k i_k * strides[k] of tensor `base`'s row-major storage.
struct TensorView {
  int base = -1;
  Shape strides;
  std::int64_t offset = 0;
};

struct MovementPlan {
  std::vector<TensorView> views; // per tensor (weights and graph inputs view themselves)
  std::vector<bool> eliminated;  // per node
  int movement_nodes = 0;        // data-movement nodes in the graph
  int load_store_pairs = 0;      // what they would execute: one per output, one per concat input
  int load_store_pairs_removed = 0;
  double words_removed = 0;      // words no longer loaded and stored
  std::vector<std::string> kept; // movement nodes kept as copies, with the reason
};

/// Row-major strides of a shape.
Shape row_major_strides(const Shape &shape);

/// Eliminates every movement node whose result is a view of its input: reshapes only when the
/// input view's strides allow it without a copy; concat inputs only when their producer can
/// write them in place (a computed tensor, not a graph output, not already viewed by others).
/// Nodes producing graph outputs are kept (the output must be stored in its own layout).
MovementPlan eliminate_movement(const Graph &graph);

} // namespace dse
