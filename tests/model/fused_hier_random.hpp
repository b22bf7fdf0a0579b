// Seeded random fused pairs for tests of the fused hierarchical model (docs/HIERARCHY.md §8,
// §10): a producer -> consumer chain, a hierarchy with a level 1 that holds everything, and a
// legal FusedHierMapping of them, each a pure function of its seed.
#pragma once

#include <cstdint>
#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/problem.hpp"
#include "model/hier_random.hpp"

namespace dse::fused_hier_random {

/// `H[m,n] += A[m,k] * B[k,n]` then `Z[m,l] += H[m,n] * C[n,l]` (m, k, n, l from 1 to 6), or
/// the same per batch b: `H[b,m,n]`, `Z[b,m,l]` (b from 1 to 3, the others from 1 to 4). The
/// prefix may hold n (a reduction of the consumer: Z accumulates across prefix iterations) and
/// l (consumer-only: the producer is recomputed per iteration).
enum class ChainKind { Gemm, BatchedGemm };

/// One fused case. Build its problem with fused_problem, which points into `workload`: keep the
/// case alive and in place while the problem is used.
struct Case {
  Hardware hardware;
  Workload workload;
  FusedHierMapping mapping;
};

/// The fused problem of the case's one chain.
Problem fused_problem(const Case &c);

/// A random case: DRAM and 1 to limits.max_on_chip_levels levels with random fan-outs (none
/// between levels 0 and 1) and holds (level 1 holds every role); a random legal outer loop tree
/// (prefix, sub-nests, retention depths); per dimension a random level-1 extent (padded at
/// level 0 when it does not divide the size), split at random over each operator's blocks 1..L
/// and fan-outs (a shared dimension may be split differently by the two operators); random
/// orders and random keep sets below level 1.
Case random_case(std::uint64_t seed, ChainKind kind,
                 const hier_random::HierarchyLimits &limits = {});

/// The case for failure messages: the einsums and sizes, the outer loop tree and retention
/// depths, then each operator's levels and fan-outs as hier_random::describe writes them.
std::string describe(const Case &c);

} // namespace dse::fused_hier_random
