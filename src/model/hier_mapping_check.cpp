// Legality of one operator's mapping on a hierarchy of any depth: each rule is one function that
// returns the first violation it finds, in the words a user reads. The mapspace constraints are
// bound to the operator here, for this check and for the search.
#include "dse/model/hier_mapping_check.hpp"

#include <algorithm>
#include <sstream>

#include "dse/model/hier_cost.hpp"

namespace dse {

namespace {

[[noreturn]] void unknown_name(const MapspaceName &n, const std::string &kind, const Workload &w) {
  throw UserError(n.where, "mapspace constraint names " + kind + " '" + n.name +
                               "', which workload '" + w.name + "' does not have");
}

bool used_by(const Operator &op, int dim) {
  const std::vector<int> dims = op.dims();
  return std::find(dims.begin(), dims.end(), dim) != dims.end();
}

/// The workload dimension `n` names, or -1 when `op` does not use it.
int bound_dim(const MapspaceName &n, const Workload &w, const Operator &op) {
  const int d = w.dim_index(n.name);
  if (d < 0)
    unknown_name(n, "dimension", w);
  return used_by(op, d) ? d : -1;
}

bool workload_has_tensor(const Workload &w, const std::string &name) {
  for (const Operator &op : w.ops)
    for (const TensorAccess *t :
         op.kind == OpKind::Einsum ? operator_tensors(op) : OperatorTensors{})
      if (t->tensor == name)
        return true;
  return false;
}

/// Bits of `op`'s tensors that have one of `roles` or are named in `names`.
std::uint32_t bound_tensors(std::uint8_t roles, const std::vector<MapspaceName> &names,
                            const Workload &w, const Operator &op) {
  for (const MapspaceName &n : names)
    if (!workload_has_tensor(w, n.name))
      unknown_name(n, "tensor", w);
  const OperatorTensors tensors = operator_tensors(op);
  std::uint32_t bits = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    const bool named = std::any_of(names.begin(), names.end(), [&](const MapspaceName &n) {
      return n.name == tensors[t]->tensor;
    });
    if (named || (tensor_role(op, t) & roles) != 0)
      bits |= 1U << t;
  }
  return bits;
}

std::string quoted(const std::string &name) { return "'" + name + "'"; }

std::string rule_text(const MapspaceRule &r) {
  return "the mapspace constraint at " + r.where.file + ":" + std::to_string(r.where.line) + ":" +
         std::to_string(r.where.column);
}

/// Fails when the operator's tensor the rule keeps is one the level may not hold, or one it also
/// bypasses (a tensor named once by name and once by role).
void check_keep_bits(const LevelConstraint &c, const StorageLevel &level, const Operator &op) {
  const OperatorTensors tensors = operator_tensors(op);
  for (size_t t = 0; t < tensors.size(); ++t) {
    if ((c.keep >> t & 1U) == 0)
      continue;
    const std::string what = quoted(tensors[t]->tensor) + " of " + quoted(op.name);
    if ((c.bypass >> t & 1U) != 0)
      throw UserError(c.rule->where, "mapspace constraint keeps and bypasses " + what);
    if ((level.holds & tensor_role(op, t)) == 0)
      throw UserError(c.rule->where, "mapspace constraint keeps " + what + " at level " +
                                         quoted(level.name) + ", which may not hold it");
  }
}

LevelConstraint bind_level(const MapspaceRule &r, const StorageLevel &level, const Workload &w,
                           const Operator &op) {
  LevelConstraint c;
  c.rule = &r;
  c.keep = bound_tensors(r.keep_roles, r.keep_tensors, w, op);
  c.bypass = bound_tensors(r.bypass_roles, r.bypass_tensors, w, op);
  check_keep_bits(c, level, op);
  c.factor.assign(w.dims.size(), 0);
  for (const auto &[name, factor] : r.factors)
    if (const int d = bound_dim(name, w, op); d >= 0)
      c.factor[static_cast<size_t>(d)] = factor;
  for (const MapspaceName &name : r.order)
    if (const int d = bound_dim(name, w, op); d >= 0)
      c.order.push_back(d);
  return c;
}

std::uint64_t bound_axis(const std::optional<std::vector<MapspaceName>> &names, const Workload &w,
                         const Operator &op) {
  if (!names)
    return ~std::uint64_t{0};
  std::uint64_t bits = 0;
  for (const MapspaceName &name : *names)
    if (const int d = bound_dim(name, w, op); d >= 0)
      bits |= std::uint64_t{1} << d;
  return bits;
}

FanoutConstraint bind_fanout(const MapspaceRule &r, const Workload &w, const Operator &op) {
  return {bound_axis(r.x, w, op), bound_axis(r.y, w, op), r.one_axis_per_dim, r.min_utilisation,
          &r};
}

} // namespace

BoundMapspace bind_mapspace(const Hierarchy &h, const Workload &workload, const Operator &op) {
  BoundMapspace b;
  b.levels.resize(h.levels.size());
  for (LevelConstraint &c : b.levels)
    c.factor.assign(workload.dims.size(), 0);
  for (const std::vector<Fanout> &gap : h.fanouts)
    b.fanouts.emplace_back(gap.size());
  for (const MapspaceRule &r : h.mapspace) {
    const auto at = static_cast<size_t>(r.level);
    if (r.on_level)
      b.levels[at] = bind_level(r, h.levels[at], workload, op);
    else
      b.fanouts[at][static_cast<size_t>(r.fanout)] = bind_fanout(r, workload, op);
  }
  return b;
}

