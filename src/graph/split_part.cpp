// Part graphs of split regions: the region's nodes with one part's shapes, slices and paddings,
// checked by the graph's own shape inference against the region's ranges.
#include "dse/graph/split_part.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "dse/ir/graph_shapes.hpp"

namespace dse {

namespace {

bool has_window(NodeKind kind) {
  return kind == NodeKind::Conv || kind == NodeKind::MaxPool || kind == NodeKind::AveragePool;
}

class PartBuilder {
public:
  PartBuilder(const Graph &graph, const SplitRegion &region, int part)
      : graph_(graph), region_(region), part_(part) {}

  std::optional<PartGraph> build() {
    out_.graph.name = graph_.name + " part " + std::to_string(part_);
    out_.graph.source_file = graph_.source_file;
    for (size_t i = 0; i < region_.nodes.size() && fits_; ++i)
      add_node(i);
    if (!fits_)
      return std::nullopt;
    try {
      link_graph(out_.graph);
      for (size_t n = 0; n < out_.graph.nodes.size(); ++n)
        infer_node_shapes(out_.graph, static_cast<int>(n));
    } catch (const UserError &) {
      return std::nullopt;
    }
    for (const auto &[tensor, shape] : expected_)
      if (out_.graph.tensor(tensor).shape != shape)
        return std::nullopt;
    return std::move(out_);
  }

private:
  Range range(size_t i) const { return region_.ranges[i][static_cast<size_t>(part_)]; }

  void add_node(size_t i) {
    GraphNode n = graph_.node(region_.nodes[i]);
    for (int &in : n.inputs)
      in = input_of(i, in);
    if (region_.axis == SplitAxis::Rows && has_window(n.kind))
      pad_to_part(i, n.attrs);
    for (int &out : n.outputs)
      out = output_of(i, out);
    out_.graph.nodes.push_back(std::move(n));
  }

  /// A tensor computed in the region is read as its producer's range, which must be what the
  /// reader needs; any other is a slice of the whole tensor.
  int input_of(size_t i, int tensor) {
    const int v = region_.nodes[i];
    const auto producer =
        std::find(region_.nodes.begin(), region_.nodes.end(), graph_.tensor(tensor).producer);
    if (producer == region_.nodes.end())
      return boundary_tensor(slice_of(i, tensor));
    const Range made = range(static_cast<size_t>(producer - region_.nodes.begin()));
    if (input_range(graph_, region_, v, tensor, range(i)) != made)
      fits_ = false;
    return computed_.at(tensor);
  }

  /// What part of a tensor from outside the region node i reads.
  PartTensorSource slice_of(size_t i, int tensor) const {
    const Shape &shape = graph_.tensor(tensor).shape;
    int axis = -1;
    Range r = range(i);
    if (region_.axis == SplitAxis::Rows) {
      const GraphNode &n = graph_.node(region_.nodes[i]);
      // A convolution's weights and bias have no rows; its input is the first operand.
      const bool rowless = n.kind == NodeKind::Conv && n.inputs.front() != tensor;
      axis = rowless ? -1 : static_cast<int>(shape.size()) - 1 - region_.offset;
      if (axis >= 0)
        r = input_range(graph_, region_, region_.nodes[i], tensor, range(i));
    } else {
      axis = channel_axis(i, tensor);
    }
    if (axis < 0 || r == Range{0, shape[static_cast<size_t>(axis)]} ||
        shape[static_cast<size_t>(axis)] == 1)
      return {tensor, -1, {}};
    return {tensor, axis, r};
  }

