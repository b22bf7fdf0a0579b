// Tests of src/graph/bank_mapping.cpp: propagation through views and elementwise nodes, copies
// only where fixed requirements conflict, never more copies than per-operator choices here.
#include "dse/graph/bank_mapping.hpp"

#include <gtest/gtest.h>

#include "test_graphs.hpp"

namespace dse {
namespace {

TEST(BankMapping, ConvolutionChainsNeedNoCopies) {
  const Graph g = parse_graph_yaml(testing::kConvChain, "c.yaml");
  const BankMapping m = map_banks(g);
  EXPECT_EQ(m.global.copies, 0);
  EXPECT_EQ(m.conflicts, 0);
  for (int t : {g.tensor_index("y1"), g.tensor_index("a1"), g.tensor_index("z")})
    EXPECT_EQ(m.global.axis[static_cast<size_t>(t)], 1); // channels on the banks
}

TEST(BankMapping, ConsecutiveMatMulsConflictAndTransposesPropagate) {
  const Graph g = parse_graph_yaml(R"(name: mm
inputs:
  - {name: x, shape: [8, 16]}
nodes:
  - {name: a, op: MatMul, inputs: [x], output: y, features: 32}
  - {name: relu, op: Relu, inputs: [y], output: r}
  - {name: b, op: MatMul, inputs: [r], output: z, features: 8}
  - {name: t, op: Transpose, inputs: [z], output: zt, perm: [1, 0]}
  - {name: c, op: MatMul, inputs: [zt], output: w, features: 4}
outputs: [w]
)",
                                   "mm.yaml");
  const BankMapping m = map_banks(g);
  // a partitions its rows (axis 0), b contracts over axis 1 of r: one conflict, one copy.
  // The transpose turns z's row partition into zt's column partition, which c contracts over.
  EXPECT_EQ(m.global.copies, 1);
  ASSERT_EQ(m.global.copied.size(), 1u);
  EXPECT_NE(m.global.copied[0].find("for b"), std::string::npos) << m.global.copied[0];
  EXPECT_EQ(m.global.axis[static_cast<size_t>(g.tensor_index("zt"))], 1);
  EXPECT_GE(m.local.copies, m.global.copies);
}

TEST(BankMapping, GlobalNeverWorseThanLocalOnShippedNetworks) {
  for (const std::string &name : testing::shipped_networks()) {
    const Graph g = load_network(testing::repo_file(name));
    const BankMapping m = map_banks(g);
    EXPECT_LE(m.global.copies, m.local.copies) << name;
  }
}

} // namespace
} // namespace dse
