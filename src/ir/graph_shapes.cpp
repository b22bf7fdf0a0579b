// Static shape inference with ONNX semantics for the node kinds the graph IR supports.
#include "dse/ir/graph_shapes.hpp"

#include <algorithm>
#include <numeric>

namespace dse {

namespace {

class NodeShapes {
public:
  NodeShapes(Graph &graph, int node_index)
      : graph_(graph), node_(graph.nodes.at(static_cast<size_t>(node_index))) {}

  void run() {
    std::vector<Shape> outs = infer();
    if (outs.size() != node_.outputs.size())
      fail("has " + std::to_string(node_.outputs.size()) + " outputs; expected " +
           std::to_string(outs.size()));
    for (size_t i = 0; i < outs.size(); ++i) {
      if (std::any_of(outs[i].begin(), outs[i].end(), [](std::int64_t d) { return d < 1; }))
        fail("would produce an empty tensor of shape " + shape_text(outs[i]));
      if (!within_tensor_limits(outs[i]))
        fail("would produce a tensor whose " + beyond_tensor_limits(outs[i]));
      graph_.tensors.at(static_cast<size_t>(node_.outputs[i])).shape = outs[i];
    }
  }

private:
  [[noreturn]] void fail(const std::string &message) const {
    throw UserError(node_.where, node_label(node_) + " (" + node_.op_type + ") " + message);
  }

  /// Broadcast with errors reported at this node.
  Shape broadcast(const Shape &a, const Shape &b) const {
    try {
      return broadcast_shapes(a, b, "");
    } catch (const UserError &e) {
      fail("has inputs whose " + e.message());
    }
  }

  const Shape &in(size_t i) const { return graph_.tensor(node_.inputs.at(i)).shape; }

  void expect_inputs(size_t min, size_t max) const {
    const size_t n = node_.inputs.size();
    if (n < min || n > max)
      fail("has " + std::to_string(n) + " inputs; expected " +
           (min == max ? std::to_string(min) : std::to_string(min) + " to " + std::to_string(max)));
  }

  void expect_rank(size_t i, size_t rank) const {
    if (in(i).size() != rank)
      fail("input " + std::to_string(i) + " has shape " + shape_text(in(i)) + "; expected rank " +
           std::to_string(rank));
  }

  std::int64_t normalise_axis(std::int64_t axis, size_t rank, bool inclusive = false) const {
    const auto r = static_cast<std::int64_t>(rank);
    const std::int64_t a = axis < 0 ? axis + r : axis;
    if (a < 0 || a > r || (a == r && !inclusive))
      fail("has axis " + std::to_string(axis) + " out of range for rank " + std::to_string(r));
    return a;
  }

  std::vector<Shape> infer() {
    switch (node_.kind) {
    case NodeKind::Conv:
      return {conv()};
    case NodeKind::MaxPool:
    case NodeKind::AveragePool:
      return {pool()};
    case NodeKind::GlobalAveragePool:
      return {global_pool()};
    case NodeKind::Gemm:
      return {gemm()};
    case NodeKind::MatMul:
      return {matmul()};
    case NodeKind::BatchNorm:
      expect_inputs(1, 5);
      return {in(0)};
    case NodeKind::Elementwise:
      return {elementwise()};
    case NodeKind::Softmax:
    case NodeKind::LayerNorm:
      expect_inputs(1, node_.kind == NodeKind::Softmax ? 1 : 3);
      node_.attrs.axis = normalise_axis(node_.attrs.axis, in(0).size());
      return {in(0)};
    case NodeKind::ReduceMean:
      return {reduce()};
    case NodeKind::Reshape:
      return {reshape()};
    case NodeKind::Flatten:
      return {flatten()};
    case NodeKind::Transpose:
      return {transpose()};
    case NodeKind::Concat:
      return {concat()};
    case NodeKind::Slice:
      return {slice()};
    case NodeKind::Split:
      return split();
    case NodeKind::Identity:
      expect_inputs(1, 1);
      return {in(0)};
    }
    fail("has an unknown kind");
  }

