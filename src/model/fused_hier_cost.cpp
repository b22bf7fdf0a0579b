// A fused pair's counts on a hierarchy of any depth (docs/HIERARCHY.md §8): the one-level model's
// retention-depth formulas between levels 0 and 1, each operator's nest below level 1 with the
// prefix loops as scope loops, and the sums of the two operators per level.
#include "dse/model/fused_hier_cost.hpp"

#include <algorithm>
#include <array>

#include "dse/model/tiling.hpp"
#include "hier_nest.hpp"

namespace dse {

namespace {

using hier_nest::Loop;
using hier_nest::Nest;

bool iterates(const ProblemOp &op, int dim) {
  return std::find(op.dims.begin(), op.dims.end(), dim) != op.dims.end();
}

/// Visits operator `o`'s loops at level 0 in nest order: the prefix as scope loops (recompute
/// loops included), then its sub-nest; `productions` is multiplied by the recompute trips (they
/// enclose the producer).
template <class Visit>
void for_each_level0_loop(const Problem &problem, const Dataflow &outer, const FusedTiles &tiles,
                          int o, double &productions, const Visit &visit) {
  for (int d : outer.prefix) {
    const auto trips = static_cast<double>(tiles.trips[static_cast<size_t>(d)]);
    if (!iterates(problem.ops[static_cast<size_t>(o)], d))
      productions *= trips;
    if (trips > 1)
      visit(Loop{0, d, trips, true});
  }
  for (int d : outer.subnests[static_cast<size_t>(o)]) {
    const auto trips = static_cast<double>(tiles.trips[static_cast<size_t>(d)]);
    if (trips > 1)
      visit(Loop{0, d, trips, false});
  }
}

/// Fills `n` with operator `o`'s nest: its level-0 loops, then its own blocks below level 0.
/// Both `n` and `level0` (the level-0 loops, on their way) keep their storage between calls.
void fused_nest(const Problem &problem, const Dataflow &outer, const FusedTiles &tiles, int o,
                const OpMapping &mapping, Nest &n, std::vector<Loop> &level0) {
  hier_nest::flatten(*problem.workload, problem.op(o), mapping, n);
  std::erase_if(n.loops, [](const Loop &loop) { return loop.level == 0; });
  for (int d : n.dims)
    n.extent[0][static_cast<size_t>(d)] = static_cast<double>(tiles.extent[static_cast<size_t>(d)] *
                                                              tiles.trips[static_cast<size_t>(d)]);
  level0.clear();
  for_each_level0_loop(problem, outer, tiles, o, n.productions,
                       [&](const Loop &loop) { level0.push_back(loop); });
  n.loops.insert(n.loops.begin(), level0.begin(), level0.end());
}

/// The atoms of the one-level formulas at the pair's level-1 extents.
AtomTable level1_atoms(const Problem &problem, const FusedTiles &tiles) {
  const Workload &w = *problem.workload;
  std::vector<std::int64_t> sizes;
  for (size_t d = 0; d < w.dims.size(); ++d)
    sizes.push_back(w.dim_size(static_cast<int>(d)));
  return atom_table(sizes, Tiling{tiles.extent}, 1, 1);
}

/// The padded problem: every dimension at its level-1 extent times its level-0 trips.
std::vector<std::int64_t> padded_extents(const FusedTiles &tiles) {
  std::vector<std::int64_t> whole(tiles.extent.size());
  for (size_t d = 0; d < whole.size(); ++d)
    whole[d] = tiles.extent[d] * tiles.trips[d];
  return whole;
}

/// The outer part with every form evaluated by `value`; `tiles` give the padded tensors.
template <class Value>
FusedOuterCost outer_cost(const Problem &problem, const FusedOuterForms &forms,
                          const FusedTiles &tiles, bool first_read_elision, const Value &value) {
  const std::vector<std::int64_t> padded = padded_extents(tiles);
  FusedOuterCost cost;
  cost.dram.tensors.resize(problem.tensors.size());
  cost.level1.tensors.resize(problem.tensors.size());
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    const TensorTraffic &traffic = forms.traffic[t];
    HierTensorCounts dram, level1;
    level1.tile_words = value(traffic.footprint);
    if (problem.tensors[t].role != TensorRole::Intermediate) {
      const ProblemTensor &tensor = problem.tensors[t];
      dram.tile_words = tensor.access.words(padded);
      if (tensor.role == TensorRole::Input) {
        dram.reads = value(traffic.reads);
      } else {
        const bool elided = elides_first_read(problem.op(tensor.owner), first_read_elision);
        dram.updates = value(traffic.writes);
        dram.reads = dram.updates - (elided ? dram.tile_words : 0);
      }
      level1.fills = dram.reads;
      cost.dram.tensors[t] = dram;
    }
    cost.level1.tensors[t] = level1;
  }
  for (const Posynomial &words : forms.live_words)
    cost.level1.buffer_words = std::max(cost.level1.buffer_words, value(words));
  cost.vector_ops = value(forms.vector_ops);
  return cost;
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

/// Adds operator `op`'s counts at `level` (level 1: its reads and updates only) into `into`.
void add_operator_counts(const ProblemOp &op, const FusedOperatorCost &cost, int level,
                         HierLevelCost &into) {
  const HierLevelCost &own = cost.levels[static_cast<size_t>(level)];
  for (size_t i = 0; i < own.tensors.size(); ++i) {
    if (!own.tensors[i])
      continue;
    std::optional<HierTensorCounts> &total = into.tensors[static_cast<size_t>(op.tensors[i])];
    const HierTensorCounts &c = *own.tensors[i];
    if (level == 1) { // tiles and fills are the outer part's
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

void compute_totals(const Hardware &hw, const FusedOperatorCost &producer,
                    const FusedOperatorCost &consumer, FusedHierCost &cost) {
  HierCost &c = cost.totals;
  const auto units = static_cast<double>(hw.hierarchy.compute_units());
  double mac_cycles = 0;
  for (const FusedOperatorCost *op : {&producer, &consumer}) {
    cost.macs.push_back(op->macs);
    c.macs += op->macs;
    mac_cycles += op->macs / op->utilised_units;
    c.utilised_units = std::max(c.utilised_units, static_cast<std::int64_t>(op->utilised_units));
  }
  c.utilisation = c.macs / mac_cycles / units;
  c.compute_cycles = mac_cycles + cost.vector_ops / units;
  c.compute_energy_pj = (c.macs + cost.vector_ops) * hw.hierarchy.mac_pj;
}

/// `cost` reset to a pair's empty cost on `hw` with its storage kept: every level with no
/// instances and an empty entry per problem tensor, no MACs.
void reset_fused_cost(const Hardware &hw, const Problem &problem, FusedHierCost &cost) {
  std::vector<HierLevelCost> levels = std::move(cost.totals.levels);
  std::vector<double> macs = std::move(cost.macs);
  cost = FusedHierCost{};
  levels.resize(hw.hierarchy.levels.size());
  for (HierLevelCost &level : levels) {
    reset_level_cost(level, problem.tensors.size());
    level.instances = 0;
  }
  macs.clear();
  cost.totals.levels = std::move(levels);
  cost.macs = std::move(macs);
}

} // namespace

FusedTiles fused_tiles(const Problem &problem, const FusedHierMapping &mapping) {
  const size_t dims = problem.workload->dims.size();
  FusedTiles tiles{std::vector<std::int64_t>(dims, 1), std::vector<std::int64_t>(dims, 1)};
  for (int d : problem.dims) {
    const auto at = static_cast<size_t>(d);
    const OpMapping &m = mapping.ops[iterates(problem.ops[0], d) ? 0 : 1];
    tiles.extent[at] = fused_level1_extent(m, d);
    tiles.trips[at] = m.levels[0].factor[at];
  }
  return tiles;
}

FusedLevel0Trips fused_level0_trips(const Problem &problem, const Dataflow &outer,
                                    const FusedTiles &tiles, int o) {
  // As the nest's tile deliveries E(l,t) (src/model/hier_nest.cpp) over the level-0 loops, for
  // every tensor in one pass.
  const OperatorTensors tensors = operator_tensors(problem.op(o));
  std::array<double, 3> to_last_indexing{1, 1, 1};
  FusedLevel0Trips trips;
  for_each_level0_loop(problem, outer, tiles, o, trips.productions, [&](const Loop &loop) {
    trips.all *= loop.trips;
    for (size_t t = 0; t < tensors.size(); ++t)
      if (hier_nest::indexes(loop, *tensors[t]))
        to_last_indexing[t] = trips.all;
  });
  for (size_t t = 0; t < tensors.size(); ++t)
    trips.to_last_indexing.push_back(to_last_indexing[t]);
  return trips;
}

FusedOuterForms fused_outer_forms(const Hardware &hw, const Problem &problem,
                                  const Dataflow &outer) {
  FusedOuterForms forms;
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    forms.traffic.push_back(tensor_traffic(problem, outer, static_cast<int>(t)));
  forms.live_words =
      dataflow_metrics(problem, outer, hw.hierarchy.levels[1].double_buffering).buffer_words;
  forms.vector_ops = compute_metrics(problem, outer.recompute_dims(problem), outer.cached,
                                     {SpatialMapping{}, SpatialMapping{}})
                         .vector_ops;
  return forms;
}

FusedOuterCost fused_outer_cost(const Problem &problem, const FusedOuterForms &forms,
                                const FusedTiles &tiles, bool first_read_elision) {
  const AtomTable atoms = level1_atoms(problem, tiles);
  return outer_cost(problem, forms, tiles, first_read_elision,
                    [&atoms](const Posynomial &p) { return evaluate(p, atoms); });
}

FusedOuterCost fused_outer_cost_bound(const Problem &problem, const FusedOuterForms &forms,
                                      const AtomTable &lo, const AtomTable &hi,
                                      bool first_read_elision) {
  const Workload &w = *problem.workload;
  FusedTiles whole{std::vector<std::int64_t>(w.dims.size(), 1),
                   std::vector<std::int64_t>(w.dims.size(), 1)};
  for (int d : problem.dims)
    whole.extent[static_cast<size_t>(d)] = w.dim_size(d);
  return outer_cost(problem, forms, whole, first_read_elision,
                    [&](const Posynomial &p) { return least_value(p, lo, hi); });
}

void fused_operator_cost(const Hardware &hw, const Problem &problem, const Dataflow &outer,
                         const FusedTiles &tiles, int o, const OpMapping &mapping,
                         bool first_read_elision, FusedOperatorCost &cost) {
  // Kept between calls (the searches evaluate millions of nests): their storage is reused.
  thread_local Nest n;
  thread_local std::vector<Loop> level0;
  fused_nest(problem, outer, tiles, o, mapping, n, level0);
  cost.macs = hier_nest::operator_macs(n);
  cost.utilised_units = hier_nest::instances(n, n.compute);
  const double elision = elides_first_read(problem.op(o), first_read_elision) ? 1 : 0;
  cost.levels.resize(static_cast<size_t>(n.compute));
  reset_level_cost(cost.levels[0], 0);
  for (int l = 1; l < n.compute; ++l)
    hier_nest::level_cost(hw, n, problem.op(o), mapping, l, cost.macs, elision,
                          cost.levels[static_cast<size_t>(l)]);
}

FusedOperatorCost fused_operator_cost(const Hardware &hw, const Problem &problem,
                                      const Dataflow &outer, const FusedTiles &tiles, int o,
                                      const OpMapping &mapping, bool first_read_elision) {
  FusedOperatorCost cost;
  fused_operator_cost(hw, problem, outer, tiles, o, mapping, first_read_elision, cost);
  return cost;
}

bool fused_operator_fits(const Hardware &hw, const FusedOperatorCost &cost) {
  for (size_t l = 2; l < cost.levels.size(); ++l)
    if (const std::optional<std::int64_t> &capacity = hw.hierarchy.levels[l].capacity_words;
        capacity && cost.levels[l].buffer_words > static_cast<double>(*capacity))
      return false;
  return true;
}

FusedHierCost combine_fused_cost(const Hardware &hw, const Problem &problem,
                                 const FusedOuterCost &outer, const FusedOperatorCost &producer,
                                 const FusedOperatorCost &consumer, LatencyModel latency_model) {
  FusedHierCost cost;
  combine_fused_cost(hw, problem, outer, producer, consumer, latency_model, cost);
  return cost;
}

void combine_fused_cost(const Hardware &hw, const Problem &problem, const FusedOuterCost &outer,
                        const FusedOperatorCost &producer, const FusedOperatorCost &consumer,
                        LatencyModel latency_model, FusedHierCost &cost) {
  reset_fused_cost(hw, problem, cost);
  HierCost &c = cost.totals;
  c.levels[0] = outer.dram;
  c.levels[1] = outer.level1;
  c.levels[0].instances = c.levels[1].instances = 1;
  for (int l = 1; l < static_cast<int>(c.levels.size()); ++l) {
    add_operator_counts(problem.ops[0], producer, l, c.levels[static_cast<size_t>(l)]);
    add_operator_counts(problem.ops[1], consumer, l, c.levels[static_cast<size_t>(l)]);
  }
  settle_outer_level(hw, 0, c.levels[0]);
  settle_outer_level(hw, 1, c.levels[1]);
  for (size_t l = 2; l < c.levels.size(); ++l)
    for (const std::optional<HierTensorCounts> &t : c.levels[l].tensors)
      if (t)
        c.levels[l].energy_pj += t->energy_pj;
  cost.vector_ops = outer.vector_ops;
  compute_totals(hw, producer, consumer, cost);
  settle_latency_and_energy(c, latency_model);
}

FusedHierCost evaluate_fused_hier_mapping(const Hardware &hw, const Problem &problem,
                                          const FusedHierMapping &mapping, bool first_read_elision,
                                          LatencyModel latency_model) {
  const FusedTiles tiles = fused_tiles(problem, mapping);
  const auto op_cost = [&](int o) {
    return fused_operator_cost(hw, problem, mapping.outer, tiles, o,
                               mapping.ops[static_cast<size_t>(o)], first_read_elision);
  };
  const FusedOuterForms forms = fused_outer_forms(hw, problem, mapping.outer);
  return combine_fused_cost(hw, problem,
                            fused_outer_cost(problem, forms, tiles, first_read_elision), op_cost(0),
                            op_cost(1), latency_model);
}

} // namespace dse
