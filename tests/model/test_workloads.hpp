// Tiny workloads for the model tests, written in the workload YAML format, and the single and
// fused problems of their (one) chain.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/model/problem.hpp"

namespace dse::test_workloads {

inline const char *const kGemm = R"(name: gemm
dims: {m: 4, k: 3, n: 2}
ops:
  - {name: mm, einsum: "C[m,n] += A[m,k] * B[k,n]"}
)";

inline const char *const kGemmPair = R"(name: gemm-pair
dims: {m: 4, k: 2, n: 3, l: 2}
ops:
  - {name: mm1, einsum: "C[m,n] += A[m,k] * B[k,n]"}
  - {name: mm2, einsum: "E[m,l] += C[m,n] * D[n,l]"}
)";

// p and q, r and s differ so that mixing them up shows.
inline const char *const kConvPair = R"(name: conv-pair
dims: {p: 3, q: 4, c: 2, k: 2, r: 2, s: 3, j: 2}
ops:
  - {name: conv, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]"}
  - {name: pointwise, einsum: "Z[j,p,q] += W2[j,k] * Y[k,p,q]"}
)";

inline const char *const kStridedConv = R"(name: strided-conv
dims: {k: 2, c: 2, p: 4, r: 3}
ops:
  - {name: conv, einsum: "Y[k,p] += W[k,c,r] * X[c,2*p+r]"}
)";

inline const char *const kAttention = R"(name: attention
dims: {h: 2, m: 4, n: 4, k: 2, l: 2}
ops:
  - {name: qk, einsum: "S[h,m,n] += Q[h,m,k] * K[h,n,k]"}
  - {name: softmax, kind: softmax, over: n, tensor: S, out: P}
  - {name: pv, einsum: "O[h,m,l] += P[h,m,n] * V[h,n,l]"}
)";

/// A parsed workload and its only chain. Problems point into it: it is neither copied nor moved.
class ChainWorkload {
public:
  explicit ChainWorkload(const char *yaml)
      : workload_(parse_workload(yaml, "test.yaml")), chain_(only_chain(workload_)) {}
  ChainWorkload(const ChainWorkload &) = delete;
  ChainWorkload &operator=(const ChainWorkload &) = delete;

  Problem single(size_t link) const {
    return make_single_problem(workload_, chain_.links.at(link));
  }
  Problem fused() const {
    return make_fused_problem(workload_, chain_.links.at(0), chain_.links.at(1));
  }

private:
  static Chain only_chain(const Workload &workload) {
    const std::vector<Chain> chains = detect_chains(workload);
    EXPECT_EQ(chains.size(), 1u);
    return chains.at(0);
  }

  Workload workload_;
  Chain chain_;
};

} // namespace dse::test_workloads
