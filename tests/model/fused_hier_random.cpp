// Random fused chains, hierarchies and legal fused mappings for the fused hierarchical model's
// tests, and a description of a case for failure messages.
#include "model/fused_hier_random.hpp"

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/support/check.hpp"

namespace dse::fused_hier_random {

namespace {

using hier_random::coin;
using hier_random::uniform;

Workload random_chain(std::mt19937_64 &rng, ChainKind kind) {
  using test_common::dim;
  const bool batched = kind == ChainKind::BatchedGemm;
  const std::int64_t most = batched ? 4 : 6;
  std::string dims = batched ? dim("b", uniform(rng, 1, 3)) : "";
  for (const char *name : {"m", "k", "n", "l"})
    dims += (dims.empty() ? "" : ", ") + dim(name, uniform(rng, 1, most));
  const std::string b = batched ? "b," : "";
  return parse_workload(
      test_common::workload_header(batched ? "random-batched-chain" : "random-chain", dims) +
          "  - {name: mm1, einsum: \"H[" + b + "m,n] += A[" + b + "m,k] * B[" + b + "k,n]\"}\n" +
          "  - {name: mm2, einsum: \"Z[" + b + "m,l] += H[" + b + "m,n] * C[" + b + "n,l]\"}\n",
      "random.yaml");
}

/// A random hierarchy of hier_random's, but with one instance of level 1 that holds everything.
Hardware fused_hardware(std::mt19937_64 &rng, const hier_random::HierarchyLimits &limits) {
  Hardware hw = hier_random::random_hardware(rng, limits);
  hw.hierarchy.fanouts[0].clear();
  hw.hierarchy.levels[1].holds = role::kAll;
  return hw;
}

bool contains(const std::vector<int> &v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// The retention depths legality_problem allows on `path` for `access`: 0, and right below each
/// loop of a dimension it uses.
std::vector<int> meaningful_depths(const std::vector<int> &path, const TensorAccess &access) {
  std::vector<int> depths{0};
  for (size_t j = 0; j < path.size(); ++j)
    if (access.uses(path[j]))
      depths.push_back(static_cast<int>(j) + 1);
  return depths;
}

/// The intermediate's legal depths in `prefix`: meaningful and below every recompute loop.
std::vector<int> intermediate_depths(const Problem &problem, const std::vector<int> &prefix) {
  int deepest_recompute = 0; // one past the position of the innermost recompute loop
  for (size_t i = 0; i < prefix.size(); ++i)
    if (contains(problem.recompute_dims, prefix[i]))
      deepest_recompute = static_cast<int>(i) + 1;
  std::vector<int> depths = meaningful_depths(
      prefix, problem.tensors[static_cast<size_t>(problem.links.front().intermediate)].access);
  std::erase_if(depths, [&](int depth) { return depth < deepest_recompute; });
  return depths;
}

int pick(std::mt19937_64 &rng, const std::vector<int> &choices) {
  return choices[static_cast<size_t>(
      uniform(rng, 0, static_cast<std::int64_t>(choices.size()) - 1))];
}

/// A random prefix (a subset of the prefix dimensions in random order, drawn again until the
/// intermediate has a legal depth), sub-nests of the remaining dimensions in random order and a
/// random legal retention depth per tensor.
Dataflow random_outer(std::mt19937_64 &rng, const Problem &problem) {
  Dataflow outer;
  do {
    outer.prefix.clear();
    for (int d : problem.prefix_dims)
      if (coin(rng))
        outer.prefix.push_back(d);
    std::shuffle(outer.prefix.begin(), outer.prefix.end(), rng);
  } while (intermediate_depths(problem, outer.prefix).empty());
  for (const ProblemOp &op : problem.ops) {
    outer.subnests.emplace_back();
    for (int d : op.tiled_dims)
      if (!contains(outer.prefix, d))
        outer.subnests.back().push_back(d);
    std::shuffle(outer.subnests.back().begin(), outer.subnests.back().end(), rng);
  }
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    const ProblemTensor &tensor = problem.tensors[t];
    outer.retention.push_back(
        tensor.role == TensorRole::Intermediate
            ? pick(rng, intermediate_depths(problem, outer.prefix))
            : pick(rng, meaningful_depths(outer.path(tensor.owner), tensor.access)));
  }
  outer.cached.assign(problem.links.size(), {}); // bare pairs: no halo
  return outer;
}

/// Per workload dimension, a random level-1 extent: the whole size one time in three, else from
/// 1 to the size.
std::vector<std::int64_t> random_level1_extents(std::mt19937_64 &rng, const Workload &workload) {
  std::vector<std::int64_t> extents;
  for (const Dimension &d : workload.dims)
    extents.push_back(uniform(rng, 0, 2) == 0 ? d.size : uniform(rng, 1, d.size));
  return extents;
}

/// Problem op `o`'s mapping: level 0 loops the outer path with the level-0 trips, each level-1
/// extent is split over the blocks 1..L and the fan-outs below level 1, random orders below
/// level 0, every tensor kept at levels 0 and 1 and a random subset within holds below.
OpMapping random_op_mapping(std::mt19937_64 &rng, const Hierarchy &hierarchy,
                            const Problem &problem, const Dataflow &outer, int o,
                            const std::vector<std::int64_t> &level1_extents) {
  const Workload &workload = *problem.workload;
  const Operator &op = problem.op(o);
  OpMapping mapping = hier_random::unit_mapping(hierarchy, workload.dims.size());
  for (int dim : op.dims()) {
    const auto d = static_cast<size_t>(dim);
    const std::int64_t size = workload.dim_size(dim);
    mapping.levels[0].factor[d] = (size + level1_extents[d] - 1) / level1_extents[d];
    hier_random::spread_factor(rng, hierarchy, mapping, dim, level1_extents[d],
                               !op.einsum.output.uses(dim), 1);
  }
  mapping.levels[0].order = fused_level0_order(problem, outer, o);
  const size_t tensors = operator_tensors(op).size();
  const std::uint32_t every = (1u << tensors) - 1;
  for (size_t l = 0; l < mapping.levels.size(); ++l) {
    LevelMapping &level = mapping.levels[l];
    if (l > 0)
      level.order = hier_random::random_order(rng, level, op);
    level.keep = l <= 1 ? every : hier_random::random_keep(rng, hierarchy.levels[l], op, tensors);
  }
  return mapping;
}

std::string dims_text(const std::vector<int> &dims, const Workload &workload) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i)
    text += (i > 0 ? "," : "") + workload.dims[static_cast<size_t>(dims[i])].name;
  return text + "]";
}

} // namespace

