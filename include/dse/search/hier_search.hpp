// The exact front of one einsum on a hierarchy of any depth: every spatial row, keep vector,
// tiling (divisor factors at every level, built from the innermost level out and filtered by
// capacity) and loop order, evaluated by the closed forms of docs/HIERARCHY.md §4. Pruning keeps
// the front exact: order dominance (§6.1), maximal tilings (§6.4) and bounds on every subtree of
// the tiling tree (§7.3); with pruning off the search is the brute force that the pruned one is
// checked against.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/search/pareto_front.hpp"

namespace dse {

struct HierSearchOptions {
  std::vector<Objective> objectives{Objective::Latency, Objective::Energy};
  LatencyModel latency_model = LatencyModel::Roofline;
  bool first_read_elision = true;
  /// Order dominance, maximal tilings and bounds; off, every mapping of the space is evaluated.
  bool prune = true;
  /// Worker threads; 0: all available. The front and the statistics do not depend on it.
  int threads = 0;
  /// explore_hier: also search each fusible producer -> consumer pair fused.
  bool fusion = false;
  /// With DRAM words among the objectives, bounds also take the floor under the words of the
  /// tensors level 1 keeps (dse/search/hier_dram_floor.hpp); off, each tensor's least deliveries
  /// alone (the baseline of bench/run_hier_search_benchmark.sh). The front is the same.
  bool dram_floor = true;
  /// Only the keep vectors whose first on-chip level keeps every tensor of the operator: the
  /// mappings a kernel runs (dse/codegen/hier_kernel.hpp). Fused pairs keep them all there anyway.
  bool level1_keeps_all = false;
};

struct HierFrontPoint {
  Objectives objectives;
  OpMapping mapping;
  HierCost cost;
};

struct HierSearchStatistics {
  std::uint64_t spatial_rows = 0;
  std::uint64_t keep_vectors = 0;
  std::uint64_t tilings = 0;      // complete tilings that fit every capacity, in subtrees searched
                                  // (not cut whole by an inward move or a bound)
  std::uint64_t tilings_kept = 0; // of those, the ones searched (maximal and not rejected by the
                                  // bound when pruning)
  std::uint64_t mappings = 0;     // (tiling, keep vector, orders) evaluated
};

struct HierSearchResult {
  std::vector<HierFrontPoint> front; // sorted by the objectives
  HierSearchStatistics statistics;
};

/// The exact front of einsum `op` of `workload` on `hw.hierarchy`.
HierSearchResult search_hier_front(const Hardware &hw, const Workload &workload, const Operator &op,
                                   const HierSearchOptions &options);

/// The objectives of one evaluated mapping (`dram_words`: level 0's reads and updates;
/// `buffer_words`: level 1's words per instance).
Objectives hier_objectives(const Hardware &hw, const HierCost &cost);

} // namespace dse
