// Split execution preserves semantics: every valid region of small random graphs, run part by
// part by the reference executor (each part computing only its ranges from its own slabs), gives
// bit-identical outputs to the unsplit run; each part as a graph of its own
// (src/graph/split_part.cpp), run on slices of the whole run's tensors, gives exactly its slices of
// the whole run's outputs; and the halo accounting of src/graph/split_region.cpp.
#include "dse/graph/split_region.hpp"

#include <gtest/gtest.h>

#include "dse/graph/split_part.hpp"
#include "random_graphs.hpp"
#include "reference_executor.hpp"

namespace dse {
namespace {

using testing::random_inputs;
using testing::run_graph;
using testing::run_split;

/// Runs `region` split and unsplit; true if every graph output is identical.
::testing::AssertionResult same_outputs(const Graph &g, const SplitRegion &region, unsigned seed) {
  const testing::TensorValues inputs = random_inputs(g, seed);
  const testing::TensorValues whole = run_graph(g, inputs);
  const testing::TensorValues split = run_split(g, {region}, inputs);
  for (int out : g.outputs)
    if (whole.at(out) != split.at(out))
      return ::testing::AssertionFailure()
             << g.name << ": nodes " << region.nodes.front() << ".." << region.nodes.back() << " "
             << split_axis_name(region.axis) << " in " << region.parts << " parts differ";
  return ::testing::AssertionSuccess();
}

/// `range` of row-major `values` of shape `shape` along `axis` (all of them when axis is -1).
testing::Values slice(const testing::Values &values, const Shape &shape, int axis, Range range) {
  if (axis < 0)
    return values;
  const auto a = static_cast<size_t>(axis);
  std::int64_t inner = 1;
  for (size_t d = a + 1; d < shape.size(); ++d)
    inner *= shape[d];
  const std::int64_t outer = element_count(shape) / (inner * shape[a]);
  testing::Values out;
  for (std::int64_t o = 0; o < outer; ++o)
    for (std::int64_t r = range.begin; r < range.end; ++r)
      for (std::int64_t k = 0; k < inner; ++k)
        out.push_back(values[static_cast<size_t>((o * shape[a] + r) * inner + k)]);
  return out;
}

/// Runs each part of `region` as its own graph on slices of the whole run; true if every part
/// exists and writes exactly its slices of the whole run's tensors.
::testing::AssertionResult parts_compute_their_slices(const Graph &g, const SplitRegion &region,
                                                      unsigned seed) {
  const testing::TensorValues whole = run_graph(g, random_inputs(g, seed));
  for (int p = 0; p < region.parts; ++p) {
    const std::optional<PartGraph> part = part_graph(g, region, p);
    if (!part)
      return ::testing::AssertionFailure() << g.name << ": no graph for part " << p;
    testing::TensorValues inputs;
    for (size_t t = 0; t < part->graph.tensors.size(); ++t) {
      const PartTensorSource &s = part->sources[t];
      const testing::Values sliced =
          slice(whole.at(s.tensor), g.tensor(s.tensor).shape, s.axis, s.range);
      if (part->graph.tensors[t].kind != TensorKind::Activation)
        inputs[static_cast<int>(t)] = sliced;
    }
    const testing::TensorValues computed = run_graph(part->graph, inputs);
    for (size_t t = 0; t < part->graph.tensors.size(); ++t) {
      const PartTensorSource &s = part->sources[t];
      if (computed.at(static_cast<int>(t)) !=
          slice(whole.at(s.tensor), g.tensor(s.tensor).shape, s.axis, s.range))
        return ::testing::AssertionFailure()
               << g.name << ": nodes " << region.nodes.front() << ".." << region.nodes.back() << " "
               << split_axis_name(region.axis) << " part " << p << " of " << region.parts
               << ": tensor '" << part->graph.tensors[t].name << "' differs";
    }
  }
  return ::testing::AssertionSuccess();
}

/// Whether a tensor leaving `region` is also read in it through a halo (its part graphs do not
/// exist: a part would write rows another part writes).
bool leaves_with_halo(const Graph &g, const SplitRegion &region) {
  for (size_t i = 0; i < region.nodes.size(); ++i) {
    const int out = g.node(region.nodes[i]).outputs[0];
    if (!leaves_region(g, region, out))
      continue;
    const std::int64_t extent = g.tensor(out).shape[region.dim(g, region.nodes[i])];
    for (int p = 0; p < region.parts; ++p)
      if (region.ranges[i][static_cast<size_t>(p)] != share_of(extent, region.parts, p))
        return true;
  }
  return false;
}

int check_every_region(const Graph &g, SplitAxis axis, int offset, unsigned seed) {
  int checked = 0;
  const int n = static_cast<int>(g.nodes.size());
  for (int first = 0; first < n; ++first)
    for (int last = first; last < n; ++last)
      for (int parts : {2, 3, 4}) {
        const std::optional<SplitRegion> r = make_region(g, first, last, axis, parts, offset);
        if (!r)
          continue;
        EXPECT_TRUE(same_outputs(g, *r, seed));
        if (!leaves_with_halo(g, *r)) {
          EXPECT_TRUE(parts_compute_their_slices(g, *r, seed));
        }
        ++checked;
      }
  return checked;
}

TEST(SplitSemantics, RandomConvolutionGraphsRowsAndChannels) {
  int rows = 0, channels = 0;
  for (unsigned seed = 0; seed < 12; ++seed) {
    const Graph g = testing::random_cnn(seed);
    rows += check_every_region(g, SplitAxis::Rows, 1, seed);
    channels += check_every_region(g, SplitAxis::Channels, 0, seed);
  }
  EXPECT_GT(rows, 100);
  EXPECT_GT(channels, 10);
}

TEST(SplitSemantics, AttentionRowsHeadsAndChannels) {
  const Graph g = parse_graph_yaml(R"(name: attention
inputs:
  - {name: q, shape: [2, 6, 4]}
  - {name: k, shape: [2, 4, 6]}
  - {name: v, shape: [2, 6, 4]}
nodes:
  - {name: qk, op: MatMul, inputs: [q, k], output: s}
  - {name: scale, op: Mul, inputs: [s], output: s2}
  - {name: softmax, op: Softmax, inputs: [s2], output: p, axis: -1}
  - {name: pv, op: MatMul, inputs: [p, v], output: o}
  - {name: norm, op: LayerNormalization, inputs: [o], output: n, axis: -1}
  - {name: mean, op: ReduceMean, inputs: [n], output: m, axes: [-1]}
  - {name: fc, op: MatMul, inputs: [n], output: f, features: 6}
  - {name: sub, op: Sub, inputs: [f, m], output: z}
outputs: [z]
)",
                                   "attention.yaml");
  EXPECT_GT(check_every_region(g, SplitAxis::Rows, 1, 7), 20);
  EXPECT_GT(check_every_region(g, SplitAxis::Rows, 2, 7), 20);
  EXPECT_GT(check_every_region(g, SplitAxis::Channels, 0, 7), 0);
}

TEST(SplitSemantics, SoftmaxIsNeverSplitAlongItsAxis) {
  const Graph g = parse_graph_yaml(R"(name: s
inputs:
  - {name: x, shape: [4, 8]}
nodes:
  - {name: fc, op: Gemm, inputs: [x], output: y, features: 6}
  - {name: softmax, op: Softmax, inputs: [y], output: p, axis: 1}
outputs: [p]
)",
                                   "s.yaml");
  EXPECT_FALSE(make_region(g, 0, 1, SplitAxis::Channels, 2));
  EXPECT_TRUE(make_region(g, 0, 1, SplitAxis::Rows, 2));
}

