// Counts, cycles and energy of one operator's mapping on a hierarchy of any depth, from the
// closed forms of docs/HIERARCHY.md §4: every count is a tile size times a product of loop trips.
#include "dse/model/hier_cost.hpp"

#include <algorithm>

#include "hier_nest.hpp"

namespace dse {

namespace {

/// Words per cycle the DMA units carry: loads only, stores only, both directions.
struct DmaRates {
  double load = 0, store = 0, both = 0;
};

DmaRates dma_rates(const Hardware &hw) {
  DmaRates r;
  for (const DmaUnit &unit : hw.dma_units) {
    const double wpc = hw.dma_words_per_cycle(unit);
    if (unit.loads() && unit.stores())
      r.both += wpc;
    else if (unit.loads())
      r.load += wpc;
    else
      r.store += wpc;
  }
  return r;
}

} // namespace

double port_cycles(const StorageLevel &level, double reads, double writes) {
  double cycles = 0;
  if (level.shared_words_per_cycle)
    cycles = std::max(cycles, (reads + writes) / *level.shared_words_per_cycle);
  if (level.read_words_per_cycle)
    cycles = std::max(cycles, reads / *level.read_words_per_cycle);
  if (level.write_words_per_cycle)
    cycles = std::max(cycles, writes / *level.write_words_per_cycle);
  return cycles;
}

double backing_store_cycles(const Hardware &hw, double reads, double writes) {
  double cycles = port_cycles(hw.hierarchy.levels[0], reads, writes);
  if (hw.dma_units.empty())
    return cycles;
  const DmaRates r = dma_rates(hw);
  return std::max({cycles, reads / (r.load + r.both), writes / (r.store + r.both),
                   (reads + writes) / (r.load + r.store + r.both)});
}

bool elides_first_read(const Operator &op, bool first_read_elision) {
  return first_read_elision && op.einsum.residual.empty();
}

HierCost evaluate_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                               const OpMapping &mapping, bool first_read_elision,
                               LatencyModel latency_model) {
  hier_nest::Nest n;
  hier_nest::flatten(workload, op, mapping, n);
  HierCost cost;
  cost.macs = hier_nest::operator_macs(n);
  cost.utilised_units = static_cast<std::int64_t>(hier_nest::instances(n, n.compute));
  cost.utilisation =
      static_cast<double>(cost.utilised_units) / static_cast<double>(hw.hierarchy.compute_units());
  cost.compute_cycles = cost.macs / static_cast<double>(cost.utilised_units);
  cost.compute_energy_pj = cost.macs * hw.hierarchy.mac_pj;
  const double elision = elides_first_read(op, first_read_elision) ? 1 : 0;
  cost.levels.resize(static_cast<size_t>(n.compute));
  for (int level = 0; level < n.compute; ++level)
    hier_nest::level_cost(hw, n, op, mapping, level, cost.macs, elision,
                          cost.levels[static_cast<size_t>(level)]);
  settle_latency_and_energy(cost, latency_model);
  return cost;
}

void reset_level_cost(HierLevelCost &level, size_t tensors) {
  level.instances = 1;
  level.tensors.assign(tensors, std::nullopt);
  level.buffer_words = level.transfer_cycles = level.cycles = level.energy_pj = 0;
}

void settle_latency_and_energy(HierCost &cost, LatencyModel latency_model) {
  cost.latency_cycles = cost.compute_cycles;
  cost.bound_level = -1;
  cost.energy_pj = cost.compute_energy_pj;
  double transfer_sum = 0;
  for (size_t level = 0; level < cost.levels.size(); ++level) {
    HierLevelCost &l = cost.levels[level];
    l.cycles = std::max(cost.compute_cycles, l.transfer_cycles);
    if (l.transfer_cycles > cost.latency_cycles) {
      cost.latency_cycles = l.transfer_cycles;
      cost.bound_level = static_cast<int>(level);
    }
    transfer_sum += l.transfer_cycles;
    cost.energy_pj += l.energy_pj;
  }
  if (latency_model == LatencyModel::Sequential)
    cost.latency_cycles = cost.compute_cycles + transfer_sum;
}

} // namespace dse
