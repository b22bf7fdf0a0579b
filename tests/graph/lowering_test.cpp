// Tests of src/graph/lowering.cpp: the einsums of convolutions (strided, dilated, grouped),
// GEMMs and batched MatMuls, fusable pairs, residual adds, and equal keys for equal layers.
#include "dse/graph/lowering.hpp"

#include <gtest/gtest.h>

#include "dse/config/graph_loader.hpp"

namespace dse {
namespace {

/// `T[a,2*b+c-1]`-style text of an access, with the workload's dimension names.
std::string text(const Workload &w, const TensorAccess &a) {
  std::string out = a.tensor + "[";
  for (size_t i = 0; i < a.indices.size(); ++i)
    out += (i ? "," : "") + index_text(a.indices[i], w.dims);
  return out + "]";
}

std::string einsum_text(const Workload &w, size_t op) {
  const Einsum &e = w.ops.at(op).einsum;
  std::string out = text(w, e.output) + " += " + text(w, e.inputs[0]);
  return e.inputs.size() > 1 ? out + " * " + text(w, e.inputs[1]) : out;
}

const char *kNet = R"(name: n
inputs:
  - {name: x, shape: [1, 8, 16, 16]}
  - {name: a, shape: [4, 6, 5]}
  - {name: b, shape: [5, 7]}
nodes:
  - {name: strided, op: Conv, inputs: [x], output: y, channels: 16, kernel: [3, 3], strides: [2, 2], dilations: [2, 2], pads: [2, 2, 2, 2], bias: false}
  - {name: relu, op: Relu, inputs: [y], output: y2}
  - {name: pointwise, op: Conv, inputs: [y2], output: z, channels: 4, kernel: [1, 1], bias: false}
  - {name: depthwise, op: Conv, inputs: [x], output: d, channels: 8, kernel: [3, 3], groups: 8, bias: false}
  - {name: grouped, op: Conv, inputs: [x], output: e, channels: 4, kernel: [3, 3], groups: 2, bias: false}
  - {name: mm, op: MatMul, inputs: [a, b], output: m}
  - {name: window, op: Conv, inputs: [y2], output: v, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1], bias: false}
  - {name: depthwise2, op: Conv, inputs: [y2], output: d2, channels: 16, kernel: [3, 3], strides: [2, 2], pads: [1, 0, 1, 0], groups: 16, bias: false}
  - {name: grouped2, op: Conv, inputs: [y2], output: e2, channels: 4, kernel: [3, 3], groups: 2, bias: false}
outputs: [z, d, e, m, v, d2, e2]
)";

TEST(Lowering, StridedDilatedConvolution) {
  const Graph g = parse_graph_yaml(kNet, "n.yaml");
  const std::optional<Workload> w = lower_segment(g, {{{0, {}}}});
  ASSERT_TRUE(w);
  EXPECT_EQ(einsum_text(*w, 0), "Y0[k,p,q] += W0[k,c,r,s] * X0[c,2*p+2*r,2*q+2*s]");
  EXPECT_EQ(w->dim_size(w->dim_index("p")), 8);
}

TEST(Lowering, DepthwiseAndGroupedConvolutions) {
  const Graph g = parse_graph_yaml(kNet, "n.yaml");
  EXPECT_EQ(einsum_text(*lower_segment(g, {{{3, {}}}}), 0),
            "Y0[g,p,q] += W0[g,r,s] * X0[g,p+r,q+s]");
  EXPECT_EQ(einsum_text(*lower_segment(g, {{{4, {}}}}), 0),
            "Y0[g,k,p,q] += W0[g,k,c,r,s] * X0[g,c,p+r,q+s]");
}

TEST(Lowering, BatchedMatMulBroadcastsTheWeight) {
  const Graph g = parse_graph_yaml(kNet, "n.yaml");
  EXPECT_EQ(einsum_text(*lower_segment(g, {{{5, {}}}}), 0), "Y0[b,m,n] += A0[b,m,k] * B0[k,n]");
}

TEST(Lowering, PairSharesTheIntermediateDims) {
  const Graph g = parse_graph_yaml(kNet, "n.yaml");
  const std::optional<Workload> w = lower_segment(g, {{{0, {1}}, {2, {}}}});
  ASSERT_TRUE(w);
  ASSERT_EQ(w->ops.size(), 3u);
  EXPECT_EQ(w->ops[1].kind, OpKind::Elementwise);
  EXPECT_EQ(einsum_text(*w, 2), "Y2[k2,p,q] += W2[k2,k] * Y0a1[k,p,q]");
}

