// A fused pair's counts on a hierarchy of any depth (docs/HIERARCHY.md §8): the one-level model's
// retention-depth formulas between levels 0 and 1, each operator's nest below level 1 with the
// prefix loops as scope loops, and the sums of the two operators per level.
#include "dse/model/fused_hier_cost.hpp"

#include <algorithm>

#include "dse/model/metrics.hpp"
#include "dse/model/tiling.hpp"
#include "hier_nest.hpp"

namespace dse {

namespace {

using hier_nest::Loop;
using hier_nest::Nest;

bool iterates(const ProblemOp &op, int dim) {
  return std::find(op.dims.begin(), op.dims.end(), dim) != op.dims.end();
}

/// The operator whose mapping gives `dim`'s level-0 trips and level-1 extent: the producer when
/// it iterates the dimension, else the consumer.
int owner_of_dim(const Problem &problem, int dim) { return iterates(problem.ops[0], dim) ? 0 : 1; }

std::int64_t level0_trips(const Problem &problem, const FusedHierMapping &m, int dim) {
  return m.ops[static_cast<size_t>(owner_of_dim(problem, dim))]
      .levels[0]
      .factor[static_cast<size_t>(dim)];
}

/// Operator `o`'s nest: the prefix as scope loops (recompute loops included, which also count the
/// producer's productions), its sub-nest, then its own blocks below level 0.
Nest fused_nest(const Problem &problem, const FusedHierMapping &m, int o) {
  const OpMapping &mapping = m.ops[static_cast<size_t>(o)];
  Nest n = hier_nest::flatten(*problem.workload, problem.op(o), mapping);
  std::erase_if(n.loops, [](const Loop &loop) { return loop.level == 0; });
  std::vector<Loop> level0;
  for (int d : m.outer.prefix) {
    const auto trips = static_cast<double>(level0_trips(problem, m, d));
    if (!iterates(problem.ops[static_cast<size_t>(o)], d))
      n.productions *= trips; // a recompute loop around the producer
    if (trips > 1)
      level0.push_back(Loop{0, d, trips, true});
  }
  for (int d : m.outer.subnests[static_cast<size_t>(o)]) {
    const auto trips = static_cast<double>(mapping.levels[0].factor[static_cast<size_t>(d)]);
    if (trips > 1)
      level0.push_back(Loop{0, d, trips, false});
  }
  n.loops.insert(n.loops.begin(), level0.begin(), level0.end());
  return n;
}

/// The atoms of the one-level formulas at the pair's level-1 extents.
AtomTable level1_atoms(const Problem &problem, const FusedHierMapping &m) {
  const Workload &w = *problem.workload;
  std::vector<std::int64_t> sizes;
  Tiling tiling;
  for (size_t d = 0; d < w.dims.size(); ++d) {
    sizes.push_back(w.dim_size(static_cast<int>(d)));
    tiling.tile.push_back(sizes.back());
  }
  for (int d : problem.dims) {
    const auto at = static_cast<size_t>(d);
    const OpMapping &mapping = m.ops[static_cast<size_t>(owner_of_dim(problem, d))];
    std::int64_t extent = 1;
    for (size_t l = 1; l < mapping.levels.size(); ++l)
      extent *= mapping.levels[l].factor[at];
    for (size_t gap = 1; gap < mapping.fanouts.size(); ++gap)
      for (const FanoutMapping &f : mapping.fanouts[gap])
        extent *= f.factor(d);
    tiling.tile[at] = extent;
  }
  return atom_table(sizes, tiling, 1, 1);
}

void add_energy(HierTensorCounts &c, const StorageLevel &storage) {
  c.energy_pj =
      c.reads * storage.read_pj + c.fills * storage.fill_pj + c.updates * storage.update_pj;
}

void add_counts(std::optional<HierTensorCounts> &into, const HierTensorCounts &c) {
  if (!into) {
    into = c;
    return;
  }
  into->tile_words = std::max(into->tile_words, c.tile_words);
  into->reads += c.reads;
  into->fills += c.fills;
  into->updates += c.updates;
  into->energy_pj += c.energy_pj;
}

/// What each operator does at one level, per operator tensor.
struct OperatorLevels {
  const ProblemOp *op = nullptr;
  Nest nest;
  double macs = 0;
  std::vector<HierLevelCost> levels; // [level]; level 0 unused
};

std::vector<OperatorLevels> operator_levels(const Hardware &hw, const Problem &problem,
                                            const FusedHierMapping &m, double elision) {
  std::vector<OperatorLevels> out;
  for (int o = 0; o < 2; ++o) {
    OperatorLevels ops;
    ops.op = &problem.ops[static_cast<size_t>(o)];
    ops.nest = fused_nest(problem, m, o);
    ops.macs = hier_nest::operator_macs(ops.nest);
    ops.levels.resize(1);
    for (int l = 1; l < ops.nest.compute; ++l)
      ops.levels.push_back(hier_nest::level_cost(
          hw, ops.nest, problem.op(o), m.ops[static_cast<size_t>(o)], l, ops.macs, elision));
    out.push_back(std::move(ops));
  }
  return out;
}

/// Levels 0 and 1 from the one-level formulas: level 0's reads and updates of each DRAM tensor,
/// level 1's tiles and fills; level 1's reads and updates towards the inner keepers come from the
/// operators' nests.
void outer_levels(const Hardware &hw, const Problem &problem, const FusedHierMapping &m,
                  const std::vector<OperatorLevels> &ops, double elision, HierCost &cost) {
  const AtomTable atoms = level1_atoms(problem, m);
  HierLevelCost &dram = cost.levels[0], &l1 = cost.levels[1];
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    const TensorTraffic traffic = tensor_traffic(problem, m.outer, static_cast<int>(t));
    HierTensorCounts outer, inner;
    inner.tile_words = evaluate(traffic.footprint, atoms);
    if (static_cast<int>(t) != problem.intermediate) {
      const ProblemTensor &tensor = problem.tensors[t];
      const Nest &owner = ops[static_cast<size_t>(tensor.owner)].nest;
      outer.tile_words = hier_nest::tile_words(owner, tensor.access, 0);
      if (tensor.role == TensorRole::Input) {
        outer.reads = evaluate(traffic.reads, atoms);
      } else {
        outer.updates = evaluate(traffic.writes, atoms);
        outer.reads = outer.updates - elision * outer.tile_words;
      }
      inner.fills = outer.reads;
      dram.tensors[t] = outer;
    }
    l1.tensors[t] = inner;
  }
  const std::vector<Posynomial> live =
      dataflow_metrics(problem, m.outer, hw.hierarchy.levels[1].double_buffering).buffer_words;
  for (const Posynomial &words : live)
    l1.buffer_words = std::max(l1.buffer_words, evaluate(words, atoms));
}

/// Adds each operator's counts at `level` (level 1: its reads and updates only) into `into`.
void add_operator_counts(const std::vector<OperatorLevels> &ops, int level, HierLevelCost &into) {
  for (const OperatorLevels &op : ops) {
    const HierLevelCost &own = op.levels[static_cast<size_t>(level)];
    for (size_t i = 0; i < own.tensors.size(); ++i) {
      if (!own.tensors[i])
        continue;
      std::optional<HierTensorCounts> &total = into.tensors[static_cast<size_t>(op.op->tensors[i])];
      HierTensorCounts c = *own.tensors[i];
      if (level == 1) { // tiles and fills are the outer formulas'
        total->reads += c.reads;
        total->updates += c.updates;
        continue;
      }
      add_counts(total, c);
    }
    if (level > 1) {
      into.instances = std::max(into.instances, own.instances);
      into.buffer_words = std::max(into.buffer_words, own.buffer_words);
      into.transfer_cycles += own.transfer_cycles;
    }
  }
}

/// Level 0's and 1's energies and transfer cycles from their summed counts.
void settle_outer_level(const Hardware &hw, int level, HierLevelCost &cost) {
  const StorageLevel &storage = hw.hierarchy.levels[static_cast<size_t>(level)];
  double reads = 0, writes = 0;
  for (std::optional<HierTensorCounts> &c : cost.tensors) {
    if (!c)
      continue;
    add_energy(*c, storage);
    cost.energy_pj += c->energy_pj;
    reads += c->reads;
    writes += c->fills + c->updates;
  }
  cost.transfer_cycles =
      level == 0 ? backing_store_cycles(hw, reads, writes) : port_cycles(storage, reads, writes);
}

double attached_vector_ops(const Problem &problem, const FusedHierMapping &m) {
  const ComputeMetrics compute = compute_metrics(problem, m.outer.recompute_dims(problem),
                                                 {SpatialMapping{}, SpatialMapping{}});
  return evaluate(compute.vector_ops, level1_atoms(problem, m));
}

void compute_totals(const Hardware &hw, const std::vector<OperatorLevels> &ops,
                    FusedHierCost &cost) {
  HierCost &c = cost.totals;
  const auto units = static_cast<double>(hw.hierarchy.compute_units());
  double mac_cycles = 0;
  for (const OperatorLevels &op : ops) {
    const double utilised = hier_nest::instances(op.nest, op.nest.compute);
    cost.macs.push_back(op.macs);
    c.macs += op.macs;
    mac_cycles += op.macs / utilised;
    c.utilised_units = std::max(c.utilised_units, static_cast<std::int64_t>(utilised));
  }
  c.utilisation = c.macs / mac_cycles / units;
  c.compute_cycles = mac_cycles + cost.vector_ops / units;
  c.compute_energy_pj = (c.macs + cost.vector_ops) * hw.hierarchy.mac_pj;
}

} // namespace