  /// The axis of a channel region's operand that holds the channels: the head's weights (and a
  /// second matrix operand), a batch norm's parameters, or an operand broadcast against the
  /// output whose aligned axis is the split one; -1 for what is read whole.
  int channel_axis(size_t i, int tensor) const {
    const GraphNode &n = graph_.node(region_.nodes[i]);
    const auto rank = static_cast<int>(graph_.tensor(tensor).shape.size());
    const auto k = std::find(n.inputs.begin(), n.inputs.end(), tensor) - n.inputs.begin();
    if (i == 0 && k == 0)
      return -1; // the head reads its input whole
    if (n.kind == NodeKind::Conv || (n.kind == NodeKind::BatchNorm && rank == 1))
      return 0;
    if (n.kind == NodeKind::Gemm && k == 1)
      return n.attrs.trans_b ? 0 : 1;
    if (n.kind == NodeKind::MatMul)
      return rank - 1;
    const auto out_rank = static_cast<int>(graph_.tensor(n.outputs[0]).shape.size());
    const int aligned = static_cast<int>(region_.dim(graph_, region_.nodes[i])) - out_rank + rank;
    return aligned >= 0 ? aligned : -1;
  }

  int boundary_tensor(const PartTensorSource &source) {
    const auto key =
        std::make_tuple(source.tensor, source.axis, source.range.begin, source.range.end);
    if (const auto it = boundary_.find(key); it != boundary_.end())
      return it->second;
    const GraphTensor &whole = graph_.tensor(source.tensor);
    GraphTensor t;
    // A second slice of the same tensor (read through a halo and without) is a tensor of its own.
    const auto slices =
        std::count_if(out_.sources.begin(), out_.sources.end(),
                      [&](const PartTensorSource &s) { return s.tensor == source.tensor; });
    t.name = whole.name + (slices > 0 ? "#" + std::to_string(slices) : "");
    t.shape = whole.shape;
    if (source.axis >= 0)
      t.shape[static_cast<size_t>(source.axis)] = source.range.size();
    t.kind = whole.kind == TensorKind::Weight ? TensorKind::Weight : TensorKind::Input;
    const int id = add_tensor(std::move(t), source);
    if (out_.graph.tensor(id).kind == TensorKind::Input)
      out_.graph.inputs.push_back(id);
    return boundary_[key] = id;
  }

  int output_of(size_t i, int tensor) {
    const int v = region_.nodes[i];
    const GraphTensor &whole = graph_.tensor(tensor);
    const size_t dim = region_.dim(graph_, v);
    const Range r = range(i);
    GraphTensor t;
    t.name = whole.name;
    t.shape = whole.shape;
    t.shape[dim] = r.size();
    const int id = add_tensor(t, {tensor, static_cast<int>(dim), r});
    expected_[id] = t.shape;
    computed_[tensor] = id;
    if (leaves_region(graph_, region_, tensor)) {
      // A part writes its share of what leaves the region, never rows another part writes.
      if (r != share_of(whole.shape[dim], region_.parts, part_))
        fits_ = false;
      out_.graph.outputs.push_back(id);
    }
    return id;
  }

  int add_tensor(GraphTensor t, const PartTensorSource &source) {
    out_.graph.tensors.push_back(std::move(t));
    out_.sources.push_back(source);
    return static_cast<int>(out_.graph.tensors.size()) - 1;
  }

  /// The padding of a window along the rows that this part's slice of its input needs: what the
  /// first and last windows of the part's range reach beyond the whole input.
  void pad_to_part(size_t i, NodeAttributes &a) const {
    const Range r = range(i);
    const int v = region_.nodes[i];
    const std::int64_t extent = graph_.tensor(graph_.data_input(v)).shape[2];
    const std::int64_t window = (a.kernel[0] - 1) * a.dilations[0] + 1;
    const std::int64_t top = a.pads[0];
    a.pads[0] = std::max<std::int64_t>(0, top - r.begin * a.strides[0]);
    a.pads[2] = std::max<std::int64_t>(0, (r.end - 1) * a.strides[0] - top + window - extent);
  }

  const Graph &graph_;
  const SplitRegion &region_;
  const int part_;
  PartGraph out_;
  bool fits_ = true;
  std::map<int, int> computed_; // whole tensor -> part tensor
  std::map<std::tuple<int, int, std::int64_t, std::int64_t>, int> boundary_; // slice -> part tensor
  std::map<int, Shape> expected_; // part tensor -> its shape
};

} // namespace

std::optional<PartGraph> part_graph(const Graph &graph, const SplitRegion &region, int part) {
  return PartBuilder(graph, region, part).build();
}

} // namespace dse
