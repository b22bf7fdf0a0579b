// Geometry of split regions: which nodes split along which axis, and the output range each part
// computes, propagated backwards from the region's outputs through windows (the halo).
#include "dse/graph/split_region.hpp"

#include <algorithm>

#include "dse/graph/lowering.hpp"
#include "dse/graph/node_work.hpp"

namespace dse {

const char *split_axis_name(SplitAxis axis) {
  return axis == SplitAxis::Rows ? "rows" : "channels";
}

bool SplitRegion::contains(int node) const {
  return std::find(nodes.begin(), nodes.end(), node) != nodes.end();
}

namespace {

bool channel_last(NodeKind kind) { return kind == NodeKind::Gemm || kind == NodeKind::MatMul; }

/// The split axis of a tensor of rank `rank`, or -1 if it has none.
std::int64_t row_axis(size_t rank, int offset) {
  return static_cast<std::int64_t>(rank) - 1 - offset;
}

/// Whether the node computes each output row (along the split axis) from input rows alone.
bool row_splittable(const Graph &graph, int node, int offset) {
  const GraphNode &n = graph.node(node);
  if (n.outputs.size() != 1)
    return false;
  const size_t rank = graph.tensor(n.outputs[0]).shape.size();
  const std::int64_t axis = row_axis(rank, offset);
  const NodeAttributes &a = n.attrs;
  if (axis < 0)
    return false;
  switch (n.kind) {
  case NodeKind::Conv:
  case NodeKind::MaxPool:
  case NodeKind::AveragePool:
    return rank == 4 && offset == 1;
  case NodeKind::Gemm:
    return offset == 1 && !a.trans_a;
  case NodeKind::MatMul:
  case NodeKind::BatchNorm:
  case NodeKind::Elementwise:
  case NodeKind::Identity:
    return true;
  case NodeKind::Concat:
  case NodeKind::Softmax:
    return a.axis != axis;
  case NodeKind::LayerNorm:
    return a.axis > axis;
  case NodeKind::ReduceMean:
    return a.keepdims && std::find(a.axes.begin(), a.axes.end(), axis) == a.axes.end();
  case NodeKind::GlobalAveragePool:
  case NodeKind::Reshape:
  case NodeKind::Flatten:
  case NodeKind::Transpose:
  case NodeKind::Slice:
  case NodeKind::Split:
    return false;
  }
  return false;
}

bool channel_head(const Graph &graph, int node) {
  const GraphNode &n = graph.node(node);
  return (n.kind == NodeKind::Conv && n.attrs.groups == 1) || channel_last(n.kind);
}

Range hull(Range a, Range b) {
  if (a.size() <= 0)
    return b;
  return {std::min(a.begin, b.begin), std::max(a.end, b.end)};
}

bool fill_ranges(const Graph &graph, SplitRegion &r) {
  const size_t n = r.nodes.size();
  r.ranges.assign(n, std::vector<Range>(static_cast<size_t>(r.parts)));
  for (size_t i = n; i-- > 0;) {
    const int node = r.nodes[i];
    const int out = graph.node(node).outputs[0];
    const std::int64_t extent = graph.tensor(out).shape[r.dim(graph, node)];
    const bool handed_on = leaves_region(graph, r, out);
    if (handed_on && extent % r.parts != 0)
      return false;
    for (int p = 0; p < r.parts; ++p) {
      Range &range = r.ranges[i][static_cast<size_t>(p)];
      if (handed_on)
        range = hull(range, share_of(extent, r.parts, p));
      if (range.size() <= 0)
        return false;
      for (int in : graph.node(node).inputs) {
        const auto at = std::find(r.nodes.begin(), r.nodes.end(), graph.tensor(in).producer);
        if (at == r.nodes.end())
          continue;
        Range &need = r.ranges[static_cast<size_t>(at - r.nodes.begin())][static_cast<size_t>(p)];
        need = hull(need, input_range(graph, r, node, in, range));
      }
    }
  }
  return true;
}

bool valid_nodes(const Graph &graph, int first, int last, SplitAxis axis, int offset) {
  if (axis == SplitAxis::Rows) {
    for (int v = first; v <= last; ++v)
      if (!row_splittable(graph, v, offset))
        return false;
    return true;
  }
  if (!channel_head(graph, first))
    return false;
  const size_t rank = graph.tensor(graph.node(first).outputs[0]).shape.size();
  const auto dim = static_cast<std::int64_t>(channel_last(graph.node(first).kind) ? rank - 1 : 1);
  for (int v = first + 1; v <= last; ++v) {
    const GraphNode &n = graph.node(v);
    if (!is_attachable(graph, v) || graph.data_input(v) != graph.node(v - 1).outputs[0] ||
        (n.kind == NodeKind::Softmax && n.attrs.axis == dim))
      return false;
  }
  return true;
}

} // namespace

Range share_of(std::int64_t extent, int parts, int part) {
  return {extent / parts * part, extent / parts * (part + 1)};
}

bool leaves_region(const Graph &graph, const SplitRegion &region, int tensor) {
  const GraphTensor &t = graph.tensor(tensor);
  return t.is_output || t.consumers.empty() ||
         std::any_of(t.consumers.begin(), t.consumers.end(),
                     [&](int c) { return !region.contains(c); });
}

size_t SplitRegion::dim(const Graph &graph, int node) const {
  const GraphNode &n = graph.node(node);
  const size_t rank = graph.tensor(n.outputs[0]).shape.size();
  if (axis == SplitAxis::Rows)
    return static_cast<size_t>(row_axis(rank, offset));
  if (channel_last(n.kind) || rank < 2)
    return rank - 1;
  // A vector node after the head splits the axis its input is split along.
  const int producer = graph.tensor(graph.data_input(node)).producer;
  return n.kind != NodeKind::Conv && contains(producer) ? dim(graph, producer) : 1;
}

Range input_range(const Graph &graph, const SplitRegion &region, int node, int input_tensor,
                  Range out) {
  const GraphNode &n = graph.node(node);
  const Shape &in = graph.tensor(input_tensor).shape;
  if (region.axis == SplitAxis::Channels)
    return out; // vector nodes read the channels they write; a head reads its input whole
  const std::int64_t axis = row_axis(in.size(), region.offset);
  const bool second = n.inputs.size() > 1 && n.inputs[1] == input_tensor && channel_last(n.kind);
  if (axis < 0 || (second && region.offset == 1))
    return {0, axis < 0 ? 1 : in[static_cast<size_t>(axis)]}; // read whole
  const std::int64_t extent = in[static_cast<size_t>(axis)];
  if (extent == 1)
    return {0, 1}; // broadcast along the split axis
  if (n.kind != NodeKind::Conv && n.kind != NodeKind::MaxPool && n.kind != NodeKind::AveragePool)
    return out;
  const NodeAttributes &a = n.attrs;
  const std::int64_t window = (a.kernel[0] - 1) * a.dilations[0] + 1;
  return {std::max<std::int64_t>(0, out.begin * a.strides[0] - a.pads[0]),
          std::min(extent, (out.end - 1) * a.strides[0] - a.pads[0] + window)};
}

double input_words(const Graph &graph, const SplitRegion &region, int node, int input_tensor,
                   Range out) {
  const Shape &in = graph.tensor(input_tensor).shape;
  const auto whole = static_cast<double>(element_count(in));
  const int producer = graph.tensor(input_tensor).producer;
  std::int64_t axis = row_axis(in.size(), region.offset);
  if (region.axis == SplitAxis::Channels)
    axis = region.contains(producer) ? static_cast<std::int64_t>(region.dim(graph, producer)) : -1;
  if (axis < 0)
    return whole; // a channel head's input, or a tensor without the split axis
  const Range r = input_range(graph, region, node, input_tensor, out);
  return whole / static_cast<double>(in[static_cast<size_t>(axis)]) * static_cast<double>(r.size());
}

std::optional<SplitRegion> make_region(const Graph &graph, int first, int last, SplitAxis axis,
                                       int parts, int offset) {
  if (first < 0 || last < first || last >= static_cast<int>(graph.nodes.size()) || parts < 2 ||
      (axis == SplitAxis::Rows && offset < 1) || !valid_nodes(graph, first, last, axis, offset))
    return std::nullopt;
  SplitRegion r;
  r.axis = axis;
  r.offset = offset;
  r.parts = parts;
  for (int v = first; v <= last; ++v)
    r.nodes.push_back(v);
  if (!fill_ranges(graph, r))
    return std::nullopt;
  return r;
}

double halo_macs(const Graph &graph, const SplitRegion &region) {
  double extra = 0;
  for (size_t i = 0; i < region.nodes.size(); ++i) {
    const int node = region.nodes[i];
    const double extent = static_cast<double>(
        graph.tensor(graph.node(node).outputs[0]).shape[region.dim(graph, node)]);
    double computed = 0;
    for (const Range &r : region.ranges[i])
      computed += static_cast<double>(r.size());
    extra += node_macs(graph, node) * (computed - extent) / extent;
  }
  return extra;
}

} // namespace dse
