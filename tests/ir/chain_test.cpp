// Chain detection: links, attached operators, and the graphs that are not chains.
#include <gtest/gtest.h>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"

namespace dse {
namespace {

Workload workload(const std::string &ops) {
  return parse_workload("name: w\ndims: {m: 4, k: 4, n: 4, l: 4}\nops:\n" + ops, "w.yaml");
}

TEST(ChainTest, SingleEinsumIsOneChainOfOneLink) {
  const Workload w = workload("  - {name: a, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"
                              "  - {name: b, einsum: \"D[m,l] += E[m,k] * F[k,l]\"}\n");
  const std::vector<Chain> chains = detect_chains(w);
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_EQ(chains[0].links.size(), 1u);
  EXPECT_EQ(chains[1].links[0].einsum_op, 1);
}

TEST(ChainTest, ProducerConsumerThroughSoftmaxIsOneChain) {
  const Workload w = workload("  - {name: qk, einsum: \"S[m,n] += Q[m,k] * K[n,k]\"}\n"
                              "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                              "  - {name: pv, einsum: \"O[m,l] += P[m,n] * V[n,l]\"}\n");
  const std::vector<Chain> chains = detect_chains(w);
  ASSERT_EQ(chains.size(), 1u);
  ASSERT_EQ(chains[0].links.size(), 2u);
  EXPECT_EQ(chains[0].links[0].attached_ops, std::vector<int>{1});
  EXPECT_EQ(link_result_tensor(w, chains[0].links[0]), "P");
  EXPECT_EQ(chains[0].links[1].einsum_op, 2);
}

TEST(ChainTest, TensorReadTwiceIsABranchingGraph) {
  const Workload w = workload("  - {name: a, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"
                              "  - {name: b, einsum: \"D[m,l] += C[m,n] * F[n,l]\"}\n"
                              "  - {name: c, einsum: \"G[m,l] += C[m,n] * H[n,l]\"}\n");
  try {
    detect_chains(w);
    FAIL() << "expected a branching-graph error";
  } catch (const UserError &e) {
    EXPECT_NE(std::string(e.what()).find("makes the operator graph branch (tensor 'C')"),
              std::string::npos)
        << e.what();
  }
}

} // namespace
} // namespace dse
