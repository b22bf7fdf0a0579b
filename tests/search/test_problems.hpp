// Tiny workloads, hardware and search problems shared by the search tests (sizes small enough for
// exhaustive enumeration of tilings; the structure alone fixes the size of the candidate space).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/ir/hardware.hpp"
#include "dse/model/problem.hpp"
#include "dse/model/tiling.hpp"

namespace dse::test {

/// A problem together with the workload it points into (Problem keeps a raw pointer).
struct TestProblem {
  std::string name;
  std::shared_ptr<const Workload> workload;
  Problem problem;
};

struct HardwareSpec {
  std::int64_t gb_words = 32;
  bool double_buffering = false;
  std::int64_t rows = 4;
  std::int64_t cols = 4;
  double dram_gbps = 64.0;
  double gb_words_per_cycle = 8.0;
  std::string dma_units; // YAML of a `dma_units:` list, empty for none
};

/// A small accelerator: 4x4 PEs and a global buffer of a few dozen words by default.
inline Hardware tiny_hardware(const HardwareSpec &spec = {}) {
  const std::string yaml =
      "name: tiny\nclock_ghz: 1.0\nword_bytes: 2\n"
      "pe_array: {rows: " +
      std::to_string(spec.rows) + ", cols: " + std::to_string(spec.cols) +
      ", mac_energy_pj: 1.0}\nlevels:\n"
      "  - {name: DRAM, bandwidth_gbps: " +
      std::to_string(spec.dram_gbps) +
      ", read_energy_pj: 100.0, write_energy_pj: 120.0}\n"
      "  - {name: GlobalBuffer, capacity_words: " +
      std::to_string(spec.gb_words) +
      ", bandwidth_words_per_cycle: " + std::to_string(spec.gb_words_per_cycle) +
      ", read_energy_pj: 2.0, write_energy_pj: 2.5, double_buffering: " +
      (spec.double_buffering ? "true" : "false") +
      "}\n"
      "  - {name: RegFile, capacity_words: 16, read_energy_pj: 0.1, write_energy_pj: 0.1}\n" +
      spec.dma_units;
  return parse_hardware(yaml, "tiny-hw.yaml");
}

inline std::shared_ptr<const Workload> make_workload(const std::string &yaml) {
  return std::make_shared<const Workload>(parse_workload(yaml, "tiny-workload.yaml"));
}

inline std::string gemm_yaml(std::int64_t m, std::int64_t k, std::int64_t n) {
  return "name: gemm\ndims: {m: " + std::to_string(m) + ", k: " + std::to_string(k) +
         ", n: " + std::to_string(n) +
         "}\nops:\n"
         "  - {name: gemm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
}

/// Two chained GEMMs: H = A * W1, O = H * W2 (l is consumer-only).
inline std::string gemm_pair_yaml(std::int64_t m, std::int64_t k, std::int64_t n, std::int64_t l) {
  return "name: gemm-pair\ndims: {m: " + std::to_string(m) + ", k: " + std::to_string(k) +
         ", n: " + std::to_string(n) + ", l: " + std::to_string(l) +
         "}\nops:\n"
         "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
         "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n";
}

/// A 3x3 convolution (halo indices p+r, q+s) feeding a 1x1 convolution.
inline std::string conv_pair_yaml() {
  return "name: conv-pair\ndims: {p: 4, q: 4, c: 2, k: 4, r: 3, s: 3, j: 2}\nops:\n"
         "  - {name: conv3x3, einsum: \"Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]\"}\n"
         "  - {name: conv1x1, einsum: \"Z[j,p,q] += W2[j,k] * Y[k,p,q]\"}\n";
}

/// A 1-D version of the conv pair (halo index p+r): the same rules on a smaller loop structure.
inline std::string conv1d_pair_yaml() {
  return "name: conv1d-pair\ndims: {p: 4, c: 2, k: 4, r: 3, j: 2}\nops:\n"
         "  - {name: conv3, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
         "  - {name: conv1, einsum: \"Z[j,p] += W2[j,k] * Y[k,p]\"}\n";
}

/// Two 3-wide 1-D convolutions, the second reading the intermediate through its window
/// (`Y[k, a+u]`): fused, the producer computes each tile's halo again.
inline std::string window_pair_yaml() {
  return "name: window-pair\ndims: {p: 6, c: 2, k: 3, r: 3, a: 4, u: 3, j: 2}\nops:\n"
         "  - {name: conv3a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
         "  - {name: conv3b, einsum: \"Z[j,a] += W2[j,k,u] * Y[k,a+u]\"}\n";
}

/// Three operators fused: GEMMs around a scaling, `l` rerunning both producers.
inline std::string scaled_gemm_chain_yaml() {
  return "name: gemm-chain\ndims: {m: 4, k: 2, n: 3, l: 4}\nops:\n"
         "  - {name: mm1, einsum: \"Y1[m,n] += X[m,k] * W1[k,n]\"}\n"
         "  - {name: scale, einsum: \"Y2[m,n] += Y1[m,n] * S[n]\"}\n"
         "  - {name: mm2, einsum: \"Z[m,l] += Y2[m,n] * W2[n,l]\"}\n";
}

/// Three 1-D convolutions whose windows compose (`p := b+v+u`).
inline std::string window_chain_yaml() {
  return "name: window-chain\ndims: {p: 7, c: 2, r: 2, k: 2, a: 6, u: 2, j: 2, b: 4, v: 3, "
         "i: 2}\nops:\n"
         "  - {name: conv1, einsum: \"Y1[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
         "  - {name: conv2, einsum: \"Y2[j,a] += W2[j,k,u] * Y1[k,a+u]\"}\n"
         "  - {name: conv3, einsum: \"Z[i,b] += W3[i,j,v] * Y2[j,b+v]\"}\n";
}

/// A residual block: two "same" 1-D convolutions, the second's output starting from the block's
/// input.
inline std::string residual_block_yaml() {
  return "name: residual-block\ndims: {p: 8, c: 2, r: 3, k: 3, a: 8, u: 3, j: 2}\nops:\n"
         "  - {name: conv1, einsum: \"Y1[k,p] += W1[k,c,r] * X[c,p+r-1]\"}\n"
         "  - {name: conv2, einsum: \"Z[j,a] += W2[j,k,u] * Y1[k,a+u-1]\", residual: X}\n";
}

/// Two 3x3 convolutions, the second with stride 2 reading the intermediate through its window
/// (`Y[k, 2*a+u, b+v]`).
inline std::string window_conv_pair_yaml() {
  return "name: window-conv-pair\ndims: {p: 5, q: 4, c: 2, k: 2, r: 3, s: 3, a: 2, b: 2, u: 3, "
         "v: 3, j: 2}\nops:\n"
         "  - {name: conv3a, einsum: \"Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]\"}\n"
         "  - {name: conv3b, einsum: \"Z[j,a,b] += W2[j,k,u,v] * Y[k,2*a+u,b+v]\"}\n";
}

/// Two "same" 1-D convolutions: the consumer reads a zero on each side of the intermediate
/// (`Y[k, a+u-1]`). With `pointwise`, the producer has no window of its own (its halo may be
/// cached); else it has a 3-wide one (recomputed only).
inline std::string padded_window_pair_yaml(bool pointwise) {
  return std::string("name: padded-window-pair\ndims: {p: 6, c: 2, k: 3, ") +
         (pointwise ? "" : "r: 3, ") + "a: 6, u: 3, j: 2}\nops:\n" +
         (pointwise ? "  - {name: conv1a, einsum: \"Y[k,p] += W1[k,c] * X[c,p]\"}\n"
                    : "  - {name: conv3a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n") +
         "  - {name: conv3b, einsum: \"Z[j,a] += W2[j,k,u] * Y[k,a+u-1]\"}\n";
}

/// A single 3x3 convolution with stride 2 (index 2*p+r).
inline std::string strided_conv_yaml() {
  return "name: strided-conv\ndims: {p: 3, q: 4, c: 2, k: 4, r: 3, s: 3}\nops:\n"
         "  - {name: conv, einsum: \"Y[k,p,q] += W[k,c,r,s] * X[c,2*p+r,2*q+s]\"}\n";
}

/// Attention with a softmax between the two einsums; `heads` 0 drops the head dimension.
inline std::string attention_yaml(std::int64_t heads, std::int64_t mn, std::int64_t kl) {
  const std::string s = std::to_string(mn);
  const std::string d = std::to_string(kl);
  const std::string h = heads > 0 ? "h," : "";
  return "name: attention\ndims: {" + (heads > 0 ? "h: " + std::to_string(heads) + ", " : "") +
         "m: " + s + ", n: " + s + ", k: " + d + ", l: " + d +
         "}\nops:\n"
         "  - {name: qk, einsum: \"S[" +
         h + "m,n] += Q[" + h + "m,k] * K[" + h +
         "n,k]\"}\n"
         "  - {name: softmax, kind: softmax, over: n, tensor: S, out: P}\n"
         "  - {name: pv, einsum: \"O[" +
         h + "m,l] += P[" + h + "m,n] * V[" + h + "n,l]\"}\n";
}

/// The first einsum of the workload's first chain, searched alone.
inline TestProblem single_problem(const std::string &name, const std::string &yaml) {
  auto w = make_workload(yaml);
  const std::vector<Chain> chains = chain_splits(*w).front();
  return {name, w, make_single_problem(*w, chains.at(0).links.at(0))};
}

/// The first two einsums of the workload's first chain, searched fused.
inline TestProblem fused_problem(const std::string &name, const std::string &yaml) {
  auto w = make_workload(yaml);
  const std::vector<Chain> chains = chain_splits(*w).front();
  const Chain &c = chains.at(0);
  return {name, w, make_fused_problem(*w, c.links.at(0), c.links.at(1))};
}

/// Every einsum of the workload's first chain, searched fused.
inline TestProblem chain_problem(const std::string &name, const std::string &yaml) {
  auto w = make_workload(yaml);
  const std::vector<Chain> chains = chain_splits(*w).front();
  return {name, w, make_chain_problem(*w, chains.at(0).links)};
}

/// Full sizes of every workload dimension (the layout atom_table expects).
inline std::vector<std::int64_t> dim_sizes(const Workload &w) {
  std::vector<std::int64_t> out;
  for (const Dimension &d : w.dims)
    out.push_back(d.size);
  return out;
}

} // namespace dse::test
