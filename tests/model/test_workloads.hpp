// Tiny workloads for the model tests, written in the workload YAML format, and the single and
// fused problems of their (one) chain.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/model/problem.hpp"

namespace dse::test_workloads {

inline const std::string kGemm = test_common::gemm_workload("gemm", 4, 3, 2);
inline const std::string kGemmPair = test_common::gemm_pair_workload("gemm-pair", 4, 2, 3, 2);

// p and q, r and s differ so that mixing them up shows.
inline const char *const kConvPair = R"(name: conv-pair
dims: {p: 3, q: 4, c: 2, k: 2, r: 2, s: 3, j: 2}
ops:
  - {name: conv, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]"}
  - {name: pointwise, einsum: "Z[j,p,q] += W2[j,k] * Y[k,p,q]"}
)";

/// Two convolutions with windows, the consumer reading the intermediate through its window
/// (`Y[k, a+u, b+v]`): fused, the producer computes each tile's halo.
inline const char *const kHaloConvPair = R"(name: halo-conv-pair
dims: {p: 4, q: 3, c: 2, k: 2, r: 2, s: 2, a: 3, b: 2, u: 2, v: 2, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]"}
  - {name: conv2, einsum: "Z[j,a,b] += W2[j,k,u,v] * Y[k,a+u,b+v]"}
)";

/// Two one-dimensional convolutions, the second reading the first's result through a 3-wide
/// window with a recompute loop (`j`) besides: every dataflow caches or recomputes the overlap.
inline const char *const kWindowPair1d = R"(name: window-pair-1d
dims: {p: 6, c: 2, k: 2, r: 2, a: 4, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y[k,a+u]"}
)";

/// A one-dimensional convolution read by a strided one (`Y[k, 2*a+u]`): overlapping windows.
inline const char *const kStridedHaloPair = R"(name: strided-halo-pair
dims: {p: 7, c: 2, k: 2, r: 2, a: 3, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y[k,2*a+u]"}
)";

/// Padded ("same") pairs: the consumer reads zeros around the intermediate (`Y[k, a+u-1]`),
/// which the producer never computes. A 1-D 3-wide window over a 3-wide producer (recomputed
/// only: padding after the last position and a window of the producer's own), over a pointwise
/// producer (cacheable), a stride-2 window, and a 2-D pair.
inline const char *const kPaddedWindowPair1d = R"(name: padded-window-pair-1d
dims: {p: 6, c: 2, k: 2, r: 3, a: 6, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y[k,a+u-1]"}
)";

inline const char *const kPaddedPointwisePair1d = R"(name: padded-pointwise-pair-1d
dims: {p: 5, c: 2, k: 2, a: 5, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p] += W1[k,c] * X[c,p]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y[k,a+u-1]"}
)";

inline const char *const kPaddedStridedPair1d = R"(name: padded-strided-pair-1d
dims: {p: 7, c: 2, k: 2, r: 2, a: 4, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y[k,2*a+u-1]"}
)";

inline const char *const kPaddedConvPair = R"(name: padded-conv-pair
dims: {p: 3, q: 2, c: 2, k: 2, r: 2, s: 2, a: 3, b: 2, u: 3, v: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]"}
  - {name: conv2, einsum: "Z[j,a,b] += W2[j,k,u,v] * Y[k,a+u-1,b+v-1]"}
)";

/// A consumer that reads the intermediate with a bare dim of its own (`a`, the size of the
/// producer's `p`): fused through the rewrite `p := a`, with no halo.
inline const char *const kRenamedPair = R"(name: renamed-pair
dims: {p: 3, c: 2, k: 2, a: 3, j: 2}
ops:
  - {name: mm1, einsum: "Y[k,p] += W1[k,c] * X[c,p]"}
  - {name: mm2, einsum: "Z[j,a] += W2[j,k] * Y[k,a]"}
)";

inline const char *const kStridedConv = R"(name: strided-conv
dims: {k: 2, c: 2, p: 4, r: 3}
ops:
  - {name: conv, einsum: "Y[k,p] += W[k,c,r] * X[c,2*p+r]"}
)";

inline const std::string kAttention = test_common::attention_workload("attention", 2, 4, 4, 2, 2);

/// Chains of three and four operators fused depth first (docs/DEPTH_FIRST.md §2).
/// Three GEMMs: `j` reruns the first, `l` the first two.
inline const char *const kGemmChain3 = R"(name: gemm-chain-3
dims: {m: 3, k: 2, n: 2, j: 2, l: 2}
ops:
  - {name: mm1, einsum: "Y1[m,n] += X[m,k] * W1[k,n]"}
  - {name: mm2, einsum: "Y2[m,j] += Y1[m,n] * W2[n,j]"}
  - {name: mm3, einsum: "Z[m,l] += Y2[m,j] * W3[j,l]"}
)";

/// A 1-D bottleneck: pointwise, a 3-wide window, pointwise (the first rewritten `p := a+u`).
inline const char *const kBottleneck1d = R"(name: bottleneck-1d
dims: {p: 6, c: 2, k: 2, a: 4, u: 3, j: 2, i: 2}
ops:
  - {name: reduce, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: window, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u]"}
  - {name: expand, einsum: "Z[i,a] += W3[i,j] * Y2[j,a]"}
)";

