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
