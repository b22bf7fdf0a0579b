// Resolution of named mappings against a workload: ops to chain links, names to dims and
// tensors, then the model's legality rules.
#include "dse/model/mapping_resolution.hpp"

#include <algorithm>
#include <set>

#include "dse/ir/chain.hpp"
#include "dse/ir/sibling_stack.hpp"

namespace dse {

namespace {

const ChainLink &find_link(const Workload &w, const std::vector<ChainLink> &links,
                           const NamedValue &op) {
  for (const ChainLink &link : links)
    if (w.ops[static_cast<size_t>(link.einsum_op)].name == op.name)
      return link;
  throw UserError(op.where, "'" + op.name + "' is not an einsum op of workload '" + w.name + "'");
}

Problem segment_problem(const Workload &w, const std::vector<ChainLink> &workload_links,
                        const MappingSegmentSpec &seg) {
  const ChainLink *previous = &find_link(w, workload_links, seg.ops[0]);
  if (seg.ops.size() == 1)
    return make_single_problem(w, *previous);
  std::vector<ChainLink> links{*previous};
  for (size_t k = 1; k < seg.ops.size(); ++k) {
    const ChainLink &next = find_link(w, workload_links, seg.ops[k]);
    if (!links_follow(w, *previous, next) || !can_fuse_with_halo(w, *previous, next))
      throw UserError(seg.ops[k].where, "ops '" + seg.ops[k - 1].name + "' and '" +
                                            seg.ops[k].name +
                                            "' are not a fusable producer -> consumer pair");
    links.push_back(next);
    previous = &next;
  }
  if (const std::string why = chain_fusion_problem(w, links); !why.empty())
    throw UserError(seg.ops.back().where, "ops cannot run fused: " + why);
  return make_chain_problem(w, links);
}

int dim_of(const Problem &p, const NamedValue &name) {
  const int d = p.workload->dim_index(name.name);
  if (d < 0 || std::find(p.dims.begin(), p.dims.end(), d) == p.dims.end())
    throw UserError(name.where, "'" + name.name + "' is not a dimension of this segment");
  return d;
}

std::vector<int> dims_of(const Problem &p, const std::vector<NamedValue> &names) {
  std::vector<int> out;
  for (const NamedValue &n : names)
    out.push_back(dim_of(p, n));
  return out;
}

int op_index(const Problem &p, const std::string &name, const SourceLocation &where) {
  for (size_t o = 0; o < p.ops.size(); ++o)
    if (p.op(static_cast<int>(o)).name == name)
      return static_cast<int>(o);
  throw UserError(where, "'" + name + "' is not an op of this segment");
}

/// The link whose intermediate a cache entry names (unnamed: a pair's only one).
size_t cached_link(const Problem &p, const MappingCacheSpec &cache) {
  const NamedValue &name = cache.intermediate;
  if (name.name.empty()) {
    if (p.links.size() != 1)
      throw UserError(name.where,
                      p.links.empty()
                          ? "'cache' keeps a halo of a fused segment's intermediate; this segment "
                            "is one op"
                          : "a chain of " + std::to_string(p.ops.size()) +
                                " ops names the intermediate of each cached halo: cache: {" +
                                p.tensors[static_cast<size_t>(p.links[0].intermediate)].name +
                                ": [...], ...}");
    return 0;
  }
  for (size_t l = 0; l < p.links.size(); ++l)
    if (p.tensors[static_cast<size_t>(p.links[l].intermediate)].name == name.name)
      return l;
  throw UserError(name.where, "'" + name.name + "' is not an intermediate of this segment");
}

/// Per link, the halo dims the mapping caches (ascending).
std::vector<std::vector<int>> cached_dims(const Problem &p,
                                          const std::vector<MappingCacheSpec> &caches) {
  std::vector<std::vector<int>> out(p.links.size());
  std::vector<bool> named(p.links.size(), false);
  for (const MappingCacheSpec &cache : caches) {
    const size_t l = cached_link(p, cache);
    if (named[l])
      throw UserError(cache.intermediate.where,
                      "the cached halo of '" +
                          p.tensors[static_cast<size_t>(p.links[l].intermediate)].name +
                          "' is given twice");
    named[l] = true;
    out[l] = dims_of(p, cache.dims);
    std::sort(out[l].begin(), out[l].end());
  }
  return out;
}

Dataflow segment_dataflow(const Problem &p, const MappingSegmentSpec &seg) {
  Dataflow df;
  df.prefix = dims_of(p, seg.prefix);
  df.cached = cached_dims(p, seg.cache);
  df.subnests.resize(p.ops.size());
  for (const auto &[op, loops] : seg.loops)
    df.subnests[static_cast<size_t>(op_index(p, op, seg.where))] = dims_of(p, loops);
  df.retention.assign(p.tensors.size(), -1);
  for (const auto &[tensor, depth] : seg.retention) {
    auto it = std::find_if(p.tensors.begin(), p.tensors.end(),
                           [&name = tensor](const ProblemTensor &t) { return t.name == name; });
    if (it == p.tensors.end())
      throw UserError(depth.second, "'" + tensor + "' is not a tensor of this segment");
    df.retention[static_cast<size_t>(it - p.tensors.begin())] = depth.first;
  }
  for (size_t t = 0; t < p.tensors.size(); ++t)
    if (df.retention[t] < 0)
      throw UserError(seg.where, "missing retention depth of tensor '" + p.tensors[t].name + "'");
  return df;
}

std::vector<SpatialMapping> segment_spatial(const Problem &p, const MappingSegmentSpec &seg) {
  std::vector<SpatialMapping> out(p.ops.size());
  std::vector<bool> given(p.ops.size(), false);
  auto dim_or_none = [&](const NamedValue &n) { return n.name == "-" ? -1 : dim_of(p, n); };
  for (const auto &[op, pair] : seg.spatial) {
    const auto o = static_cast<size_t>(op_index(p, op, pair.first.where));
    out[o] = {dim_or_none(pair.first), dim_or_none(pair.second)};
    given[o] = true;
    for (const auto &[d, name] :
         {std::pair{out[o].row_dim, &pair.first}, std::pair{out[o].col_dim, &pair.second}})
      if (d >= 0 && std::find(p.ops[o].tiled_dims.begin(), p.ops[o].tiled_dims.end(), d) ==
                        p.ops[o].tiled_dims.end())
        throw UserError(name->where, "spatial dimension '" + p.dim_name(d) +
                                         "' is not a tiled dimension of op '" + op + "'");
  }
  for (size_t o = 0; o < p.ops.size(); ++o)
    if (!given[o])
      throw UserError(seg.where,
                      "missing spatial mapping of op '" + p.op(static_cast<int>(o)).name + "'");
  return out;
}

Tiling segment_tiling(const Problem &p, const MappingSegmentSpec &seg) {
  Tiling tiling;
  for (const Dimension &d : p.workload->dims)
    tiling.tile.push_back(d.size);
  std::set<int> given;
  for (const auto &[name, value] : seg.tiles) {
    const int d = dim_of(p, {name, value.second});
    const std::int64_t size = p.workload->dim_size(d);
    if (value.first > size)
      throw UserError(value.second, "tile of '" + name + "' is " + std::to_string(value.first) +
                                        ", larger than the dimension (" + std::to_string(size) +
                                        ")");
    if (p.is_window[static_cast<size_t>(d)] && value.first != size)
      throw UserError(value.second, "'" + name +
                                        "' is a filter window dimension and is kept whole (" +
                                        std::to_string(size) + ")");
    if (!p.counts_tile_exactly(d, value.first))
      throw UserError(value.second,
                      "tile " + std::to_string(value.first) + " of '" + name +
                          "' leaves a first or last tile so narrow that the next window reads the "
                          "padding that the windows composed down the chain read too (only the "
                          "first and last windows may)");
    tiling.tile[static_cast<size_t>(d)] = value.first;
    given.insert(d);
  }
  for (int d : p.dims)
    if (!p.is_window[static_cast<size_t>(d)] && !given.count(d))
      throw UserError(seg.where, "missing tile size of dimension '" + p.dim_name(d) + "'");
  return tiling;
}

} // namespace

std::vector<ResolvedSegment> resolve_mapping(const Workload &workload, const MappingSpec &spec) {
  if (!spec.workload.empty() && spec.workload != workload.name)
    throw UserError(SourceLocation{spec.source_file, 0, 0},
                    "mapping is for workload '" + spec.workload + "', not '" + workload.name + "'");
  const std::vector<ChainLink> links = workload_links(workload);
  std::vector<ResolvedSegment> out;
  std::set<int> mapped; // the workload's own einsums
  for (const MappingSegmentSpec &seg : spec.segments) {
    for (const NamedValue &op : seg.ops)
      for (int e : computed_einsums(workload, find_link(workload, links, op).einsum_op))
        if (const std::string &name = workload.ops[static_cast<size_t>(e)].name;
            !mapped.insert(e).second)
          throw UserError(op.where, "op '" + name + "' is mapped twice" +
                                        (name == op.name ? "" : " (here by '" + op.name + "')"));
    Problem problem = segment_problem(workload, links, seg);
    Candidate candidate{segment_dataflow(problem, seg), segment_spatial(problem, seg)};
    if (const std::string why = legality_problem(problem, candidate.dataflow); !why.empty())
      throw UserError(seg.where, "illegal mapping: " + why);
    Tiling tiling = segment_tiling(problem, seg);
    out.push_back({std::move(problem), std::move(candidate), std::move(tiling)});
  }
  for (size_t o = 0; o < workload.ops.size(); ++o)
    if (const Operator &op = workload.ops[o];
        op.kind == OpKind::Einsum && op.stacked.empty() && !mapped.count(static_cast<int>(o)))
      throw UserError(SourceLocation{spec.source_file, 0, 0},
                      "op '" + op.name + "' is not mapped by any segment");
  return out;
}

} // namespace dse
