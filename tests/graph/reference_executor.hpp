// Test support: a plain reference executor for graphs on small random tensors, run whole, with
// split regions part by part, or with data-movement nodes replaced by views.
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "dse/graph/movement_elimination.hpp"
#include "dse/graph/split_region.hpp"
#include "dse/ir/graph.hpp"

namespace dse::testing {

using Values = std::vector<double>;
using TensorValues = std::map<int, Values>; // tensor index -> row-major values

/// Random values in [-1, 1) for every graph input and weight (deterministic for a seed).
TensorValues random_inputs(const Graph &graph, unsigned seed);

/// Runs every node in order; returns the values of every tensor.
TensorValues run_graph(const Graph &graph, const TensorValues &inputs);

/// Runs split regions part by part: each part computes only its ranges, into slabs that start
/// as NaN, so a part reading outside what it computed poisons the result.
TensorValues run_split(const Graph &graph, const std::vector<SplitRegion> &regions,
                       const TensorValues &inputs);

/// Runs the graph with eliminated movement nodes skipped and tensors read and written through
/// the views; returns the values of the graph outputs (read through their views).
TensorValues run_with_views(const Graph &graph, const MovementPlan &movement,
                            const TensorValues &inputs);

} // namespace dse::testing
