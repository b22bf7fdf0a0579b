// Split execution preserves semantics: every valid region of small random graphs, run part by
// part by the reference executor (each part computing only its ranges from its own slabs), gives
// bit-identical outputs to the unsplit run; and the halo accounting of src/graph/split_region.cpp.
#include "dse/graph/split_region.hpp"

#include <gtest/gtest.h>

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
