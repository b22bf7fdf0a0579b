// The legality rules of a fused pair's mapping on a hierarchy of any depth (docs/HIERARCHY.md §8).
#include "dse/model/fused_hier_mapping.hpp"

#include <algorithm>

#include "dse/model/hier_mapping_check.hpp"

namespace dse {

namespace {

using Violation = std::optional<std::string>;

std::uint32_t every_tensor(const Operator &op) {
  return (std::uint32_t{1} << operator_tensors(op).size()) - 1;
}

Violation check_operator(const Hardware &hw, const Problem &problem, const FusedHierMapping &m,
                         int o) {
  const Operator &op = problem.op(o);
  const OpMapping &mapping = m.ops[static_cast<size_t>(o)];
  if (Violation v = hier_mapping_structure_violation(hw, *problem.workload, op, mapping))
    return "operator '" + op.name + "': " + *v;
  if (fans_out_below_level0(mapping, problem.ops[static_cast<size_t>(o)].dims))
    return "operator '" + op.name +
           "' uses a fan-out between levels 0 and 1 (a fused pair runs "
           "on one instance of level 1)";
  if (mapping.levels[0].order != fused_level0_order(problem, m.outer, o))
    return "operator '" + op.name + "': level 0's order is not the fused loop tree's path";
  if (mapping.levels[1].keep != every_tensor(op))
    return "operator '" + op.name + "': level 1 must keep every tensor of a fused pair";
  return std::nullopt;
}

Violation check_shared_dims(const Problem &problem, const FusedHierMapping &m) {
  for (int d : problem.ops[0].dims) {
    const std::vector<int> &consumer = problem.ops[1].dims;
    if (std::find(consumer.begin(), consumer.end(), d) == consumer.end())
      continue;
    const auto at = static_cast<size_t>(d);
    if (fused_level1_extent(m.ops[0], d) != fused_level1_extent(m.ops[1], d) ||
        m.ops[0].levels[0].factor[at] != m.ops[1].levels[0].factor[at])
      return "dimension '" + problem.dim_name(d) +
             "' has different level-1 tiles in the two operators";
  }
  return std::nullopt;
}

} // namespace

std::int64_t fused_level1_extent(const OpMapping &m, int dim) {
  std::int64_t extent = 1;
  for (size_t l = 1; l < m.levels.size(); ++l)
    extent *= m.levels[l].factor[static_cast<size_t>(dim)];
  for (size_t gap = 1; gap < m.fanouts.size(); ++gap)
    for (const FanoutMapping &f : m.fanouts[gap])
      extent *= f.factor(dim);
  return extent;
}

bool fans_out_below_level0(const OpMapping &m, const std::vector<int> &dims) {
  for (const FanoutMapping &f : m.fanouts.front())
    for (int d : dims)
      if (f.factor(d) > 1)
        return true;
  return false;
}

std::vector<int> fused_level0_order(const Problem &problem, const Dataflow &outer, int o) {
  std::vector<int> order = outer.path(o);
  const std::vector<int> &dims = problem.ops[static_cast<size_t>(o)].dims;
  std::erase_if(order, [&](int d) { return std::find(dims.begin(), dims.end(), d) == dims.end(); });
  return order;
}

std::string fused_hier_mapping_problem(const Hardware &hw, const Problem &problem,
                                       const FusedHierMapping &mapping) {
  if (!problem.fused() || mapping.ops.size() != 2)
    return "a fused mapping needs a fused pair and one mapping per operator";
  if (hw.hierarchy.levels.size() < 2)
    return "a fused pair needs an on-chip level to hold its intermediate";
  if (std::string why = legality_problem(problem, mapping.outer); !why.empty())
    return why;
  for (int o = 0; o < 2; ++o)
    if (Violation v = check_operator(hw, problem, mapping, o))
      return *v;
  if (Violation v = check_shared_dims(problem, mapping))
    return *v;
  return {};
}

} // namespace dse