TEST(Lowering, PairReadsTheIntermediateThroughThePaddedWindow) {
  const Graph g = parse_graph_yaml(kNet, "n.yaml");
  // The consumer's positions are its own dims; its padding reads zeros around the producer's.
  EXPECT_EQ(einsum_text(*lower_segment(g, {{{0, {1}}, {6, {}}}}), 2),
            "Y2[k2,p2,q2] += W2[k2,k,r2,s2] * Y0a1[k,p2+r2-1,q2+s2-1]");
  // A depthwise consumer's group is the producer's channel (rows padded, columns not).
  EXPECT_EQ(einsum_text(*lower_segment(g, {{{0, {1}}, {7, {}}}}), 2),
            "Y2[k,p2,q2] += W2[k,r2,s2] * Y0a1[k,2*p2+r2-1,2*q2+s2]");
  // A grouped consumer would read the producer's channels as two dims: not lowered as a pair.
  EXPECT_FALSE(lower_segment(g, {{{0, {1}}, {8, {}}}}));
}

// A basic residual block: the add right after the second convolution is its residual; a
// second add of two convolutions' results goes to the later one.
const char *kBlock = R"(name: block
inputs:
  - {name: x, shape: [1, 4, 8, 8]}
nodes:
  - {name: conv1, op: Conv, inputs: [x], output: y, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1], bias: false}
  - {name: relu1, op: Relu, inputs: [y], output: y2}
  - {name: conv2, op: Conv, inputs: [y2], output: z, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1], bias: false}
  - {name: add, op: Add, inputs: [z, x], output: s}
  - {name: relu2, op: Relu, inputs: [s], output: o}
  - {name: left, op: Conv, inputs: [o], output: l, channels: 4, kernel: [1, 1], bias: false}
  - {name: right, op: Conv, inputs: [o], output: r, channels: 4, kernel: [1, 1], bias: false}
  - {name: join, op: Add, inputs: [r, l], output: j}
outputs: [j]
)";

TEST(Lowering, ResidualAddsStartTheirConvolutionsOutput) {
  const Graph g = parse_graph_yaml(kBlock, "block.yaml");
  EXPECT_EQ(residual_operand(g, 3, g.node(2).outputs[0]), g.tensor_index("x"));
  EXPECT_EQ(residual_operand(g, 4, g.node(3).outputs[0]), -1); // a Relu
  EXPECT_EQ(residual_operand(g, 7, g.node(5).outputs[0]), -1); // 'right' is not computed yet
  EXPECT_EQ(residual_operand(g, 7, g.node(6).outputs[0]), g.tensor_index("l"));
  const SegmentNodes pair{{{0, {1}}, {2, {3, 4}}}};
  const std::optional<Workload> w = lower_segment(g, pair);
  ASSERT_TRUE(w);
  EXPECT_EQ(einsum_text(*w, 2), "Y2[k2,p2,q2] += W2[k2,k,r2,s2] * Y0a1[k,p2+r2-1,q2+s2-1]");
  // The residual is the block's input, which the segment reads already: it keeps that name (the
  // chain may hold it); the segment's result is the second Relu's output.
  EXPECT_EQ(w->ops[2].einsum.residual, "X0");
  const std::map<std::string, int> bound = segment_graph_tensors(g, pair);
  EXPECT_EQ(bound.at("X0"), g.tensor_index("x"));
  EXPECT_EQ(bound.at("Y2"), g.tensor_index("o"));
  EXPECT_FALSE(bound.contains("R2"));
  // The second convolution alone reads the block's input only as its residual.
  const std::optional<Workload> alone = lower_segment(g, {{{2, {3, 4}}}});
  ASSERT_TRUE(alone);
  EXPECT_EQ(alone->ops[0].einsum.residual, "R0");
}

TEST(Lowering, EqualLayersHaveEqualKeys) {
  const Graph g = parse_graph_yaml(R"(name: twins
inputs:
  - {name: x, shape: [1, 4, 8, 8]}
nodes:
  - {name: one, op: Conv, inputs: [x], output: y, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: two, op: Conv, inputs: [y], output: z, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: three, op: Conv, inputs: [z], output: u, channels: 4, kernel: [3, 3]}
outputs: [u]
)",
                                   "twins.yaml");
  const std::string a = workload_key(*lower_segment(g, {{{0, {}}}}));
  EXPECT_EQ(a, workload_key(*lower_segment(g, {{{1, {}}}})));
  EXPECT_NE(a, workload_key(*lower_segment(g, {{{2, {}}}})));
}

} // namespace
} // namespace dse