bool order_allowed(const LevelConstraint &c, const std::vector<int> &loops) {
  size_t last = 0;
  for (int d : loops) {
    const auto at =
        static_cast<size_t>(std::find(c.order.begin(), c.order.end(), d) - c.order.begin());
    if (at == c.order.size())
      continue;
    if (at < last)
      return false;
    last = at;
  }
  return true;
}

bool utilisation_allowed(const FanoutConstraint &c, const Fanout &fanout, std::int64_t used) {
  return static_cast<double>(used) >= c.min_utilisation * static_cast<double>(fanout.size());
}

namespace {

using Violation = std::optional<std::string>;

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
  const OperatorTensors tensors = operator_tensors(op);
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

/// The first tensor bit set in `bits`, by name.
std::string first_tensor(std::uint32_t bits, const Operator &op) {
  const OperatorTensors tensors = operator_tensors(op);
  size_t t = 0;
  while ((bits >> t & 1U) == 0)
    ++t;
  return quoted(tensors[t]->tensor);
}

std::string dims_text(const Workload &w, const std::vector<int> &dims) {
  std::string text;
  for (int d : dims)
    text += (text.empty() ? "" : ", ") + w.dims[static_cast<size_t>(d)].name;
  return text;
}

Violation check_level_rule(const Hierarchy &h, const Workload &w, const Operator &op,
                           const LevelMapping &m, size_t l, const LevelConstraint &c) {
  const std::string by = rule_text(*c.rule);
  if (const std::uint32_t missing = c.keep & ~m.keep; missing != 0)
    return level_name(h, l) + " does not keep " + first_tensor(missing, op) + ", which " + by +
           " keeps";
  if (const std::uint32_t kept = c.bypass & m.keep; kept != 0)
    return level_name(h, l) + " keeps " + first_tensor(kept, op) + ", which " + by + " bypasses";
  for (size_t d = 0; d < w.dims.size(); ++d)
    if (c.factor[d] != 0 && m.factor[d] != c.factor[d])
      return level_name(h, l) + " has factor " + std::to_string(m.factor[d]) + " for " +
             quoted(w.dims[d].name) + ", which " + by + " fixes to " + std::to_string(c.factor[d]);
  std::vector<int> loops;
  for (int d : m.order)
    if (m.factor[static_cast<size_t>(d)] > 1)
      loops.push_back(d);
  if (!order_allowed(c, loops))
    return level_name(h, l) + " orders its loops " + dims_text(w, loops) +
           " (outermost first), against the order " + dims_text(w, c.order) + " of " + by;
  return std::nullopt;
}

std::string utilisation_text(double share) {
  std::ostringstream out;
  out << share;
  return out.str();
}

Violation check_fanout_rule(const Fanout &fanout, const Workload &w, const FanoutMapping &m,
                            const FanoutConstraint &c) {
  const std::string by = rule_text(*c.rule);
  const std::string name = "fan-out " + quoted(fanout.name);
  for (size_t d = 0; d < w.dims.size(); ++d) {
    const std::string dim = quoted(w.dims[d].name);
    if (m.x[d] > 1 && (c.x >> d & 1U) == 0)
      return name + " spreads " + dim + " over x, which " + by + " does not allow";
    if (m.y[d] > 1 && (c.y >> d & 1U) == 0)
      return name + " spreads " + dim + " over y, which " + by + " does not allow";
    if (m.x[d] > 1 && m.y[d] > 1 && c.one_axis_per_dim)
      return name + " spreads " + dim + " over both axes, against one_axis_per_dim of " + by;
  }
  const std::int64_t used = axis_product(m.x) * axis_product(m.y);
  if (!utilisation_allowed(c, fanout, used))
    return name + " uses " + std::to_string(used) + " of its " + std::to_string(fanout.size()) +
           " units, below min_utilisation " + utilisation_text(c.min_utilisation) + " of " + by;
  return std::nullopt;
}

Violation check_mapspace(const Hierarchy &h, const Workload &w, const Operator &op,
                         const OpMapping &m) {
  const BoundMapspace bound = bind_mapspace(h, w, op);
  for (size_t l = 0; l < h.levels.size(); ++l)
    if (bound.levels[l].rule)
      if (Violation v = check_level_rule(h, w, op, m.levels[l], l, bound.levels[l]))
        return v;
  for (size_t gap = 0; gap < h.fanouts.size(); ++gap)
    for (size_t f = 0; f < h.fanouts[gap].size(); ++f)
      if (const FanoutConstraint &c = bound.fanouts[gap][f]; c.rule)
        if (Violation v = check_fanout_rule(h.fanouts[gap][f], w, m.fanouts[gap][f], c))
          return v;
  return std::nullopt;
}

Violation check_capacities(const Hardware &hw, const Workload &w, const Operator &op,
                           const OpMapping &m) {
  return hier_capacity_violation(hw,
                                 evaluate_hier_mapping(hw, w, op, m, true, LatencyModel::Roofline));
}

} // namespace

std::optional<std::string> hier_capacity_violation(const Hardware &hw, const HierCost &cost) {
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

std::optional<std::string> hier_mapping_structure_violation(const Hardware &hw,
                                                            const Workload &workload,
                                                            const Operator &op,
                                                            const OpMapping &mapping) {
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
  return check_mapspace(h, workload, op, mapping);
}

std::optional<std::string> hier_mapping_violation(const Hardware &hw, const Workload &workload,
                                                  const Operator &op, const OpMapping &mapping) {
  if (Violation v = hier_mapping_structure_violation(hw, workload, op, mapping))
    return v;
  return check_capacities(hw, workload, op, mapping);
}

} // namespace dse
