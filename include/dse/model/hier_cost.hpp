// The counts, cycles and energy of one operator's mapping on a hierarchy of any depth, evaluated
// directly from the mapping by the conventions of docs/HIERARCHY.md §4 (reads, fills and updates
// per level and tensor; bandwidth time per level; energy per action).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/cost.hpp"

namespace dse {

/// What one level does with one tensor it keeps, over all its instances.
struct HierTensorCounts {
  double tile_words = 0; // per instance
  double reads = 0;      // towards the compute (a multicast word once)
  double fills = 0;      // from the parent
  double updates = 0;    // partial or final sums from below, after spatial reduction
  double energy_pj = 0;
};

struct HierLevelCost {
  std::int64_t instances = 1; // utilised instances
  /// Per operator tensor (operator_tensors order); empty where the level does not keep it.
  std::vector<std::optional<HierTensorCounts>> tensors;
  double buffer_words = 0; // words per instance the kept tiles need (double-buffered: x2 refilled)
  double transfer_cycles = 0; // time of all traffic through the level's port
  double cycles = 0;          // max(compute cycles, transfer cycles)
  double energy_pj = 0;
};

struct HierCost {
  std::vector<HierLevelCost> levels;
  double macs = 0;
  double compute_cycles = 0;
  std::int64_t utilised_units = 1;
  double utilisation = 0; // utilised units / compute units
  double compute_energy_pj = 0;
  double latency_cycles = 0;
  int bound_level = -1; // the level whose transfer time sets the latency, -1 for the compute
  double energy_pj = 0;
};

/// `level` emptied for `tensors` tensors (every entry empty, every figure 0, one instance) with
/// its storage kept: the searches reuse one record for millions of evaluations.
void reset_level_cost(HierLevelCost &level, size_t tensors);

/// Cycles of `reads` and `writes` (fills and updates) words per instance through `level`'s port,
/// against every limit it gives (0 when it gives none).
double port_cycles(const StorageLevel &level, double reads, double writes);

/// Level 0's time for its reads and updates: its port and the hardware's DMA units.
double backing_store_cycles(const Hardware &hw, double reads, double updates);

/// Whether first-read elision removes the first arrival of each of `op`'s output elements: when
/// the hardware elides (`first_read_elision`) and the einsum does not start from a residual,
/// whose words are that first arrival (docs/HIERARCHY.md §4.2).
bool elides_first_read(const Operator &op, bool first_read_elision);

/// Evaluates `mapping` of einsum `op` on `hw.hierarchy`. The mapping must be legal
/// (dse/model/hier_mapping_check.hpp); capacities are not checked here (compare buffer_words
/// with the levels' capacities).
HierCost evaluate_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                               const OpMapping &mapping, bool first_read_elision,
                               LatencyModel latency_model);

/// Fills each level's cycles and the cost's latency, bound level and energy from the levels'
/// transfer cycles and energies and the compute cycles and energy: the roofline takes the
/// largest time, the sequential model adds them.
void settle_latency_and_energy(HierCost &cost, LatencyModel latency_model);

} // namespace dse