  /// Fills missing spatial attributes with ONNX defaults and checks their lengths.
  void spatial_defaults(size_t spatial, bool dilated) {
    NodeAttributes &a = node_.attrs;
    if (a.strides.empty())
      a.strides.assign(spatial, 1);
    if (a.pads.empty())
      a.pads.assign(2 * spatial, 0);
    if (a.dilations.empty())
      a.dilations.assign(spatial, 1);
    if (a.kernel.size() != spatial || a.strides.size() != spatial || a.pads.size() != 2 * spatial ||
        a.dilations.size() != spatial)
      fail("needs " + std::to_string(spatial) + " kernel, stride and dilation values and " +
           std::to_string(2 * spatial) + " pads");
    if (!dilated &&
        std::any_of(a.dilations.begin(), a.dilations.end(), [](std::int64_t d) { return d != 1; }))
      fail("has dilations, which pools do not support here");
    for (size_t i = 0; i < spatial; ++i)
      if (a.kernel[i] < 1 || a.strides[i] < 1 || a.dilations[i] < 1 || a.pads[i] < 0 ||
          a.pads[i + spatial] < 0)
        fail("has a non-positive kernel, stride or dilation, or a negative pad");
  }

  std::int64_t window_output(size_t i, std::int64_t extent) const {
    const NodeAttributes &a = node_.attrs;
    const size_t spatial = a.kernel.size();
    const std::int64_t span = a.dilations[i] * (a.kernel[i] - 1) + 1;
    const std::int64_t padded = extent + a.pads[i] + a.pads[i + spatial];
    if (padded < span)
      fail("has a window of " + std::to_string(span) + " larger than the padded input (" +
           std::to_string(padded) + ")");
    std::int64_t out = (padded - span) / a.strides[i] + 1;
    if (a.ceil_mode && (padded - span) % a.strides[i] != 0) {
      ++out;
      if ((out - 1) * a.strides[i] >= extent + a.pads[i]) // last window must start inside
        --out;
    }
    return out;
  }

  Shape conv() {
    expect_inputs(2, 3);
    expect_rank(0, 4);
    expect_rank(1, 4);
    const Shape &x = in(0);
    const Shape &w = in(1);
    NodeAttributes &a = node_.attrs;
    if (a.kernel.empty())
      a.kernel = {w[2], w[3]};
    spatial_defaults(2, true);
    if (a.kernel[0] != w[2] || a.kernel[1] != w[3])
      fail("has kernel_shape " + shape_text(a.kernel) + " but weights " + shape_text(w));
    if (a.groups < 1 || x[1] != w[1] * a.groups || w[0] % a.groups != 0)
      fail("has input " + shape_text(x) + ", weights " + shape_text(w) + " and " +
           std::to_string(a.groups) + " groups, which do not match");
    if (node_.inputs.size() == 3 && element_count(in(2)) != w[0])
      fail("has a bias of shape " + shape_text(in(2)) + " for " + std::to_string(w[0]) +
           " output channels");
    return {x[0], w[0], window_output(0, x[2]), window_output(1, x[3])};
  }

  Shape pool() {
    expect_inputs(1, 1);
    expect_rank(0, 4);
    spatial_defaults(2, false);
    const Shape &x = in(0);
    return {x[0], x[1], window_output(0, x[2]), window_output(1, x[3])};
  }

  Shape global_pool() {
    expect_inputs(1, 1);
    if (in(0).size() < 3)
      fail("needs an input of rank 3 or more, got " + shape_text(in(0)));
    Shape out = in(0);
    std::fill(out.begin() + 2, out.end(), 1);
    return out;
  }

  Shape gemm() {
    expect_inputs(2, 3);
    expect_rank(0, 2);
    expect_rank(1, 2);
    const NodeAttributes &a = node_.attrs;
    const std::int64_t m = a.trans_a ? in(0)[1] : in(0)[0];
    const std::int64_t k = a.trans_a ? in(0)[0] : in(0)[1];
    const std::int64_t k2 = a.trans_b ? in(1)[1] : in(1)[0];
    const std::int64_t n = a.trans_b ? in(1)[0] : in(1)[1];
    if (k != k2)
      fail("multiplies " + shape_text(in(0)) + " by " + shape_text(in(1)) +
           ": inner extents differ");
    if (node_.inputs.size() == 3)
      broadcast(in(2), {m, n});
    return {m, n};
  }

