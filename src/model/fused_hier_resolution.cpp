// Resolution of a fused segment of a hierarchical mapping file into a fused problem and mapping.
#include "dse/model/fused_hier_resolution.hpp"

#include <algorithm>

#include "dse/ir/chain.hpp"

namespace dse {

namespace {

/// The chain links of the producer and the consumer, when the consumer reads the producer's
/// result and the pair can be fused.
std::pair<ChainLink, ChainLink> fused_links(const Workload &workload, const HierSegmentMapping &s) {
  const Operator &producer = workload.ops[static_cast<size_t>(s.op)];
  const Operator &consumer = workload.ops[static_cast<size_t>(s.fused->consumer)];
  const std::vector<ChainLink> links = workload_links(workload);
  const auto link_of = [&](int op) {
    return std::find_if(links.begin(), links.end(),
                        [&](const ChainLink &l) { return l.einsum_op == op; });
  };
  const auto first = link_of(s.op), second = link_of(s.fused->consumer);
  if (first != links.end() && second != links.end() && links_follow(workload, *first, *second)) {
    if (!can_fuse(workload, *first, *second))
      throw UserError(s.where, "'" + producer.name + "' and '" + consumer.name +
                                   "' cannot be fused: the consumer reads the intermediate "
                                   "through a window");
    return {*first, *second};
  }
  throw UserError(s.where, "'" + consumer.name + "' does not read the result of '" + producer.name +
                               "': a fused segment names a producer, then its consumer");
}

/// The file's sub-nest of operator `o`, then its other tiled dimensions outside the prefix.
std::vector<int> subnest(const Problem &problem, const OpMapping &mapping, int o,
                         const std::vector<int> &prefix) {
  std::vector<int> loops = mapping.levels[0].order;
  for (int d : problem.ops[static_cast<size_t>(o)].tiled_dims)
    if (std::find(prefix.begin(), prefix.end(), d) == prefix.end() &&
        std::find(loops.begin(), loops.end(), d) == loops.end())
      loops.push_back(d);
  return loops;
}

std::vector<int> retention_depths(const Problem &problem, const HierSegmentMapping &s) {
  std::vector<int> depth(problem.tensors.size(), -1);
  std::string names;
  for (const ProblemTensor &t : problem.tensors)
    names += (names.empty() ? "'" : ", '") + t.name + "'";
  for (const HierRetention &r : s.fused->retention) {
    const auto at = std::find_if(problem.tensors.begin(), problem.tensors.end(),
                                 [&r](const ProblemTensor &t) { return t.name == r.tensor; });
    if (at == problem.tensors.end())
      throw UserError(r.where, "'" + r.tensor + "' is not a tensor of the pair (" + names + ")");
    depth[static_cast<size_t>(at - problem.tensors.begin())] = r.depth;
  }
  for (size_t t = 0; t < depth.size(); ++t)
    if (depth[t] < 0)
      throw UserError(s.where,
                      "missing retention depth of tensor '" + problem.tensors[t].name + "'");
  return depth;
}

} // namespace

FusedHierSegment resolve_fused_hier_segment(const Hardware &hw, const Workload &workload,
                                            const HierSegmentMapping &segment) {
  const auto [producer, consumer] = fused_links(workload, segment);
  FusedHierSegment out{make_fused_problem(workload, producer, consumer), {}};
  const Problem &p = out.problem;
  FusedHierMapping &m = out.mapping;
  m.ops = {segment.mapping, segment.fused->consumer_mapping};
  m.outer.prefix = segment.fused->prefix;
  for (int o = 0; o < 2; ++o)
    m.outer.subnests.push_back(subnest(p, m.ops[static_cast<size_t>(o)], o, m.outer.prefix));
  m.outer.retention = retention_depths(p, segment);
  m.outer.cached.assign(p.links.size(), {}); // pairs fused through bare indices: no halo
  for (int o = 0; o < 2; ++o)
    m.ops[static_cast<size_t>(o)].levels[0].order = fused_level0_order(p, m.outer, o);
  if (const std::string why = fused_hier_mapping_problem(hw, p, m); !why.empty())
    throw UserError(segment.where, why);
  return out;
}

} // namespace dse
