// Legality of one operator's mapping on a hierarchy of any depth: each rule is one function that
// returns the first violation it finds, in the words a user reads.
#include "dse/model/hier_mapping_check.hpp"

#include <algorithm>

#include "dse/model/hier_cost.hpp"

namespace dse {

namespace {

using Violation = std::optional<std::string>;

std::string quoted(const std::string &name) { return "'" + name + "'"; }

std::string level_name(const Hierarchy &h, size_t level) {
  return "level " + quoted(h.levels[level].name);
}

Violation check_shape(const Hierarchy &h, const Workload &w, const OpMapping &m) {
  if (m.levels.size() != h.levels.size() || m.fanouts.size() != h.fanouts.size())
    return "the mapping has " + std::to_string(m.levels.size()) + " levels, the hardware " +
           std::to_string(h.levels.size());
  for (size_t gap = 0; gap < h.fanouts.size(); ++gap)
    if (m.fanouts[gap].size() != h.fanouts[gap].size())
      return "the fan-outs below " + level_name(h, gap) + " do not match the hardware's";
  for (const LevelMapping &level : m.levels)
    if (level.factor.size() != w.dims.size())
      return std::string("a level's factors do not cover the workload's dimensions");
  return std::nullopt;
}

bool used_by(const Operator &op, int dim) {
  const std::vector<int> dims = op.dims();
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

Violation check_factors_and_orders(const Hierarchy &h, const Workload &w, const Operator &op,
                                   const OpMapping &m) {
  for (size_t l = 0; l < m.levels.size(); ++l) {
    const LevelMapping &level = m.levels[l];
    for (size_t d = 0; d < w.dims.size(); ++d) {
      const std::int64_t factor = level.factor[d];
      if (factor < 1 || (factor > 1 && !used_by(op, static_cast<int>(d))))
        return level_name(h, l) + " has factor " + std::to_string(factor) + " for " +
               quoted(w.dims[d].name) + " (expected 1 or more, and 1 for a dimension " +
               quoted(op.name) + " does not use)";
      const bool listed = std::count(level.order.begin(), level.order.end(), static_cast<int>(d));
      if (factor > 1 && !listed)
        return level_name(h, l) + " loops over " + quoted(w.dims[d].name) +
               " but its order does not list it";
    }
    std::vector<int> order = level.order;
    std::sort(order.begin(), order.end());
    if (std::adjacent_find(order.begin(), order.end()) != order.end())
      return level_name(h, l) + " lists a dimension twice in its order";
  }
  return std::nullopt;
}

/// Product of every factor of `dim` inside level 0's block (temporal and spatial).
std::int64_t inner_product(const OpMapping &m, int dim) {
  std::int64_t product = 1;
  for (size_t l = 1; l < m.levels.size(); ++l)
    product *= m.levels[l].factor[static_cast<size_t>(dim)];
  for (const std::vector<FanoutMapping> &gap : m.fanouts)
    for (const FanoutMapping &f : gap)
      product *= f.factor(dim);
  return product;
}

Violation check_padding(const Workload &w, const Operator &op, const OpMapping &m) {
  for (int d : op.dims()) {
    const std::int64_t size = w.dim_size(d), inner = inner_product(m, d);
    const std::int64_t outer = m.levels[0].factor[static_cast<size_t>(d)];
    const std::string &name = w.dims[static_cast<size_t>(d)].name;
    if (inner > size)
      return "the factors of " + quoted(name) + " inside the outermost level multiply to " +
             std::to_string(inner) + ", more than " + name + " = " + std::to_string(size);
    const std::int64_t expected = (size + inner - 1) / inner;
    if (outer != expected)
      return "the outermost level's factor of " + quoted(name) + " is " + std::to_string(outer) +
             "; with " + std::to_string(inner) + " inside it, " + name + " = " +
             std::to_string(size) + " needs " + std::to_string(expected);
  }
  return std::nullopt;
}

std::int64_t axis_product(const std::vector<std::int64_t> &factors) {
  std::int64_t product = 1;
  for (std::int64_t f : factors)
    product *= f;
  return product;
}

Violation check_fanouts(const Hierarchy &h, const Workload &w, const Operator &op,
                        const OpMapping &m) {
  for (size_t gap = 0; gap < h.fanouts.size(); ++gap)
    for (size_t f = 0; f < h.fanouts[gap].size(); ++f) {
      const Fanout &fanout = h.fanouts[gap][f];
      const FanoutMapping &map = m.fanouts[gap][f];
      if (axis_product(map.x) > fanout.x || axis_product(map.y) > fanout.y)
        return "the spatial factors of fan-out " + quoted(fanout.name) + " use " +
               std::to_string(axis_product(map.x)) + " x " + std::to_string(axis_product(map.y)) +
               " of its " + std::to_string(fanout.x) + " x " + std::to_string(fanout.y);
      for (size_t d = 0; d < w.dims.size(); ++d)
        if (map.factor(static_cast<int>(d)) > 1 && !op.einsum.output.uses(static_cast<int>(d)) &&
            !fanout.reduction)
          return "fan-out " + quoted(fanout.name) + " has no reduction network, so " +
                 quoted(w.dims[d].name) + " (summed over) cannot be spread over it";
    }
  return std::nullopt;
}

Violation check_keeps(const Hierarchy &h, const Operator &op, const OpMapping &m) {
  const std::vector<const TensorAccess *> tensors = operator_tensors(op);
  const std::uint32_t all = (1U << tensors.size()) - 1;
  if ((m.levels[0].keep & all) != all)
    return level_name(h, 0) + " must keep every tensor";
  for (size_t l = 0; l < m.levels.size(); ++l) {
    if ((m.levels[l].keep & ~all) != 0)
      return level_name(h, l) + " keeps a tensor the operator does not have";
    for (size_t t = 0; t < tensors.size(); ++t)
      if ((m.levels[l].keep >> t & 1U) != 0 && (h.levels[l].holds & tensor_role(op, t)) == 0)
        return level_name(h, l) + " may not hold " + quoted(tensors[t]->tensor) +
               " (see its 'holds')";
  }
  return std::nullopt;
}

Violation check_capacities(const Hardware &hw, const Workload &w, const Operator &op,
                           const OpMapping &m) {
  const HierCost cost = evaluate_hier_mapping(hw, w, op, m, true, LatencyModel::Roofline);
  for (size_t l = 1; l < cost.levels.size(); ++l) {
    const std::optional<std::int64_t> &capacity = hw.hierarchy.levels[l].capacity_words;
    if (capacity && cost.levels[l].buffer_words > static_cast<double>(*capacity))
      return level_name(hw.hierarchy, l) + " needs " +
             std::to_string(static_cast<long long>(cost.levels[l].buffer_words)) +
             " words per instance for its tiles, more than its capacity of " +
             std::to_string(*capacity);
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> hier_mapping_violation(const Hardware &hw, const Workload &workload,
                                                  const Operator &op, const OpMapping &mapping) {
  const Hierarchy &h = hw.hierarchy;
  if (Violation v = check_shape(h, workload, mapping))
    return v;
  if (Violation v = check_factors_and_orders(h, workload, op, mapping))
    return v;
  if (Violation v = check_padding(workload, op, mapping))
    return v;
  if (Violation v = check_fanouts(h, workload, op, mapping))
    return v;
  if (Violation v = check_keeps(h, op, mapping))
    return v;
  return check_capacities(hw, workload, op, mapping);
}

} // namespace dse
