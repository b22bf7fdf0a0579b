// For the graph fuzz targets: what `dse network` does first with a loaded graph, per node:
// its work figures, and for compute nodes the einsum workload the engine would search.
#pragma once

#include "dse/graph/lowering.hpp"
#include "dse/graph/node_work.hpp"

namespace dse::fuzz {

inline void lower_compute_nodes(const Graph &graph) {
  for (int i = 0; i < static_cast<int>(graph.nodes.size()); ++i) {
    node_macs(graph, i);
    node_vector_ops(graph, i);
    node_activation_words(graph, i);
    if (!is_compute(graph.node(i).kind))
      continue;
    lower_segment(graph, SegmentNodes{{{i, {}}}});
  }
}

} // namespace dse::fuzz