TEST(SplitHalo, ZeroForPointwiseChains) {
  const Graph g = parse_graph_yaml(R"(name: pointwise
inputs:
  - {name: x, shape: [1, 4, 12, 12]}
nodes:
  - {name: a, op: Conv, inputs: [x], output: y1, channels: 8, kernel: [1, 1]}
  - {name: r, op: Relu, inputs: [y1], output: y2}
  - {name: b, op: Conv, inputs: [y2], output: y3, channels: 4, kernel: [1, 1]}
  - {name: s, op: Add, inputs: [y3, x], output: y4}
outputs: [y4]
)",
                                   "pointwise.yaml");
  for (int parts : {2, 3, 4, 6, 12}) {
    const std::optional<SplitRegion> r = make_region(g, 0, 3, SplitAxis::Rows, parts);
    ASSERT_TRUE(r);
    EXPECT_EQ(halo_macs(g, *r), 0.0);
    EXPECT_TRUE(same_outputs(g, *r, 3));
    EXPECT_TRUE(parts_compute_their_slices(g, *r, 3));
  }
}

TEST(SplitHalo, TwoStackedWindowsRecomputeTheOverlap) {
  const Graph g = parse_graph_yaml(R"(name: stacked
inputs:
  - {name: x, shape: [1, 1, 8, 8]}
nodes:
  - {name: a, op: Conv, inputs: [x], output: y1, channels: 2, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: b, op: Conv, inputs: [y1], output: y2, channels: 2, kernel: [3, 3], pads: [1, 1, 1, 1]}
outputs: [y2]
)",
                                   "stacked.yaml");
  const std::optional<SplitRegion> r = make_region(g, 0, 1, SplitAxis::Rows, 2);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->ranges[1][0], (Range{0, 4}));
  EXPECT_EQ(r->ranges[1][1], (Range{4, 8}));
  EXPECT_EQ(r->ranges[0][0], (Range{0, 5})); // one halo row below
  EXPECT_EQ(r->ranges[0][1], (Range{3, 8})); // one halo row above
  // Conv a: 2 output channels x 8 columns x 9 taps per row; 2 extra rows.
  EXPECT_EQ(halo_macs(g, *r), 2.0 * 2 * 8 * 9);
}

} // namespace
} // namespace dse
