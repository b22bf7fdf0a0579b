// Chain detection: links, attached operators, and the ways a branching graph splits into chains.
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
  ASSERT_EQ(chain_splits(w).size(), 1u);
  const std::vector<Chain> chains = chain_splits(w).front();
  ASSERT_EQ(chains.size(), 2u);
  EXPECT_EQ(chains[0].links.size(), 1u);
  EXPECT_EQ(chains[1].links[0].einsum_op, 1);
}

TEST(ChainTest, ProducerConsumerThroughSoftmaxIsOneChain) {
  const Workload w = workload("  - {name: qk, einsum: \"S[m,n] += Q[m,k] * K[n,k]\"}\n"
                              "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                              "  - {name: pv, einsum: \"O[m,l] += P[m,n] * V[n,l]\"}\n");
  ASSERT_EQ(chain_splits(w).size(), 1u);
  const std::vector<Chain> chains = chain_splits(w).front();
  ASSERT_EQ(chains.size(), 1u);
  ASSERT_EQ(chains[0].links.size(), 2u);
  EXPECT_EQ(chains[0].links[0].attached_ops, std::vector<int>{1});
  EXPECT_EQ(link_result_tensor(w, chains[0].links[0]), "P");
  EXPECT_EQ(chains[0].links[1].einsum_op, 2);
}

/// Each split as its chains' einsum ops.
std::vector<std::vector<std::vector<int>>> einsums_of(const Workload &w) {
  std::vector<std::vector<std::vector<int>>> out;
  for (const std::vector<Chain> &split : chain_splits(w)) {
    out.emplace_back();
    for (const Chain &chain : split)
      out.back().push_back(chain_einsums(chain));
  }
  return out;
}

TEST(ChainTest, TensorReadTwiceGoesThroughDram) {
  const Workload w = workload("  - {name: a, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"
                              "  - {name: b, einsum: \"D[m,l] += C[m,n] * F[n,l]\"}\n"
                              "  - {name: c, einsum: \"G[m,l] += C[m,n] * H[n,l]\"}\n");
  using Split = std::vector<std::vector<int>>;
  EXPECT_EQ(einsums_of(w), std::vector<Split>({{{0}, {1}, {2}}}));
  const std::vector<ChainLink> links = workload_links(w);
  EXPECT_FALSE(links_follow(w, links[0], links[1]));
}

TEST(ChainTest, AnEinsumReadingTwoResultsContinuesEitherChain) {
  // Attention fed by its projections: qk reads Q and K, pv reads P and V.
  const Workload w = parse_workload("name: w\ndims: {m: 4, n: 4, d: 4, k: 4, l: 4, e: 4}\nops:\n"
                                    "  - {name: q, einsum: \"Q[m,k] += X[m,d] * Wq[d,k]\"}\n"
                                    "  - {name: k, einsum: \"K[n,k] += Y[n,d] * Wk[d,k]\"}\n"
                                    "  - {name: v, einsum: \"V[n,l] += Y[n,d] * Wv[d,l]\"}\n"
                                    "  - {name: qk, einsum: \"S[m,n] += Q[m,k] * K[n,k]\"}\n"
                                    "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                                    "  - {name: pv, einsum: \"O[m,l] += P[m,n] * V[n,l]\"}\n"
                                    "  - {name: o, einsum: \"Z[m,e] += O[m,l] * Wo[l,e]\"}\n",
                                    "w.yaml");
  using Split = std::vector<std::vector<int>>;
  // Each split's chains in an order they can run in: after the chains whose results they read.
  EXPECT_EQ(einsums_of(w), std::vector<Split>({{{1}, {2}, {0, 3, 5, 6}},
                                               {{1}, {0, 3}, {2, 5, 6}},
                                               {{0}, {2}, {1, 3, 5, 6}},
                                               {{0}, {1, 3}, {2, 5, 6}}}));
  const std::vector<ChainLink> links = workload_links(w);
  EXPECT_EQ(links[3].attached_ops, std::vector<int>{4});
  EXPECT_TRUE(links_follow(w, links[0], links[3]));
  EXPECT_TRUE(links_follow(w, links[1], links[3]));
  EXPECT_TRUE(links_follow(w, links[3], links[4]));
  EXPECT_FALSE(links_follow(w, links[0], links[4]));
}

} // namespace
} // namespace dse
