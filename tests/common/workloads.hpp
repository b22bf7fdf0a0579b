// Workloads shared by the tests of several modules, written in the workload YAML format from
// their shapes: a GEMM, a producer -> consumer GEMM pair and attention with a softmax over keys.
#pragma once

#include <cstdint>
#include <string>

namespace dse::test_common {

inline std::string workload_header(const std::string &name, const std::string &dims) {
  return "name: " + name + "\ndims: {" + dims + "}\nops:\n";
}

inline std::string dim(const char *name, std::int64_t size) {
  return std::string(name) + ": " + std::to_string(size);
}

/// C[m,n] += A[m,k] * B[k,n] as op `op`.
inline std::string gemm_workload(const std::string &name, std::int64_t m, std::int64_t k,
                                 std::int64_t n, const std::string &op = "mm") {
  return workload_header(name, dim("m", m) + ", " + dim("k", k) + ", " + dim("n", n)) +
         "  - {name: " + op + ", einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
}

/// C = A * B (op mm1), then E = C * D (op mm2): C is the intermediate.
inline std::string gemm_pair_workload(const std::string &name, std::int64_t m, std::int64_t k,
                                      std::int64_t n, std::int64_t l) {
  return workload_header(name, dim("m", m) + ", " + dim("k", k) + ", " + dim("n", n) + ", " +
                                   dim("l", l)) +
         "  - {name: mm1, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"
         "  - {name: mm2, einsum: \"E[m,l] += C[m,n] * D[n,l]\"}\n";
}

/// Per head h: S = Q K^T (op qk), P = softmax of S over the keys n, O = P V (op pv).
inline std::string attention_workload(const std::string &name, std::int64_t h, std::int64_t m,
                                      std::int64_t n, std::int64_t k, std::int64_t l) {
  return workload_header(name, dim("h", h) + ", " + dim("m", m) + ", " + dim("n", n) + ", " +
                                   dim("k", k) + ", " + dim("l", l)) +
         "  - {name: qk, einsum: \"S[h,m,n] += Q[h,m,k] * K[h,n,k]\"}\n"
         "  - {name: softmax, kind: softmax, over: n, tensor: S, out: P}\n"
         "  - {name: pv, einsum: \"O[h,m,l] += P[h,m,n] * V[h,n,l]\"}\n";
}

/// Attention fed by its Q, K and V projections of one input X (the queries' rows m, the keys'
/// rows n, both `rows` long; model width `d`, head width `k`) and followed by its output
/// projection: the projections are siblings (sibling_stack.hpp).
inline std::string projected_attention_workload(const std::string &name, std::int64_t rows,
                                                std::int64_t d, std::int64_t k) {
  return workload_header(name, dim("m", rows) + ", " + dim("n", rows) + ", " + dim("d", d) + ", " +
                                   dim("k", k) + ", " + dim("l", k) + ", " + dim("e", d)) +
         "  - {name: q, einsum: \"Q[m,k] += X[m,d] * Wq[d,k]\"}\n"
         "  - {name: k, einsum: \"K[n,k] += X[n,d] * Wk[d,k]\"}\n"
         "  - {name: v, einsum: \"V[n,l] += X[n,d] * Wv[d,l]\"}\n"
         "  - {name: qk, einsum: \"S[m,n] += Q[m,k] * K[n,k]\"}\n"
         "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
         "  - {name: pv, einsum: \"O[m,l] += P[m,n] * V[n,l]\"}\n"
         "  - {name: o, einsum: \"Z[m,e] += O[m,l] * Wo[l,e]\"}\n";
}

/// A 1-D stack of three: a 3-wide window, another, a pointwise layer (a chain fused depth first:
/// docs/DEPTH_FIRST.md §2).
inline std::string conv_stack_1d_workload(const std::string &name) {
  return "name: " + name +
         "\ndims: {p: 10, c: 4, r: 3, k: 4, a: 8, u: 3, j: 4, i: 4}\nops:\n"
         "  - {name: conv1, einsum: \"Y1[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
         "  - {name: conv2, einsum: \"Y2[j,a] += W2[j,k,u] * Y1[k,a+u]\"}\n"
         "  - {name: conv3, einsum: \"Z[i,a] += W3[i,j] * Y2[j,a]\"}\n";
}

/// A scaling whose result X two sibling projections read alike (docs/DEPTH_FIRST.md §3):
/// stacked (with_sibling_stacks), op 3 is `k+v`, which may continue the scaling's chain.
inline std::string fed_siblings_workload(const std::string &name) {
  return "name: " + name +
         "\ndims: {m: 4, d: 2, k: 2}\nops:\n"
         "  - {name: x, einsum: \"X[m,d] += A[m,d] * G[d]\"}\n"
         "  - {name: k, einsum: \"K[m,k] += X[m,d] * Wk[d,k]\"}\n"
         "  - {name: v, einsum: \"V[m,k] += X[m,d] * Wv[d,k]\"}\n";
}

} // namespace dse::test_common
