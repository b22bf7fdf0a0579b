// The worked example of docs/HIERARCHY.md §4.5, shared by the tests of the closed forms and of
// the trace simulator: DRAM (2 words/cycle, 100 pJ) -> GB (4096 words, 8 words/cycle, 5 pJ) ->
// 4x4 mesh -> RF per PE (16 words, 0.5 pJ), MAC 1 pJ, and a 64^3 GEMM on the nest
// DRAM[m2 k2 n2] GB[m2 k4 n2] mesh[m4 (y) n4 (x)] RF[m4 n4 k8]; the GB keeps A, B and the
// output, the RF the output only.
#pragma once

#include <cstdint>
#include <vector>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"

namespace dse::worked_example {

inline Hardware hardware() {
  Hardware hw;
  hw.name = "worked-example";
  Hierarchy &h = hw.hierarchy;
  h.levels = {StorageLevel{"DRAM", std::nullopt, 2.0, std::nullopt, std::nullopt, 100, 100, 100,
                           false, role::kAll},
              StorageLevel{"GB", 4096, 8.0, std::nullopt, std::nullopt, 5, 5, 5, false, role::kAll},
              StorageLevel{"RF", 16, std::nullopt, std::nullopt, std::nullopt, 0.5, 0.5, 0.5, false,
                           role::kAll}};
  h.fanouts = {{}, {Fanout{"mesh", 4, 4, true, true}}, {}};
  h.mac_pj = 1;
  return hw;
}

/// The GEMM `C[m,n] += A[m,k] * B[k,n]` with m = k = n = 64 (dims in the order m, k, n).
inline Workload workload() {
  return parse_workload(test_common::gemm_workload("gemm-64", 64, 64, 64), "w.yaml");
}

constexpr int kM = 0, kK = 1, kN = 2;
constexpr std::uint32_t kA = 1, kB = 2, kZ = 4; // operator_tensors: A, B, then the output

/// Factors indexed by the workload's dims m, k, n.
inline std::vector<std::int64_t> factors(std::int64_t m, std::int64_t k, std::int64_t n) {
  return {m, k, n};
}

inline OpMapping mapping() {
  OpMapping m;
  m.levels = {LevelMapping{{kM, kK, kN}, factors(2, 2, 2), kA | kB | kZ},
              LevelMapping{{kM, kK, kN}, factors(2, 4, 2), kA | kB | kZ},
              LevelMapping{{kM, kN, kK}, factors(4, 8, 4), kZ}};
  m.fanouts = {{}, {FanoutMapping{factors(1, 1, 4), factors(4, 1, 1)}}, {}};
  return m;
}

} // namespace dse::worked_example
