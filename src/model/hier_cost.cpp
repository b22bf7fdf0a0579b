// Counts, cycles and energy of one operator's mapping on a hierarchy of any depth, from the
// closed forms of docs/HIERARCHY.md §4: every count is a tile size times a product of loop trips.
#include "dse/model/hier_cost.hpp"

#include <algorithm>

namespace dse {

namespace {

/// One temporal loop of the flattened nest.
struct Loop {
  int level = 0;
  int dim = 0;
  double trips = 1;
};

/// The mapping's nest seen per dimension: extents of each level's tile, spatial products, and
/// the temporal loops outermost first. Levels run 0..L; index L + 1 stands for the compute units.
struct Nest {
  std::vector<int> dims;                    // the operator's dimensions
  std::vector<std::vector<double>> extent;  // [level][workload dim], X[l][d]; X[L+1] = 1
  std::vector<std::vector<double>> spatial; // [fan-out gap][workload dim]: product of its fan-outs
  std::vector<Loop> loops;                  // temporal loops with trips > 1, in nest order
  int compute = 0;                          // L + 1
};

Nest flatten(const Workload &workload, const Operator &op, const OpMapping &m) {
  Nest n;
  n.dims = op.dims();
  n.compute = static_cast<int>(m.levels.size());
  const size_t dims = workload.dims.size();
  n.spatial.assign(m.fanouts.size(), std::vector<double>(dims, 1.0));
  for (size_t gap = 0; gap < m.fanouts.size(); ++gap)
    for (const FanoutMapping &f : m.fanouts[gap])
      for (int d : n.dims)
        n.spatial[gap][static_cast<size_t>(d)] *= static_cast<double>(f.factor(d));
  n.extent.assign(m.levels.size() + 1, std::vector<double>(dims, 1.0));
  for (int l = n.compute - 1; l >= 0; --l)
    for (int d : n.dims) {
      const auto at = static_cast<size_t>(d);
      n.extent[static_cast<size_t>(l)][at] =
          n.extent[static_cast<size_t>(l) + 1][at] * n.spatial[static_cast<size_t>(l)][at] *
          static_cast<double>(m.levels[static_cast<size_t>(l)].factor[at]);
    }
  for (size_t l = 0; l < m.levels.size(); ++l)
    for (int d : m.levels[l].order) {
      const auto trips = static_cast<double>(m.levels[l].factor[static_cast<size_t>(d)]);
      if (trips > 1)
        n.loops.push_back(Loop{static_cast<int>(l), d, trips});
    }
  return n;
}

/// Words of `access`'s tile at `level`: an affine index spans 1 + sum c_i (X_i - 1).
double tile_words(const Nest &n, const TensorAccess &access, int level) {
  double words = 1;
  for (const IndexExpr &index : access.indices) {
    double span = 1;
    for (const IndexTerm &term : index.terms)
      span += static_cast<double>(term.coef) *
              (n.extent[static_cast<size_t>(level)][static_cast<size_t>(term.dim)] - 1);
    words *= span;
  }
  return words;
}

/// Product of the spatial factors of the fan-out gaps [from, to), over the dimensions that
/// `access` uses (`relevant`) or does not use.
double spatial_product(const Nest &n, const TensorAccess &access, int from, int to, bool relevant) {
  double product = 1;
  for (int gap = from; gap < to; ++gap)
    for (int d : n.dims)
      if (access.uses(d) == relevant)
        product *= n.spatial[static_cast<size_t>(gap)][static_cast<size_t>(d)];
  return product;
}

/// Utilised instances of `level` (the compute units for n.compute).
double instances(const Nest &n, int level) {
  double product = 1;
  for (int gap = 0; gap < level; ++gap)
    for (int d : n.dims)
      product *= n.spatial[static_cast<size_t>(gap)][static_cast<size_t>(d)];
  return product;
}

/// E(l,t): trips of the loops above `level` from the outermost down to the innermost one that
/// indexes `access` (1 if none does): how many times each instance receives a new tile.
double tile_deliveries(const Nest &n, const TensorAccess &access, int level) {
  double product = 1, up_to_last_relevant = 1;
  for (const Loop &loop : n.loops) {
    if (loop.level >= level)
      break;
    product *= loop.trips;
    if (access.uses(loop.dim))
      up_to_last_relevant = product;
  }
  return up_to_last_relevant;
}

/// Words written into all instances of keeper `level` from its parent before elision
/// (Delta(l,t)); for the compute units, one word per MAC.
double deliveries(const Nest &n, const TensorAccess &access, int level, double macs) {
  if (level == n.compute)
    return macs;
  return tile_words(n, access, level) * tile_deliveries(n, access, level) * instances(n, level);
}

bool keeps(const OpMapping &m, int level, size_t tensor) {
  return level == 0 || (m.levels[static_cast<size_t>(level)].keep >> tensor & 1U) != 0;
}

/// The next keeper of `tensor` inside `level`, or the compute units.
int next_keeper(const Nest &n, const OpMapping &m, int level, size_t tensor) {
  for (int inner = level + 1; inner < n.compute; ++inner)
    if (keeps(m, inner, tensor))
      return inner;
  return n.compute;
}

/// mu(l,t): the multicast (inputs) or spatial-reduction (outputs) factor between `level` and the
/// next keeper `child`: the spatial factors of the dimensions the tensor does not use.
double fanout_sharing(const Nest &n, const Hierarchy &h, const OpMapping &m,
                      const TensorAccess &access, bool output, int level, int child) {
  double product = 1;
  for (int gap = level; gap < child; ++gap)
    for (size_t f = 0; f < m.fanouts[static_cast<size_t>(gap)].size(); ++f) {
      if (!output && !h.fanouts[static_cast<size_t>(gap)][f].multicast)
        continue;
      for (int d : n.dims)
        if (!access.uses(d))
          product *= static_cast<double>(m.fanouts[static_cast<size_t>(gap)][f].factor(d));
    }
  return product;
}

HierTensorCounts tensor_counts(const Nest &n, const Hierarchy &h, const OpMapping &m,
                               const TensorAccess &access, size_t tensor, bool output, int level,
                               double macs, double elision) {
  const int child = next_keeper(n, m, level, tensor);
  const double towards_compute =
      deliveries(n, access, child, macs) / fanout_sharing(n, h, m, access, output, level, child);
  const double delivered = level == 0 ? 0 : deliveries(n, access, level, macs);
  HierTensorCounts c;
  c.tile_words = tile_words(n, access, level);
  if (!output) {
    c.reads = towards_compute;
    c.fills = delivered;
    return c;
  }
  const double first_arrivals =
      elision * tile_words(n, access, 0) * spatial_product(n, access, 0, level, false);
  c.updates = towards_compute;
  c.reads = c.updates - first_arrivals;
  c.fills = level == 0 ? 0 : delivered - first_arrivals;
  return c;
}

HierLevelCost level_cost(const Hardware &hw, const Nest &n, const Operator &op, const OpMapping &m,
                         int level, double macs, double elision) {
  const StorageLevel &storage = hw.hierarchy.levels[static_cast<size_t>(level)];
  const std::vector<const TensorAccess *> tensors = operator_tensors(op);
  HierLevelCost cost;
  cost.instances = static_cast<std::int64_t>(instances(n, level));
  cost.tensors.resize(tensors.size());
  double reads = 0, writes = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (!keeps(m, level, t))
      continue;
    const bool output = t + 1 == tensors.size();
    HierTensorCounts c =
        tensor_counts(n, hw.hierarchy, m, *tensors[t], t, output, level, macs, elision);
    c.energy_pj =
        c.reads * storage.read_pj + c.fills * storage.fill_pj + c.updates * storage.update_pj;
    const bool refilled = tile_deliveries(n, *tensors[t], level) > 1;
    cost.buffer_words += c.tile_words * (storage.double_buffering && refilled ? 2 : 1);
    cost.energy_pj += c.energy_pj;
    reads += c.reads;
    writes += c.fills + c.updates;
    cost.tensors[t] = c;
  }
  const double per_instance = static_cast<double>(cost.instances);
  cost.transfer_cycles = level == 0
                             ? backing_store_cycles(hw, reads, writes)
                             : port_cycles(storage, reads / per_instance, writes / per_instance);
  return cost;
}

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

double operator_macs(const Nest &n) {
  double macs = 1;
  for (int d : n.dims)
    macs *= n.extent[0][static_cast<size_t>(d)];
  return macs;
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

HierCost evaluate_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                               const OpMapping &mapping, bool first_read_elision,
                               LatencyModel latency_model) {
  const Nest n = flatten(workload, op, mapping);
  HierCost cost;
  cost.macs = operator_macs(n);
  cost.utilised_units = static_cast<std::int64_t>(instances(n, n.compute));
  cost.utilisation =
      static_cast<double>(cost.utilised_units) / static_cast<double>(hw.hierarchy.compute_units());
  cost.compute_cycles = cost.macs / static_cast<double>(cost.utilised_units);
  cost.compute_energy_pj = cost.macs * hw.hierarchy.mac_pj;
  const double elision = first_read_elision ? 1 : 0;
  cost.latency_cycles = cost.compute_cycles;
  double transfer_sum = 0;
  for (int level = 0; level < n.compute; ++level) {
    HierLevelCost l = level_cost(hw, n, op, mapping, level, cost.macs, elision);
    l.cycles = std::max(cost.compute_cycles, l.transfer_cycles);
    if (l.transfer_cycles > cost.latency_cycles) {
      cost.latency_cycles = l.transfer_cycles;
      cost.bound_level = level;
    }
    transfer_sum += l.transfer_cycles;
    cost.energy_pj += l.energy_pj;
    cost.levels.push_back(std::move(l));
  }
  cost.energy_pj += cost.compute_energy_pj;
  if (latency_model == LatencyModel::Sequential)
    cost.latency_cycles = cost.compute_cycles + transfer_sum;
  return cost;
}

} // namespace dse
