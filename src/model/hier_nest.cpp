// The closed forms of docs/HIERARCHY.md §4 over one operator's nest (src/model/hier_nest.hpp).
#include "hier_nest.hpp"

namespace dse::hier_nest {

namespace {

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

/// Whether `m` keeps operator tensor `tensor` at `level` (level 0 keeps every tensor).
bool keeps(const OpMapping &m, int level, size_t tensor) {
  return level == 0 || (m.levels[static_cast<size_t>(level)].keep >> tensor & 1U) != 0;
}

/// Whether a tensor that uses the dimensions of `uses` (a bit each) uses `dim`.
bool uses_dim(std::uint64_t uses, int dim) { return (uses >> dim & 1U) != 0; }

/// Product of the spatial factors of the fan-out gaps [from, to), over the dimensions that
/// the tensor (`uses`) uses (`relevant`) or does not use.
double spatial_product(const Nest &n, std::uint64_t uses, int from, int to, bool relevant) {
  double product = 1;
  for (int gap = from; gap < to; ++gap)
    for (int d : n.dims)
      if (uses_dim(uses, d) == relevant)
        product *= n.spatial[static_cast<size_t>(gap)][static_cast<size_t>(d)];
  return product;
}

/// E(l,t): trips of the loops above `level` from the outermost down to the innermost one that
/// indexes tensor `tensor` (1 if none does): how many times each instance receives a new tile. A
/// scope loop indexes every tensor.
double tile_deliveries(const Nest &n, size_t tensor, int level) {
  double product = 1, up_to_last_relevant = 1;
  for (const Loop &loop : n.loops) {
    if (loop.level >= level)
      break;
    product *= loop.trips;
    if (loop.scope || uses_dim(n.uses[tensor], loop.dim))
      up_to_last_relevant = product;
  }
  return up_to_last_relevant;
}

/// Words written into all instances of keeper `level` from its parent before elision
/// (Delta(l,t)); for the compute units, one word per MAC.
double deliveries(const Nest &n, const TensorAccess &access, size_t tensor, int level,
                  double macs) {
  if (level == n.compute)
    return macs;
  return tile_words(n, access, level) * tile_deliveries(n, tensor, level) * instances(n, level);
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
double fanout_sharing(const Nest &n, const Hierarchy &h, const OpMapping &m, size_t tensor,
                      bool output, int level, int child) {
  double product = 1;
  for (int gap = level; gap < child; ++gap)
    for (size_t f = 0; f < m.fanouts[static_cast<size_t>(gap)].size(); ++f) {
      if (!output && !h.fanouts[static_cast<size_t>(gap)][f].multicast)
        continue;
      for (int d : n.dims)
        if (!uses_dim(n.uses[tensor], d))
          product *= static_cast<double>(m.fanouts[static_cast<size_t>(gap)][f].factor(d));
    }
  return product;
}

HierTensorCounts tensor_counts(const Nest &n, const Hierarchy &h, const OpMapping &m,
                               const TensorAccess &access, size_t tensor, bool output, int level,
                               double macs, double elision) {
  const int child = next_keeper(n, m, level, tensor);
  const double towards_compute = deliveries(n, access, tensor, child, macs) /
                                 fanout_sharing(n, h, m, tensor, output, level, child);
  const double delivered = level == 0 ? 0 : deliveries(n, access, tensor, level, macs);
  HierTensorCounts c;
  c.tile_words = tile_words(n, access, level);
  if (!output) {
    c.reads = towards_compute;
    c.fills = delivered;
    return c;
  }
  const double first_arrivals = elision * n.productions * tile_words(n, access, 0) *
                                spatial_product(n, n.uses[tensor], 0, level, false);
  c.updates = towards_compute;
  c.reads = c.updates - first_arrivals;
  c.fills = level == 0 ? 0 : delivered - first_arrivals;
  return c;
}

} // namespace

void flatten(const Workload &workload, const Operator &op, const OpMapping &m, Nest &n) {
  op.dims_into(n.dims);
  const OperatorTensors tensors = operator_tensors(op);
  for (size_t t = 0; t < tensors.size(); ++t) {
    n.uses[t] = 0;
    for (int d : n.dims)
      n.uses[t] |= tensors[t]->uses(d) ? std::uint64_t{1} << d : 0;
  }
  n.compute = static_cast<int>(m.levels.size());
  n.productions = 1;
  const size_t dims = workload.dims.size();
  n.spatial.resize(m.fanouts.size());
  for (size_t gap = 0; gap < m.fanouts.size(); ++gap) {
    n.spatial[gap].assign(dims, 1.0);
    for (const FanoutMapping &f : m.fanouts[gap])
      for (int d : n.dims)
        n.spatial[gap][static_cast<size_t>(d)] *= static_cast<double>(f.factor(d));
  }
  n.extent.resize(m.levels.size() + 1);
  for (std::vector<double> &extent : n.extent)
    extent.assign(dims, 1.0);
  for (int l = n.compute - 1; l >= 0; --l)
    for (int d : n.dims) {
      const auto at = static_cast<size_t>(d);
      n.extent[static_cast<size_t>(l)][at] =
          n.extent[static_cast<size_t>(l) + 1][at] * n.spatial[static_cast<size_t>(l)][at] *
          static_cast<double>(m.levels[static_cast<size_t>(l)].factor[at]);
    }
  n.loops.clear();
  for (size_t l = 0; l < m.levels.size(); ++l)
    for (int d : m.levels[l].order) {
      const auto trips = static_cast<double>(m.levels[l].factor[static_cast<size_t>(d)]);
      if (trips > 1)
        n.loops.push_back(Loop{static_cast<int>(l), d, trips});
    }
}

double instances(const Nest &n, int level) {
  double product = 1;
  for (int gap = 0; gap < level; ++gap)
    for (int d : n.dims)
      product *= n.spatial[static_cast<size_t>(gap)][static_cast<size_t>(d)];
  return product;
}

void level_cost(const Hardware &hw, const Nest &n, const Operator &op, const OpMapping &m,
                int level, double macs, double elision, HierLevelCost &cost) {
  const StorageLevel &storage = hw.hierarchy.levels[static_cast<size_t>(level)];
  const OperatorTensors tensors = operator_tensors(op);
  reset_level_cost(cost, tensors.size());
  cost.instances = static_cast<std::int64_t>(instances(n, level));
  double reads = 0, writes = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (!keeps(m, level, t))
      continue;
    const bool output = t + 1 == tensors.size();
    HierTensorCounts c =
        tensor_counts(n, hw.hierarchy, m, *tensors[t], t, output, level, macs, elision);
    c.energy_pj =
        c.reads * storage.read_pj + c.fills * storage.fill_pj + c.updates * storage.update_pj;
    const bool refilled = tile_deliveries(n, t, level) > 1;
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
}

double operator_macs(const Nest &n) {
  double macs = n.productions;
  for (int d : n.dims)
    macs *= n.extent[0][static_cast<size_t>(d)];
  return macs;
}

} // namespace dse::hier_nest
