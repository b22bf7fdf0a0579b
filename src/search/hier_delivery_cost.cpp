// Objectives from deliveries for one spatial row and keep vector: the constants of §4 (instances,
// multicast and reduction factors, first arrivals, MACs) are computed once, in the order
// evaluate_hier_mapping computes them, and each evaluation only combines them with Delta(l,t).
#include "hier_delivery_cost.hpp"

#include <algorithm>

#include "dse/model/hier_cost.hpp"
#include "dse/support/check.hpp"

namespace dse {

namespace {

/// Product of the fan-outs of each gap per workload dimension.
std::vector<std::vector<double>>
gap_products(const std::vector<std::vector<FanoutMapping>> &fanouts, const std::vector<int> &dims,
             size_t workload_dims) {
  std::vector<std::vector<double>> spatial(fanouts.size(), std::vector<double>(workload_dims, 1.0));
  for (size_t gap = 0; gap < fanouts.size(); ++gap)
    for (const FanoutMapping &f : fanouts[gap])
      for (int d : dims)
        spatial[gap][static_cast<size_t>(d)] *= static_cast<double>(f.factor(d));
  return spatial;
}

/// Product of the gaps [0, to) over the dimensions `access` uses (`relevant`) or does not use.
double spatial_product(const std::vector<std::vector<double>> &spatial,
                       const std::vector<int> &dims, const TensorAccess &access, size_t to,
                       bool relevant) {
  double product = 1;
  for (size_t gap = 0; gap < to; ++gap)
    for (int d : dims)
      if (access.uses(d) == relevant)
        product *= spatial[gap][static_cast<size_t>(d)];
  return product;
}

/// Words of `access` over the whole (unpadded) operator: an affine index spans 1 + sum c_i (D_i-1).
double tensor_words(const Workload &workload, const TensorAccess &access) {
  double words = 1;
  for (const IndexExpr &index : access.indices) {
    double span = 1;
    for (const IndexTerm &term : index.terms)
      span +=
          static_cast<double>(term.coef) * (static_cast<double>(workload.dim_size(term.dim)) - 1);
    words *= span;
  }
  return words;
}

/// mu(l,t) between `level` and `child`: the spatial factors of the dimensions `access` does not
/// use, multicast fan-outs only for inputs.
double fanout_sharing(const Hierarchy &h, const std::vector<std::vector<FanoutMapping>> &fanouts,
                      const std::vector<int> &dims, const TensorAccess &access, bool output,
                      size_t level, size_t child) {
  double product = 1;
  for (size_t gap = level; gap < child; ++gap)
    for (size_t f = 0; f < fanouts[gap].size(); ++f) {
      if (!output && !h.fanouts[gap][f].multicast)
        continue;
      for (int d : dims)
        if (!access.uses(d))
          product *= static_cast<double>(fanouts[gap][f].factor(d));
    }
  return product;
}

} // namespace

HierDeliveryCost::HierDeliveryCost(const Hardware &hw, const Workload &workload, const Operator &op,
                                   const std::vector<std::vector<FanoutMapping>> &fanouts,
                                   bool first_read_elision, LatencyModel latency_model)
    : hw_(hw), latency_model_(latency_model) {
  const Hierarchy &h = hw.hierarchy;
  const std::vector<int> dims = op.dims();
  const OperatorTensors tensors = operator_tensors(op);
  DSE_CHECK(h.levels.size() <= kMaxHierLevels && tensors.size() <= kMaxHierTensors,
            "a hierarchy or einsum larger than the fast evaluation holds");
  tensors_ = tensors.size();
  levels_count_ = h.levels.size();
  const size_t compute = levels_count_;
  const std::vector<std::vector<double>> spatial =
      gap_products(fanouts, dims, workload.dims.size());
  macs_ = 1;
  for (int d : dims)
    macs_ *= static_cast<double>(workload.dim_size(d));
  const auto instances_of = [&](size_t level) {
    double product = 1;
    for (size_t gap = 0; gap < level; ++gap)
      for (int d : dims)
        product *= spatial[gap][static_cast<size_t>(d)];
    return product;
  };
  const auto utilised_units = static_cast<std::int64_t>(instances_of(compute));
  compute_cycles_ = macs_ / static_cast<double>(utilised_units);
  compute_energy_pj_ = macs_ * h.mac_pj;
  const double elision = elides_first_read(op, first_read_elision) ? 1 : 0;
  for (size_t l = 0; l < compute; ++l) {
    Level &level = levels_[l];
    level.instances = instances_of(l);
    level.read_pj = h.levels[l].read_pj;
    level.fill_pj = h.levels[l].fill_pj;
    level.update_pj = h.levels[l].update_pj;
    for (size_t t = 0; t < tensors_; ++t) {
      const bool output = t + 1 == tensors_;
      const double words = tensor_words(workload, *tensors[t]);
      least_[l][t] = words * spatial_product(spatial, dims, *tensors[t], l, false);
      first_arrivals_[l][t] = elision * least_[l][t];
      for (size_t child = l + 1; child <= compute; ++child)
        sharing_[l][child][t] = fanout_sharing(h, fanouts, dims, *tensors[t], output, l, child);
    }
  }
  set_keeps(std::vector<std::uint32_t>(compute, 0));
}

void HierDeliveryCost::set_keeps(const std::vector<std::uint32_t> &keep) {
  const auto keeps = [&](size_t level, size_t t) {
    return level == 0 || (keep[level] >> t & 1U) != 0;
  };
  for (size_t l = 0; l < levels_count_; ++l)
    for (size_t t = 0; t < tensors_; ++t) {
      Term &term = levels_[l].terms[t];
      term = Term{};
      if (!keeps(l, t))
        continue;
      term.kept = true;
      term.output = t + 1 == tensors_;
      term.child = l + 1;
      while (term.child < levels_count_ && !keeps(term.child, t))
        ++term.child;
      term.sharing = sharing_[l][term.child][t];
      term.first_arrivals = first_arrivals_[l][t];
    }
}

double HierDeliveryCost::transfer_cycles(size_t level, double reads, double writes) const {
  if (level == 0)
    return backing_store_cycles(hw_, reads, writes);
  const double per_instance = levels_[level].instances;
  return port_cycles(hw_.hierarchy.levels[level], reads / per_instance, writes / per_instance);
}

Objectives HierDeliveryCost::objectives(const HierDeliveries &delta, double buffer_words,
                                        double kept_dram_floor) const {
  double energy_pj = 0, dram_words = 0, kept_dram_words = 0, transfer_sum = 0;
  double latency_cycles = compute_cycles_;
  for (size_t l = 0; l < levels_count_; ++l) {
    const Level &level = levels_[l];
    double level_energy_pj = 0, reads = 0, writes = 0;
    for (size_t t = 0; t < tensors_; ++t) {
      const Term &term = level.terms[t];
      if (!term.kept)
        continue;
      const double below = term.child == levels_count_ ? macs_ : delta[term.child][t];
      const double towards_compute = below / term.sharing;
      const double delivered = l == 0 ? 0 : delta[l][t];
      double r = towards_compute, f = delivered, u = 0;
      if (term.output) {
        u = towards_compute;
        r = u - term.first_arrivals;
        f = l == 0 ? 0 : delivered - term.first_arrivals;
      }
      level_energy_pj += r * level.read_pj + f * level.fill_pj + u * level.update_pj;
      reads += r;
      writes += f + u;
      if (l == 0)
        dram_words += r + u;
      if (l == 0 && term.child == 1)
        kept_dram_words += r + u;
    }
    const double transfer = transfer_cycles(l, reads, writes);
    latency_cycles = std::max(latency_cycles, transfer);
    transfer_sum += transfer;
    energy_pj += level_energy_pj;
  }
  energy_pj += compute_energy_pj_;
  // The words a floor adds are each a read or an update of level 0 more than `delta` makes.
  const double beyond_floor = std::max(0.0, kept_dram_floor - kept_dram_words);
  energy_pj += beyond_floor * std::min(levels_[0].read_pj, levels_[0].update_pj);
  if (latency_model_ == LatencyModel::Sequential)
    latency_cycles = compute_cycles_ + transfer_sum;
  Objectives o;
  o.latency_s = latency_cycles / (hw_.clock_ghz * 1e9);
  o.energy_pj = energy_pj;
  o.edp = o.latency_s * o.energy_pj;
  o.dram_words = dram_words + beyond_floor;
  o.buffer_words = buffer_words;
  return o;
}

} // namespace dse