FusedHierCost evaluate_fused_hier_mapping(const Hardware &hw, const Problem &problem,
                                          const FusedHierMapping &mapping, bool first_read_elision,
                                          LatencyModel latency_model) {
  const double elision = first_read_elision ? 1 : 0;
  const std::vector<OperatorLevels> ops = operator_levels(hw, problem, mapping, elision);
  FusedHierCost cost;
  HierCost &c = cost.totals;
  c.levels.resize(hw.hierarchy.levels.size());
  for (HierLevelCost &level : c.levels) {
    level.instances = 0;
    level.tensors.resize(problem.tensors.size());
  }
  c.levels[0].instances = c.levels[1].instances = 1;
  outer_levels(hw, problem, mapping, ops, elision, c);
  for (int l = 1; l < static_cast<int>(c.levels.size()); ++l)
    add_operator_counts(ops, l, c.levels[static_cast<size_t>(l)]);
  settle_outer_level(hw, 0, c.levels[0]);
  settle_outer_level(hw, 1, c.levels[1]);
  for (size_t l = 2; l < c.levels.size(); ++l)
    for (const std::optional<HierTensorCounts> &t : c.levels[l].tensors)
      if (t)
        c.levels[l].energy_pj += t->energy_pj;
  cost.vector_ops = attached_vector_ops(problem, mapping);
  compute_totals(hw, ops, cost);
  settle_latency_and_energy(c, latency_model);
  return cost;
}

} // namespace dse
