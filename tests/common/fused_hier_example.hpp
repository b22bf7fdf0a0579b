// A fused producer -> consumer pair on DRAM -> GB -> 4x4 mesh -> RF, in the files' own words: the
// hardware (also the single-operator loader tests'), the two-GEMM workload and a legal fused
// mapping (docs/HIERARCHY.md §8), shared by the loader, resolution and evaluation tests.
#pragma once

#include <string>

namespace dse::fused_example {

inline const std::string kHardware = R"(name: mesh4
clock_ghz: 1.0
word_bytes: 2
hierarchy:
  - {level: DRAM, read_energy_pj: 100, write_energy_pj: 100}
  - {level: GB, capacity_words: 65536, read_energy_pj: 6, write_energy_pj: 6}
  - {fanout: mesh, x: 4, y: 4}
  - {level: RF, capacity_words: 256, read_energy_pj: 0.5, write_energy_pj: 0.5}
compute: {mac_energy_pj: 1}
)";

// Dimensions m, k, n, l are workload dimensions 0 to 3; the consumer reads H over n.
inline const std::string kWorkload = R"(name: chain
dims: {m: 64, k: 32, n: 64, l: 32}
ops:
  - {name: up, einsum: "H[m,n] += A[m,k] * W[k,n]"}
  - {name: down, einsum: "O[m,l] += H[m,n] * V[n,l]"}
)";

inline const std::string kMapping = R"(segments:
  - ops: [up, down]
    prefix: [m]
    retention: {A: 1, W: 0, H: 1, V: 0, O: 1}
    levels:
      up:
        - {level: DRAM, order: [n, k]}
        - {level: GB, order: [n, k], factors: {n: 4, k: 4}, keep: [A, W, H]}
        - {fanout: mesh, x: {n: 4}, y: {m: 4}}
        - {level: RF, factors: {k: 8}, keep: [H]}
      down:
        - {level: DRAM, order: [n, l]}
        - {level: GB, factors: {n: 4}, keep: [H, V, O]}
        - {fanout: mesh, x: {l: 4}, y: {m: 4}}
        - {level: RF, factors: {n: 4, l: 2}, order: [l, n], keep: [O]}
)";

} // namespace dse::fused_example