  Shape matmul() {
    expect_inputs(2, 2);
    const Shape &a = in(0);
    const Shape &b = in(1);
    if (a.size() < 2 || b.size() < 2)
      fail("multiplies " + shape_text(a) + " by " + shape_text(b) + "; both need rank 2 or more");
    if (a.back() != b[b.size() - 2])
      fail("multiplies " + shape_text(a) + " by " + shape_text(b) + ": inner extents differ");
    Shape out = broadcast(Shape(a.begin(), a.end() - 2), Shape(b.begin(), b.end() - 2));
    out.push_back(a[a.size() - 2]);
    out.push_back(b.back());
    return out;
  }

  Shape elementwise() {
    expect_inputs(1, 8);
    Shape out = in(0);
    for (size_t i = 1; i < node_.inputs.size(); ++i)
      out = broadcast(out, in(i));
    return out;
  }

  Shape reduce() {
    expect_inputs(1, 1);
    NodeAttributes &a = node_.attrs;
    const size_t rank = in(0).size();
    if (a.axes.empty()) {
      a.axes.resize(rank);
      std::iota(a.axes.begin(), a.axes.end(), 0);
    }
    for (std::int64_t &axis : a.axes)
      axis = normalise_axis(axis, rank);
    std::sort(a.axes.begin(), a.axes.end());
    Shape out;
    for (size_t d = 0; d < rank; ++d) {
      const bool reduced = std::binary_search(a.axes.begin(), a.axes.end(), std::int64_t(d));
      if (!reduced)
        out.push_back(in(0)[d]);
      else if (a.keepdims)
        out.push_back(1);
    }
    return out.empty() ? Shape{1} : out;
  }

  Shape reshape() {
    expect_inputs(1, 1);
    try {
      node_.attrs.shape = reshape_shape(in(0), node_.attrs.shape);
    } catch (const UserError &e) {
      fail(e.message());
    }
    return node_.attrs.shape;
  }

  Shape flatten() {
    expect_inputs(1, 1);
    const Shape &x = in(0);
    const auto axis = static_cast<size_t>(normalise_axis(node_.attrs.axis, x.size(), true));
    node_.attrs.axis = static_cast<std::int64_t>(axis);
    return {element_count(Shape(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis))),
            element_count(Shape(x.begin() + static_cast<std::ptrdiff_t>(axis), x.end()))};
  }

  Shape transpose() {
    expect_inputs(1, 1);
    const Shape &x = in(0);
    Shape &perm = node_.attrs.perm;
    if (perm.empty())
      for (size_t d = x.size(); d-- > 0;)
        perm.push_back(static_cast<std::int64_t>(d));
    Shape sorted = perm;
    std::sort(sorted.begin(), sorted.end());
    for (size_t d = 0; d < sorted.size(); ++d)
      if (sorted[d] != static_cast<std::int64_t>(d) || sorted.size() != x.size())
        fail("has perm " + shape_text(perm) + ", not a permutation of " + std::to_string(x.size()) +
             " axes");
    Shape out;
    for (std::int64_t p : perm)
      out.push_back(x[static_cast<size_t>(p)]);
    return out;
  }

  Shape concat() {
    expect_inputs(1, 64);
    Shape out = in(0);
    const auto axis = static_cast<size_t>(normalise_axis(node_.attrs.axis, out.size()));
    node_.attrs.axis = static_cast<std::int64_t>(axis);
    for (size_t i = 1; i < node_.inputs.size(); ++i) {
      const Shape &x = in(i);
      for (size_t d = 0; d < out.size(); ++d)
        if (x.size() != out.size() || (d != axis && x[d] != out[d]))
          fail("concatenates " + shape_text(in(0)) + " with " + shape_text(x) + " along axis " +
               std::to_string(axis));
      out[axis] += x[axis];
    }
    return out;
  }