/// Two windows composed (`p := b+v+u`): the first operator computes the pyramid's base.
inline const char *const kWindowChain1d = R"(name: window-chain-1d
dims: {p: 5, c: 2, r: 2, k: 2, a: 4, u: 2, j: 2, b: 3, v: 2, i: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u]"}
  - {name: conv3, einsum: "Z[i,b] += W3[i,j,v] * Y2[j,b+v]"}
)";

/// A padded ("same") window between two pointwise operators, and a strided window after
/// another window (`p := 2*b+2*v+u`).
inline const char *const kPaddedBottleneck1d = R"(name: padded-bottleneck-1d
dims: {p: 5, c: 2, k: 2, a: 5, u: 3, j: 2, i: 2}
ops:
  - {name: reduce, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: window, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u-1]"}
  - {name: expand, einsum: "Z[i,a] += W3[i,j] * Y2[j,a]"}
)";

inline const char *const kStridedWindowChain1d = R"(name: strided-window-chain-1d
dims: {p: 8, c: 2, k: 2, a: 7, u: 2, j: 2, b: 3, v: 3, i: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: conv2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u]"}
  - {name: conv3, einsum: "Z[i,b] += W3[i,j,v] * Y2[j,2*b+v]"}
)";

/// Two "same" windows composed: the first layer's windows read two zeros on each side, so its
/// tiles are restricted (Problem::counts_tile_exactly). And VGG's pattern in 1-D: two padded
/// windows, then a stride-2 pooling window over the second.
inline const char *const kSamePaddedChain1d = R"(name: same-padded-chain-1d
dims: {p: 7, c: 2, k: 2, a: 7, u: 3, j: 2, b: 7, v: 3, i: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: conv2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u-1]"}
  - {name: conv3, einsum: "Z[i,b] += W3[i,j,v] * Y2[j,b+v-1]"}
)";

inline const char *const kPaddedConvsThenPool1d = R"(name: padded-convs-then-pool-1d
dims: {p: 8, c: 2, r: 3, k: 2, a: 8, u: 3, k2: 2, b: 4, v: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c,r] * X[c,p+r-1]"}
  - {name: conv2, einsum: "Y2[k2,a] += W2[k2,k,u] * Y1[k,a+u-1]"}
  - {name: pool, einsum: "Z[k2,b] += Y2[k2,2*b+v]"}
)";

/// Four operators: windows on the first and third links, a bare one between.
inline const char *const kChain4 = R"(name: chain-4
dims: {p: 5, c: 2, k: 2, a: 4, u: 2, j: 2, i: 2, b: 3, v: 2, h: 2}
ops:
  - {name: op1, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: op2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u]"}
  - {name: op3, einsum: "Y3[i,a] += W3[i,j] * Y2[j,a]"}
  - {name: op4, einsum: "Z[h,b] += W4[h,i,v] * Y3[i,b+v]"}
)";

/// A 1-D residual block: two padded 3-wide windows, the second's output starting from the
/// block's input (`Z = X + conv2(conv1(X))`).
inline const char *const kResidualBlock1d = R"(name: residual-block-1d
dims: {p: 6, c: 2, r: 3, k: 2, a: 6, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c,r] * X[c,p+r-1]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y1[k,a+u-1]", residual: X}
)";

/// A 2-D chain: a 2x2 window between two pointwise operators.
inline const char *const kBottleneck2d = R"(name: bottleneck-2d
dims: {p: 3, q: 3, c: 2, k: 2, a: 2, b: 2, u: 2, v: 2, j: 2, i: 2}
ops:
  - {name: reduce, einsum: "Y1[k,p,q] += W1[k,c] * X[c,p,q]"}
  - {name: window, einsum: "Y2[j,a,b] += W2[j,k,u,v] * Y1[k,a+u,b+v]"}
  - {name: expand, einsum: "Z[i,a,b] += W3[i,j] * Y2[j,a,b]"}
)";

/// A parsed workload and its only chain. Problems point into it: it is neither copied nor moved.
class ChainWorkload {
public:
  explicit ChainWorkload(const std::string &yaml)
      : workload_(parse_workload(yaml, "test.yaml")), chain_(only_chain(workload_)) {}
  ChainWorkload(const ChainWorkload &) = delete;
  ChainWorkload &operator=(const ChainWorkload &) = delete;

  Problem single(size_t link) const {
    return make_single_problem(workload_, chain_.links.at(link));
  }
  Problem fused() const {
    return make_fused_problem(workload_, chain_.links.at(0), chain_.links.at(1));
  }
  /// Every operator of the chain fused.
  Problem whole_chain() const { return make_chain_problem(workload_, chain_.links); }

private:
  static Chain only_chain(const Workload &workload) {
    const std::vector<Chain> chains = chain_splits(workload).front();
    EXPECT_EQ(chains.size(), 1u);
    return chains.at(0);
  }

  Workload workload_;
  Chain chain_;
};

} // namespace dse::test_workloads
