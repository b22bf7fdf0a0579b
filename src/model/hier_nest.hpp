// The loop nest of one operator's mapping on a hierarchy of any depth, seen per dimension, and
// the closed forms of docs/HIERARCHY.md §4 over it: the counts of one level, the MACs and the
// utilised instances. Shared by the single-operator evaluator and
// the fused pair's (§8), whose prefix loops are scope loops of each operator's nest.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/hier_cost.hpp"

namespace dse::hier_nest {

/// One temporal loop of the flattened nest.
struct Loop {
  int level = 0;
  int dim = 0;
  double trips = 1;
  /// A loop every tile inside level 1 is fetched again under: a fused pair's prefix loop, the
  /// other operator running on the inner levels between two of its iterations (docs/HIERARCHY.md
  /// §8). It counts as indexing every tensor below level 1.
  bool scope = false;
};

/// The mapping's nest seen per dimension: extents of each level's tile, spatial products, and
/// the temporal loops outermost first. Levels run 0..L; index L + 1 stands for the compute units.
struct Nest {
  std::vector<int> dims;                    // the operator's dimensions
  std::vector<std::vector<double>> extent;  // [level][workload dim], X[l][d]; X[L+1] = 1
  std::vector<std::vector<double>> spatial; // [fan-out gap][workload dim]: product of its fan-outs
  std::vector<Loop> loops;                  // temporal loops with trips > 1, in nest order
  int compute = 0;                          // L + 1
  /// How many times the operator's whole output is produced from nothing: the recompute trips of
  /// a fused producer, else 1. Multiplies the MACs and the first arrivals of output elements.
  double productions = 1;
  /// Per operator tensor (operator_tensors order), a bit per workload dimension it uses.
  std::array<std::uint64_t, 3> uses{};
};

/// Fills `n` (its storage reused) with the nest of `m`: its level-0 loops in levels[0].order,
/// every loop as indexing only the dimensions it iterates (no scope loops).
void flatten(const Workload &workload, const Operator &op, const OpMapping &m, Nest &n);

/// Whether `loop` indexes `access`: it runs over a dimension the tensor uses, or it is a scope
/// loop.
inline bool indexes(const Loop &loop, const TensorAccess &access) {
  return loop.scope || access.uses(loop.dim);
}

/// Utilised instances of `level` (the compute units for n.compute).
double instances(const Nest &n, int level);

/// One level's counts, energies, buffer words and transfer cycles for one operator, into `cost`
/// (its storage reused; `cycles` is left to settle_latency_and_energy).
void level_cost(const Hardware &hw, const Nest &n, const Operator &op, const OpMapping &m,
                int level, double macs, double elision, HierLevelCost &cost);

/// The operator's MACs, its productions included.
double operator_macs(const Nest &n);

} // namespace dse::hier_nest