  /// Rewrites starts/ends/steps as full-rank vectors with clamped, non-negative bounds.
  Shape slice() {
    expect_inputs(1, 1);
    NodeAttributes &a = node_.attrs;
    const Shape &x = in(0);
    if (a.axes.empty())
      for (size_t i = 0; i < a.starts.size(); ++i)
        a.axes.push_back(static_cast<std::int64_t>(i));
    if (a.steps.empty())
      a.steps.assign(a.starts.size(), 1);
    if (a.starts.size() != a.ends.size() || a.axes.size() != a.starts.size() ||
        a.steps.size() != a.starts.size())
      fail("needs as many starts, ends, axes and steps");
    Shape starts(x.size(), 0), ends = x, steps(x.size(), 1);
    for (size_t i = 0; i < a.axes.size(); ++i) {
      const auto d = static_cast<size_t>(normalise_axis(a.axes[i], x.size()));
      if (a.steps[i] < 1)
        fail("has step " + std::to_string(a.steps[i]) + "; only positive steps are supported");
      const auto clamp = [&](std::int64_t v) {
        return std::clamp(v < 0 ? v + x[d] : v, std::int64_t{0}, x[d]);
      };
      starts[d] = clamp(a.starts[i]);
      ends[d] = std::max(clamp(a.ends[i]), starts[d]);
      steps[d] = a.steps[i];
    }
    a.axes.resize(x.size());
    std::iota(a.axes.begin(), a.axes.end(), 0);
    a.starts = starts;
    a.ends = ends;
    a.steps = steps;
    Shape out(x.size());
    for (size_t d = 0; d < x.size(); ++d)
      out[d] = (ends[d] - starts[d] + steps[d] - 1) / steps[d];
    return out;
  }

  std::vector<Shape> split() {
    expect_inputs(1, 1);
    NodeAttributes &a = node_.attrs;
    const Shape &x = in(0);
    const auto axis = static_cast<size_t>(normalise_axis(a.axis, x.size()));
    a.axis = static_cast<std::int64_t>(axis);
    const auto parts = static_cast<std::int64_t>(node_.outputs.size());
    if (a.split.empty() && parts > 0 && x[axis] % parts == 0)
      a.split.assign(static_cast<size_t>(parts), x[axis] / parts);
    if (a.split.size() != node_.outputs.size() ||
        std::accumulate(a.split.begin(), a.split.end(), std::int64_t{0}) != x[axis])
      fail("cannot split extent " + std::to_string(x[axis]) + " into " + std::to_string(parts) +
           " parts " + shape_text(a.split));
    std::vector<Shape> out;
    for (std::int64_t size : a.split) {
      Shape s = x;
      s[axis] = size;
      out.push_back(s);
    }
    return out;
  }

  Graph &graph_;
  GraphNode &node_;
};

} // namespace

Shape broadcast_shapes(const Shape &a, const Shape &b, const std::string &what) {
  Shape out(std::max(a.size(), b.size()), 1);
  for (size_t i = 0; i < out.size(); ++i) {
    const std::int64_t x = i < a.size() ? a[a.size() - 1 - i] : 1;
    const std::int64_t y = i < b.size() ? b[b.size() - 1 - i] : 1;
    if (x != y && x != 1 && y != 1)
      throw UserError((what.empty() ? "" : what + ": ") + "shapes " + shape_text(a) + " and " +
                      shape_text(b) + " do not broadcast");
    out[out.size() - 1 - i] = x == 1 ? y : x; // numpy: a 1 stretches, even to 0
  }
  return out;
}

Shape reshape_shape(const Shape &input, const Shape &target) {
  Shape out = target;
  int infer_at = -1;
  std::int64_t known = 1;
  for (size_t d = 0; d < out.size(); ++d) {
    if (out[d] == 0 && d < input.size())
      out[d] = input[d];
    if (out[d] == -1 && infer_at < 0) {
      infer_at = static_cast<int>(d);
      continue;
    }
    if (out[d] < 1 || out[d] > kMaxDimensionSize)
      throw UserError("has an invalid target shape " + shape_text(target));
    if (known > kMaxTensorElements / out[d])
      throw UserError("cannot reshape " + shape_text(input) + " to " + shape_text(target));
    known *= out[d];
  }
  const std::int64_t total = element_count(input);
  if (infer_at >= 0 && total % known == 0)
    out[static_cast<size_t>(infer_at)] = total / known;
  if (element_count(out) != total)
    throw UserError("cannot reshape " + shape_text(input) + " to " + shape_text(target));
  return out;
}

void infer_node_shapes(Graph &graph, int node_index) { NodeShapes(graph, node_index).run(); }

} // namespace dse