Problem fused_problem(const Case &c) {
  const std::vector<Chain> chains = chain_splits(c.workload).front();
  DSE_CHECK(chains.size() == 1 && chains[0].links.size() == 2,
            "a case is one producer-consumer chain");
  return make_fused_problem(c.workload, chains[0].links[0], chains[0].links[1]);
}

Case random_case(std::uint64_t seed, ChainKind kind, const hier_random::HierarchyLimits &limits) {
  std::mt19937_64 rng(seed);
  Case c{fused_hardware(rng, limits), random_chain(rng, kind), {}};
  const Problem problem = fused_problem(c);
  c.mapping.outer = random_outer(rng, problem);
  const std::vector<std::int64_t> extents = random_level1_extents(rng, c.workload);
  for (int o = 0; o < 2; ++o)
    c.mapping.ops.push_back(
        random_op_mapping(rng, c.hardware.hierarchy, problem, c.mapping.outer, o, extents));
  return c;
}

std::string describe(const Case &c) {
  const Problem problem = fused_problem(c);
  const Dataflow &outer = c.mapping.outer;
  std::ostringstream text;
  for (int o = 0; o < 2; ++o)
    text << (o > 0 ? "; " : "") << hier_random::einsum_text(problem.op(o), c.workload);
  text << " with";
  for (const Dimension &d : c.workload.dims)
    text << " " << d.name << d.size;
  text << "\n  prefix " << dims_text(outer.prefix, c.workload);
  for (int o = 0; o < 2; ++o)
    text << " | " << problem.op(o).name << " "
         << dims_text(outer.subnests[static_cast<size_t>(o)], c.workload);
  text << " | retention";
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    text << " " << problem.tensors[t].name << "@" << outer.retention[t];
  for (int o = 0; o < 2; ++o)
    text << "\n  " << problem.op(o).name << ":"
         << hier_random::mapping_text(c.hardware.hierarchy, c.mapping.ops[static_cast<size_t>(o)],
                                      problem.op(o), c.workload);
  return text.str();
}

} // namespace dse::fused_hier_random
