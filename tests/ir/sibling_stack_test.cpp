// Sibling einsums stacked over a new dimension: which einsums are siblings, the stacked einsums
// written for them, and the splits into chains that run a stack in place of its members.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/ir/sibling_stack.hpp"

namespace dse {
namespace {

/// Attention fed by its projections of one input X.
const std::string kBlock = test_common::projected_attention_workload("block", 4, 4, 2);

std::string einsum_text(const Workload &w, const Operator &op) {
  const auto access = [&w](const TensorAccess &a) {
    std::string out = a.tensor + "[";
    for (size_t i = 0; i < a.indices.size(); ++i)
      out += (i ? "," : "") + index_text(a.indices[i], w.dims);
    return out + "]";
  };
  return access(op.einsum.output) + " += " + access(op.einsum.inputs[0]) + " * " +
         access(op.einsum.inputs[1]);
}

/// The stacked ops of `w`: name -> einsum text.
std::map<std::string, std::string> stacks(const Workload &w) {
  std::map<std::string, std::string> out;
  for (const Operator &op : w.ops)
    if (!op.stacked.empty())
      out[op.name] = einsum_text(w, op);
  return out;
}

TEST(SiblingStack, TheThreeProjectionsStackInEveryWay) {
  const Workload original = parse_workload(kBlock, "block.yaml");
  const Workload w = with_sibling_stacks(original);
  ASSERT_EQ(w.ops.size(), original.ops.size() + 4);
  EXPECT_EQ(stacks(w), (std::map<std::string, std::string>{
                           {"q+k+v", "Q+K+V[stack,m,k] += X[m,d] * Wq+Wk+Wv[stack,d,k]"},
                           {"q+k", "Q+K[stack2,m,k] += X[m,d] * Wq+Wk[stack2,d,k]"},
                           {"q+v", "Q+V[stack3,m,k] += X[m,d] * Wq+Wv[stack3,d,k]"},
                           {"k+v", "K+V[stack4,n,k] += X[n,d] * Wk+Wv[stack4,d,k]"}}));
  EXPECT_EQ(w.dim_size(w.dim_index("stack")), 3);
  EXPECT_EQ(w.dim_size(w.dim_index("stack4")), 2);
  EXPECT_EQ(computed_einsums(w, 3), std::vector<int>{3});
  EXPECT_EQ(computed_einsums(w, static_cast<int>(original.ops.size())),
            (std::vector<int>{0, 1, 2}));
  // Stacking again adds nothing: the names are taken.
  EXPECT_EQ(with_sibling_stacks(w).ops.size(), w.ops.size());
}

TEST(SiblingStack, EverySplitComputesEachEinsumOnceAndAStackBeforeItsReaders) {
  const Workload w = with_sibling_stacks(parse_workload(kBlock, "block.yaml"));
  const std::vector<std::vector<Chain>> splits = chain_splits(w);
  // Four without a stack; with q+k+v one (pv after qk), q+k two, q+v one, k+v one.
  ASSERT_EQ(splits.size(), 9u);
  for (const std::vector<Chain> &split : splits) {
    std::set<std::string> stacked, written; // the stacks' results; those of stacks run so far
    for (const Chain &chain : split)
      for (int m : w.ops[static_cast<size_t>(chain.links[0].einsum_op)].stacked)
        stacked.insert(w.ops[static_cast<size_t>(m)].einsum.output.tensor);
    std::map<int, int> computed;
    for (const Chain &chain : split)
      for (const ChainLink &link : chain.links) {
        const Operator &op = w.ops[static_cast<size_t>(link.einsum_op)];
        for (const TensorAccess &in : op.einsum.inputs)
          EXPECT_TRUE(!stacked.count(in.tensor) || written.count(in.tensor))
              << op.name << " reads " << in.tensor << " before its stack runs";
        if (!op.stacked.empty()) {
          EXPECT_EQ(chain.links.size(), 1u) << op.name << " continues no chain";
          for (int m : op.stacked)
            written.insert(w.ops[static_cast<size_t>(m)].einsum.output.tensor);
        }
        for (int e : computed_einsums(w, link.einsum_op))
          ++computed[e];
      }
    EXPECT_EQ(computed, (std::map<int, int>{{0, 1}, {1, 1}, {2, 1}, {3, 1}, {5, 1}, {6, 1}}));
  }
}

TEST(SiblingStack, AStackContinuesTheChainOfTheInputItReadsForItsMembers) {
  const Workload w =
      with_sibling_stacks(parse_workload("name: w\ndims: {m: 4, a: 4, d: 4, k: 2}\nops:\n"
                                         "  - {name: x, einsum: \"X[m,d] += A[m,a] * Wa[a,d]\"}\n"
                                         "  - {name: k, einsum: \"K[m,k] += X[m,d] * Wk[d,k]\"}\n"
                                         "  - {name: v, einsum: \"V[m,k] += X[m,d] * Wv[d,k]\"}\n",
                                         "w.yaml"));
  const std::vector<ChainLink> links = workload_links(w);
  ASSERT_EQ(links.size(), 4u);
  EXPECT_FALSE(links_follow(w, links[0], links[1])); // X is read by v too
  EXPECT_TRUE(links_follow(w, links[0], links[3]));  // k+v reads it alone
  std::vector<std::vector<std::vector<int>>> splits;
  for (const std::vector<Chain> &split : chain_splits(w)) {
    splits.emplace_back();
    for (const Chain &chain : split)
      splits.back().push_back(chain_einsums(chain));
  }
  using Split = std::vector<std::vector<int>>;
  EXPECT_EQ(splits, (std::vector<Split>{{{0}, {1}, {2}}, {{0, 3}}}));
}

TEST(SiblingStack, OnlyEinsumsEqualUpToRenamingAndWithWeightsOfTheirOwnStack) {
  const auto stacked_ops = [](const std::string &dims, const std::string &ops) {
    return stacks(
        with_sibling_stacks(parse_workload("name: w\ndims: " + dims + "\nops:\n" + ops, "w.yaml")));
  };
  const std::string dims = "{m: 4, d: 4, k: 2}";
  // Results of different sizes (k: 2, l: 3).
  EXPECT_TRUE(stacked_ops("{m: 4, d: 4, k: 2, l: 3}",
                          "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                          "  - {name: b, einsum: \"B[m,l] += X[m,d] * Wb[d,l]\"}\n")
                  .empty());
  // A weight that an operator writes.
  EXPECT_TRUE(stacked_ops(dims, "  - {name: w, einsum: \"Wb[d,k] += U[d,m] * V[m,k]\"}\n"
                                "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                                "  - {name: b, einsum: \"B[m,k] += X[m,d] * Wb[d,k]\"}\n")
                  .empty());
  // One weight for both: the same einsum twice.
  EXPECT_TRUE(stacked_ops(dims, "  - {name: a, einsum: \"A[m,k] += X[m,d] * W[d,k]\"}\n"
                                "  - {name: b, einsum: \"B[m,k] += X[m,d] * W[d,k]\"}\n")
                  .empty());
  // The shared input read otherwise (transposed).
  EXPECT_TRUE(stacked_ops(dims, "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                                "  - {name: b, einsum: \"B[m,k] += X[d,m] * Wb[d,k]\"}\n")
                  .empty());
  // An operator attached to one of them.
  EXPECT_TRUE(stacked_ops(dims, "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                                "  - {name: r, kind: elementwise, tensor: A, out: R}\n"
                                "  - {name: b, einsum: \"B[m,k] += X[m,d] * Wb[d,k]\"}\n")
                  .empty());
  // A name that is taken leaves that stack out.
  EXPECT_TRUE(stacked_ops(dims, "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                                "  - {name: b, einsum: \"B[m,k] += X[m,d] * Wb[d,k]\"}\n"
                                "  - {name: a+b, einsum: \"C[m,k] += Y[m,d] * Wc[d,k]\"}\n")
                  .empty());
  // The shared input first in one sibling, second in the others: each subset's stack takes its
  // first member's order.
  EXPECT_EQ(stacked_ops("{m: 4, n: 4, d: 4, k: 2}",
                        "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                        "  - {name: b, einsum: \"B[n,k] += Wb[d,k] * X[n,d]\"}\n"
                        "  - {name: c, einsum: \"C[n,k] += Wc[d,k] * X[n,d]\"}\n"),
            (std::map<std::string, std::string>{
                {"a+b+c", "A+B+C[stack,m,k] += X[m,d] * Wa+Wb+Wc[stack,d,k]"},
                {"a+b", "A+B[stack2,m,k] += X[m,d] * Wa+Wb[stack2,d,k]"},
                {"a+c", "A+C[stack3,m,k] += X[m,d] * Wa+Wc[stack3,d,k]"},
                {"b+c", "B+C[stack4,n,k] += Wb+Wc[stack4,d,k] * X[n,d]"}}));
  // The shared input second, read through strided windows alike.
  EXPECT_EQ(stacked_ops("{m: 4, n: 4, d: 3, k: 2}",
                        "  - {name: a, einsum: \"A[m,k] += Wa[k,d] * X[2*m+d,k]\"}\n"
                        "  - {name: b, einsum: \"B[n,k] += Wb[k,d] * X[2*n+d,k]\"}\n"),
            (std::map<std::string, std::string>{
                {"a+b", "A+B[stack,m,k] += Wa+Wb[stack,k,d] * X[2*m+d,k]"}}));
}

} // namespace
} // namespace dse
