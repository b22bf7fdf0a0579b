// Seeded random cases for tests of the hierarchical model (docs/HIERARCHY.md §10): small
// hierarchies, small einsums and legal mappings of them, each a pure function of its seed.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

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

/// The pieces of random_mapping, for generators of other mappings.

/// A uniform integer in [lo, hi], and a fair coin.
std::int64_t uniform(std::mt19937_64 &rng, std::int64_t lo, std::int64_t hi);
bool coin(std::mt19937_64 &rng);

/// Every factor 1, no loop order, nothing kept: the blocks and fan-out axes of `hierarchy` over
/// `dims` workload dimensions.
OpMapping unit_mapping(const Hierarchy &hierarchy, size_t dims);

/// Product of every factor of `dim` inside level 0's block, temporal and spatial.
std::int64_t inner_product(const OpMapping &mapping, int dim);

/// Multiplies each prime factor of `factor` into dimension `dim` of the block of a random level
/// from `first_level` on, or of a random fan-out axis below that level that still has room for
/// it (and that may reduce when `dim` is summed over).
void spread_factor(std::mt19937_64 &rng, const Hierarchy &hierarchy, OpMapping &mapping, int dim,
                   std::int64_t factor, bool summed, size_t first_level);

/// The dimensions of `level` with factor above 1 in random order, sometimes with the operator's
/// other dimensions mixed in (an order may list them; they are no loops).
std::vector<int> random_order(std::mt19937_64 &rng, const LevelMapping &level, const Operator &op);

/// A random subset of the first `tensors` tensors of `op` (operator_tensors) that `level` holds.
std::uint32_t random_keep(std::mt19937_64 &rng, const StorageLevel &level, const Operator &op,
                          size_t tensors);

/// `C[m,n] += A[m,k] * B[k,n]`, as describe writes an einsum.
std::string einsum_text(const Operator &op, const Workload &workload);

/// One line per level and fan-out of `mapping`, each after a newline and an indent, as describe
/// writes them.
std::string mapping_text(const Hierarchy &hierarchy, const OpMapping &mapping, const Operator &op,
                         const Workload &workload);

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
