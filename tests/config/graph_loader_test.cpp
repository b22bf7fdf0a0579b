// Tests of src/config/graph_loader.cpp and the shape inference it runs: the format, the weights
// it creates, and one test per error message at its exact file:line:col.
#include "dse/config/graph_loader.hpp"

#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::error_message;
using testing::throws_at;
using testing::with;

const std::string kBase = R"(name: g
inputs:
  - {name: x, shape: [1, 4, 8, 8]}
nodes:
  - {name: c, op: Conv, inputs: [x], output: y, channels: 6, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: r, op: Relu, inputs: [y], output: z}
outputs: [z]
)";

::testing::AssertionResult fails(const std::string &yaml, const std::string &line_col,
                                 const std::string &message) {
  return throws_at([&] { parse_graph_yaml(yaml, "g.yaml"); }, "g.yaml:" + line_col, message);
}

TEST(GraphLoader, ParsesNodesAndCreatesWeights) {
  const Graph g = parse_graph_yaml(kBase, "g.yaml");
  ASSERT_EQ(g.nodes.size(), 2u);
  const GraphNode &c = g.nodes[0];
  EXPECT_EQ(c.kind, NodeKind::Conv);
  EXPECT_EQ(c.where.line, 5);
  ASSERT_EQ(c.inputs.size(), 3u);
  EXPECT_EQ(g.tensor(c.inputs[1]).name, "c.weight");
  EXPECT_EQ(g.tensor(c.inputs[1]).shape, (Shape{6, 4, 3, 3}));
  EXPECT_EQ(g.tensor(c.inputs[2]).shape, (Shape{6}));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 6, 8, 8}));
  EXPECT_EQ(g.tensor(c.outputs[0]).consumers, std::vector<int>{1});
}

TEST(GraphLoader, TinyCnnExample) {
  const Graph g = load_graph_yaml(test_common::repo_file("networks/tiny-cnn.yaml"));
  EXPECT_EQ(g.tensor(g.outputs[0]).shape, (Shape{1, 10}));
  const int d = g.tensor_index("d");
  EXPECT_EQ(g.tensor(d).shape, (Shape{1, 64, 16, 16}));
}

TEST(GraphLoader, ShapeInferenceOfMovementNodes) {
  const std::string yaml = R"(name: m
inputs:
  - {name: x, shape: [2, 3, 4]}
nodes:
  - {name: t, op: Transpose, inputs: [x], output: a, perm: [2, 0, 1]}
  - {name: s, op: Slice, inputs: [a], output: b, starts: [1, -2], ends: [100, 3], axes: [0, 2]}
  - {name: r, op: Reshape, inputs: [b], output: c, shape: [0, -1]}
  - {name: sp, op: Split, inputs: [c], outputs: [d, e], axis: 1, split: [2, 2]}
  - {name: cat, op: Concat, inputs: [e, d], output: f, axis: 0}
outputs: [f]
)";
  const Graph g = parse_graph_yaml(yaml, "m.yaml");
  EXPECT_EQ(g.tensor(g.tensor_index("a")).shape, (Shape{4, 2, 3}));
  EXPECT_EQ(g.tensor(g.tensor_index("b")).shape, (Shape{3, 2, 2}));
  EXPECT_EQ(g.nodes[1].attrs.starts, (Shape{1, 0, 1}));
  EXPECT_EQ(g.tensor(g.tensor_index("c")).shape, (Shape{3, 4}));
  EXPECT_EQ(g.tensor(g.tensor_index("f")).shape, (Shape{6, 2}));
}

TEST(GraphLoader, PoolCeilModeAndMatMulBroadcast) {
  const std::string yaml = R"(name: p
inputs:
  - {name: x, shape: [1, 2, 7, 7]}
  - {name: a, shape: [3, 1, 4, 5]}
  - {name: b, shape: [6, 5, 2]}
nodes:
  - {name: p, op: MaxPool, inputs: [x], output: y, kernel: [2, 2], strides: [2, 2], ceil_mode: true}
  - {name: m, op: MatMul, inputs: [a, b], output: z}
outputs: [y, z]
)";
  const Graph g = parse_graph_yaml(yaml, "p.yaml");
  EXPECT_EQ(g.tensor(g.tensor_index("y")).shape, (Shape{1, 2, 4, 4}));
  EXPECT_EQ(g.tensor(g.tensor_index("z")).shape, (Shape{3, 6, 4, 2}));
}

TEST(GraphLoader, UnknownOpListsTheSupportedOnes) {
  EXPECT_TRUE(fails(with(kBase, "op: Relu", "op: Frobnicate"), "6:19",
                    "node 'r': unknown op 'Frobnicate' (expected one of: Abs, Add,"));
}

TEST(GraphLoader, UnknownKeyForTheOp) {
  EXPECT_TRUE(fails(with(kBase, "output: z}", "output: z, kernel: [3, 3]}"), "6:49",
                    "unknown key 'kernel' in node 'r' (expected one of: name, op, inputs, "
                    "output, ops_per_element)"));
}

TEST(GraphLoader, UndefinedInput) {
  EXPECT_TRUE(fails(with(kBase, "inputs: [y]", "inputs: [w]"), "6:34",
                    "node 'r': input 'w' is not a graph input or an earlier node's output"));
}

TEST(GraphLoader, DuplicateNamesAndTensors) {
  EXPECT_TRUE(fails(with(kBase, "{name: r,", "{name: c,"), "6:12", "duplicate node name 'c'"));
  EXPECT_TRUE(fails(with(kBase, "output: z}", "output: y}"), "6:46",
                    "node 'r': tensor 'y' is already defined"));
}

TEST(GraphLoader, MissingConvAttributeAndBadChannels) {
  EXPECT_TRUE(
      fails(with(kBase, ", kernel: [3, 3]", ""), "5:5", "node 'c': missing required key 'kernel'"));
  EXPECT_TRUE(fails(with(kBase, "channels: 6,", "channels: 6, groups: 4,"), "5:59",
                    "groups must divide the input channels (4) and channels (6)"));
}

TEST(GraphLoader, ShapeErrorsNameTheNode) {
  EXPECT_TRUE(fails(with(kBase, "kernel: [3, 3]", "kernel: [30, 3]"), "5:5",
                    "node 'c' (#0) (Conv) has a window of 30 larger than the padded input (10)"));
  EXPECT_TRUE(fails(with(kBase, "{name: r, op: Relu, inputs: [y], output: z}",
                         "{name: r, op: Reshape, inputs: [y], output: z, shape: [5, -1]}"),
                    "6:5", "node 'r' (#1) (Reshape) cannot reshape [1, 6, 8, 8] to [5, -1]"));
}

TEST(GraphLoader, OutputsMustBeProduced) {
  EXPECT_TRUE(fails(with(kBase, "outputs: [z]", "outputs: [x]"), "7:11",
                    "output 'x' is not produced by any node"));
}

TEST(GraphLoader, NetworkFileExtension) {
  EXPECT_EQ(error_message([] { load_network("net.txt"); }),
            "network file 'net.txt' must end in .onnx, .yaml or .yml");
}

} // namespace
} // namespace dse
