// Seeded random cases for tests of the hierarchical model (docs/HIERARCHY.md §10): small
// hierarchies, small einsums and legal mappings of them, each a pure function of its seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"

namespace dse::hier_random {

/// The shape of the hierarchies drawn.
struct HierarchyLimits {
  int max_on_chip_levels = 3;  // 1 to this many levels below DRAM
  int max_fanouts_per_gap = 2; // 0 to this many below each level (above the compute units too)
  std::int64_t max_side = 4;   // fan-out x and y from 1 to this
  std::int64_t capacity_words = std::int64_t{1} << 20; // per on-chip level
};

/// DRAM and on-chip levels with random `holds`, fan-outs with random sides, `multicast` and
/// `reduction`; energies are distinct per level and action so that mix-ups show.
Hardware random_hardware(std::mt19937_64 &rng, const HierarchyLimits &limits = {});

enum class EinsumKind { Gemm, Conv1d, BatchedMatmul };

/// One einsum with random sizes: `C[m,n] += A[m,k] * B[k,n]` (m, k, n from 1 to 8),
/// `O[p] += I[p+r] * W[r]` (p 1 to 8, r 1 to 4) or `C[b,m,n] += A[b,m,k] * B[b,k,n]` (b 1 to 3,
/// m, k, n 1 to 4).
Workload random_workload(std::mt19937_64 &rng, EinsumKind kind);

/// A legal mapping of `op`: each prime factor of each dimension goes to a random level's block
/// or fan-out axis (axes may stay under-filled; no reduction over a fan-out without `reduction`;
/// one dimension in four is padded at level 0),
/// random orders (sometimes listing dimensions of factor 1), random keep sets within `holds`
/// (level 0 keeps everything).
OpMapping random_mapping(std::mt19937_64 &rng, const Hierarchy &hierarchy, const Workload &workload,
                         const Operator &op);

/// One case of everything above; the operator is workload.ops[0].
struct Case {
  Hardware hardware;
  Workload workload;
  OpMapping mapping;
};
Case random_case(std::uint64_t seed, EinsumKind kind, const HierarchyLimits &limits = {});

/// The case in one line per level and fan-out, for failure messages: the einsum and sizes, then
/// e.g. `L1 keep {A,C} order [k,m] factors m2 k4` and `fanout f1.0 4x2 mc rd: x{n2} y{m2}`.
std::string describe(const Case &c);

} // namespace dse::hier_random
