// One part of a split region as a graph of its own: the region's nodes computing that part's
// ranges, reading slices of the whole graph's tensors. What the schedule searches to cost a
// region run part by part.
#pragma once

#include <optional>
#include <vector>

#include "dse/graph/split_region.hpp"

namespace dse {

/// Where a tensor of a part graph comes from: `range` of a tensor of the whole graph along
/// `axis`, or the whole tensor when `axis` is -1.
struct PartTensorSource {
  int tensor = -1;
  int axis = -1;
  Range range;
};

struct PartGraph {
  Graph graph;                           // the region's nodes, in order
  std::vector<PartTensorSource> sources; // per tensor of `graph`
};

/// Part `part` of `region` as a graph: each node computes its range of the part; the tensors it
/// reads from outside the region are graph inputs (weights stay weights), sliced to what the part
/// reads (rows: its window with the halo, padded only where the part meets the tensor's edge;
/// channels: the head's weights and the vector nodes' per-channel operands); the tensors that
/// leave the region are graph outputs. Nothing when the shapes do not come out as the region's
/// ranges: a node that reads less of a tensor kept in the region than its producer computes, or
/// a tensor that leaves the region while also read through a halo in it.
std::optional<PartGraph> part_graph(const Graph &graph, const SplitRegion &region, int part);

} // namespace dse
