// Tests of src/graph/movement_elimination.cpp: graphs run with movement nodes replaced by views
// give the same outputs as the reference run; counts on the shipped networks.
#include "dse/graph/movement_elimination.hpp"

#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "reference_executor.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

::testing::AssertionResult same_outputs(const Graph &g, unsigned seed) {
  const MovementPlan plan = eliminate_movement(g);
  const testing::TensorValues inputs = testing::random_inputs(g, seed);
  const testing::TensorValues whole = testing::run_graph(g, inputs);
  const testing::TensorValues viewed = testing::run_with_views(g, plan, inputs);
  for (int out : g.outputs)
    if (whole.at(out) != viewed.at(out))
      return ::testing::AssertionFailure() << g.name << ": output differs";
  return ::testing::AssertionSuccess();
}

const char *kAttentionShapes = R"(name: heads
inputs:
  - {name: x, shape: [6, 1, 24]}
nodes:
  - {name: qkv, op: MatMul, inputs: [x], output: a, features: 36}
  - {name: q, op: Slice, inputs: [a], output: q0, starts: [0], ends: [12], axes: [-1]}
  - {name: k, op: Slice, inputs: [a], output: k0, starts: [12], ends: [24], axes: [-1]}
  - {name: qr, op: Reshape, inputs: [q0], output: q1, shape: [6, 3, 4]}
  - {name: kr, op: Reshape, inputs: [k0], output: k1, shape: [6, 3, 4]}
  - {name: qt, op: Transpose, inputs: [q1], output: q2, perm: [1, 0, 2]}
  - {name: kt, op: Transpose, inputs: [k1], output: k2, perm: [1, 2, 0]}
  - {name: s, op: MatMul, inputs: [q2, k2], output: s0}
  - {name: st, op: Transpose, inputs: [s0], output: s1, perm: [1, 0, 2]}
  - {name: flat, op: Reshape, inputs: [s1], output: s2, shape: [6, 18]}
  - {name: id, op: Identity, inputs: [s2], output: s3}
  - {name: relu, op: Relu, inputs: [s3], output: y}
outputs: [y]
)";

TEST(MovementElimination, AttentionViewsPreserveSemantics) {
  const Graph g = parse_graph_yaml(kAttentionShapes, "heads.yaml");
  const MovementPlan plan = eliminate_movement(g);
  EXPECT_EQ(plan.movement_nodes, 9);
  // The reshape after the score transpose merges axes that are not contiguous: it stays a copy.
  EXPECT_EQ(plan.load_store_pairs_removed, 8);
  ASSERT_EQ(plan.kept.size(), 1u);
  EXPECT_NE(plan.kept[0].find("flat (Reshape)"), std::string::npos);
  for (unsigned seed = 0; seed < 3; ++seed)
    EXPECT_TRUE(same_outputs(g, seed));
}

TEST(MovementElimination, ConcatInputsAreStoredInPlace) {
  const Graph g = parse_graph_yaml(R"(name: inception
inputs:
  - {name: x, shape: [1, 3, 6, 6]}
nodes:
  - {name: a, op: Conv, inputs: [x], output: ya, channels: 2, kernel: [1, 1]}
  - {name: b, op: Conv, inputs: [x], output: yb, channels: 3, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: p, op: MaxPool, inputs: [x], output: yp, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: cat, op: Concat, inputs: [ya, yb, yp, x], output: y, axis: 1}
  - {name: r, op: Relu, inputs: [y], output: z}
outputs: [z]
)",
                                   "inception.yaml");
  const MovementPlan plan = eliminate_movement(g);
  EXPECT_EQ(plan.load_store_pairs, 4);
  EXPECT_EQ(plan.load_store_pairs_removed, 3); // x is a graph input: copied
  EXPECT_FALSE(plan.eliminated[3]);
  EXPECT_EQ(plan.views[static_cast<size_t>(g.tensor_index("yb"))].offset, 2 * 36);
  EXPECT_TRUE(same_outputs(g, 1));
}

/// Random chains of movement nodes on a [2, 3, 4] tensor between two computations.
Graph random_movement(unsigned seed) {
  std::mt19937 rng(seed);
  const auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  std::vector<std::int64_t> shape{2, 3, 4};
  std::ostringstream y;
  y << "name: moves-" << seed << "\ninputs:\n  - {name: x, shape: [2, 3, 4]}\nnodes:\n"
    << "  - {name: start, op: Relu, inputs: [x], output: t0}\n";
  int t = 0;
  for (int i = 0; i < 5; ++i, ++t) {
    y << "  - {name: m" << i << ", inputs: [t" << t << "], output: t" << t + 1;
    const int kind = pick(4);
    if (kind == 0) {
      std::vector<int> perm{0, 1, 2};
      std::shuffle(perm.begin(), perm.end(), rng);
      y << ", op: Transpose, perm: [" << perm[0] << ", " << perm[1] << ", " << perm[2] << "]}\n";
      shape = {shape[static_cast<size_t>(perm[0])], shape[static_cast<size_t>(perm[1])],
               shape[static_cast<size_t>(perm[2])]};
    } else if (kind == 1) {
      std::shuffle(shape.begin(), shape.end(), rng); // same element count, new split of axes
      y << ", op: Reshape, shape: [" << shape[0] << ", " << shape[1] << ", " << shape[2] << "]}\n";
    } else if (kind == 2 && shape[2] > 1) {
      y << ", op: Slice, starts: [1], ends: [" << shape[2] << "], axes: [2]}\n";
      shape[2] -= 1;
    } else {
      y << ", op: Identity}\n";
    }
  }
  y << "  - {name: end, op: Sigmoid, inputs: [t" << t << "], output: y}\noutputs: [y]\n";
  return parse_graph_yaml(y.str(), "moves.yaml");
}

TEST(MovementElimination, RandomMovementChainsPreserveSemantics) {
  int removed = 0, kept = 0;
  for (unsigned seed = 0; seed < 60; ++seed) {
    const Graph g = random_movement(seed);
    EXPECT_TRUE(same_outputs(g, seed));
    const MovementPlan plan = eliminate_movement(g);
    removed += plan.load_store_pairs_removed;
    kept += static_cast<int>(plan.kept.size());
  }
  EXPECT_GT(removed, 100);
  EXPECT_GT(kept, 0); // some reshapes of transposed views need a copy
}

TEST(MovementElimination, ShippedNetworks) {
  const Graph bert = load_network(testing::repo_file("networks/bert_base_layer_s512.onnx"));
  const MovementPlan b = eliminate_movement(bert);
  EXPECT_EQ(b.movement_nodes, 14);
  EXPECT_EQ(b.load_store_pairs_removed, 13);
  const Graph googlenet = load_network(testing::repo_file("networks/googlenet.onnx"));
  const MovementPlan g = eliminate_movement(googlenet);
  EXPECT_EQ(g.load_store_pairs, 37); // 9 concats of 4 branches, and the flatten
  EXPECT_EQ(g.load_store_pairs_removed, 37);
}

} // namespace
} // namespace dse
