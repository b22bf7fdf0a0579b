// Reads mapping YAML for a hierarchy of any depth (docs/HIERARCHY.md §3.2), one operator per
// segment, and checks it against the hardware and the workload. Format:
//
//   workload: gemm-64                        # optional; must match the workload's name
//   segments:                                # every einsum operator exactly once
//     - ops: [gemm]                          # one einsum operator
//       levels:                              # the hardware's levels and fan-outs, in its order
//         - {level: DRAM, order: [m, k, n], factors: {m: 2, k: 2, n: 2}}
//         - {level: GB, order: [m, k, n], factors: {m: 2, k: 4, n: 2}, keep: [A, B, Z]}
//         - {fanout: mesh, x: {n: 4}, y: {m: 4}}
//         - {level: RF, order: [m, n, k], factors: {m: 4, n: 4, k: 8}, bypass: [A, B]}
//
// factors, x and y map dimensions of the operator to integers >= 1; a dimension left out has
// factor 1. The factors of a dimension below the backing store (every later level's and every
// fan-out's) multiply to at most its size; the backing store's factor is the size over that
// product, rounded up (the dimension is padded), and may be given only with that value. Per
// fan-out, the x factors multiply to at most its x and the y factors to at most its y; a fan-out
// with reduction: false takes no factor above 1 of a dimension that does not index the output.
// order lists distinct dimensions of the operator, outer to inner, and must include every
// dimension whose factor at that level is above 1 (other dimensions may be listed; they are not
// loops and are dropped); it may be left out when at most one dimension has a factor above 1.
// keep or bypass (not both) name tensors of the operator. Every on-chip level needs one of them,
// and a kept tensor's role (operand0, operand1 or output) must be in the level's holds. The
// backing store keeps every tensor: there, keep or bypass is accepted only when it says so
// (keep listing every tensor, or bypass listing none).
//
// A fused producer -> consumer pair (docs/HIERARCHY.md §8) is one segment:
//
//     - ops: [qk, pv]                        # the producer, then its consumer
//       prefix: [m]                          # shared loops at the backing store, outer to inner
//       retention: {Q: 1, K: 0, S: 1, V: 0, O: 1}   # level-1 tile depth per tensor
//       levels:                              # per operator, its levels and fan-outs as above
//         qk: [{level: DRAM, order: [n, k]}, {level: GB, keep: [Q, K, S], ...}, ...]
//         pv: [{level: DRAM, order: [n, l]}, ...]
//
// There the backing store's order is the operator's own loops below the prefix (its sub-nest);
// it lists every dimension outside the prefix whose factor there is above 1, and no prefix
// dimension. Prefix dimensions and retention depths are checked when the pair is resolved
// (dse/model/fused_hier_resolution.hpp).
#include "dse/config/hier_mapping_loader.hpp"

#include <algorithm>
#include <set>

#include "dse/ir/sibling_stack.hpp"
#include "hierarchy_loader.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

/// A tensor of the operator, in the order OpMapping's keep bits index them, with its role.
struct OpTensor {
  std::string name;
  std::uint8_t role = 0;
};

std::vector<OpTensor> op_tensors(const Operator &op) {
  std::vector<OpTensor> tensors;
  const OperatorTensors accesses = operator_tensors(op);
  for (size_t i = 0; i < accesses.size(); ++i)
    tensors.push_back({accesses[i]->tensor, tensor_role(op, i)});
  return tensors;
}

std::string kind_text(OpKind kind) {
  switch (kind) {
  case OpKind::Einsum:
    return "an einsum";
  case OpKind::Softmax:
    return "a softmax";
  case OpKind::Elementwise:
    return "an elementwise operator";
  }
  return "an operator";
}

/// What the entries of one segment are checked against.
struct SegmentContext {
  const Hardware &hw;
  const Workload &workload;
  const Operator &op;
  std::vector<OpTensor> tensors;

  const std::string &dim_name(int dim) const {
    return workload.dims[static_cast<size_t>(dim)].name;
  }
};

std::string quoted_list(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "'" : ", '") + name + "'";
  return text;
}

int op_dim(const YamlMap &m, const YAML::Node &at, const std::string &name,
           const SegmentContext &c) {
  const int dim = c.workload.dim_index(name);
  const std::vector<int> dims = c.op.dims();
  if (dim < 0 || std::find(dims.begin(), dims.end(), dim) == dims.end())
    m.fail(at, "'" + name + "' is not a dimension of operator '" + c.op.name + "'");
  return dim;
}

/// The map under `key` (factors, x or y) per workload dimension, 1 where not given.
std::vector<std::int64_t> dim_factors(const YamlMap &m, std::string_view key,
                                      const SegmentContext &c) {
  std::vector<std::int64_t> factor(c.workload.dims.size(), 1);
  if (!m.has(key))
    return factor;
  const YamlMap map = m.map(key, std::string(key) + " of " + m.context());
  for (const auto &[name, value] : map.entries())
    factor[static_cast<size_t>(op_dim(map, name, name.Scalar(), c))] =
        map.integer_value(value, name.Scalar(), 1, kMaxDimensionSize);
  return factor;
}

std::vector<int> read_order(const YamlMap &m, const SegmentContext &c) {
  if (!m.has("order"))
    return {};
  std::vector<int> order;
  for (const YAML::Node &item : m.list("order")) {
    const int dim = op_dim(m, item, m.string_value(item, "order"), c);
    if (std::find(order.begin(), order.end(), dim) != order.end())
      m.fail(item, "'" + item.Scalar() + "' appears twice in order");
    order.push_back(dim);
  }
  return order;
}

/// Bits of the tensors named under `key` (keep or bypass).
std::uint32_t tensor_bits(const YamlMap &m, const std::string &key, const SegmentContext &c) {
  std::uint32_t bits = 0;
  for (const YAML::Node &item : m.list(key)) {
    const std::string name = m.string_value(item, key);
    std::uint32_t named = 0;
    for (size_t i = 0; i < c.tensors.size(); ++i)
      if (c.tensors[i].name == name)
        named |= std::uint32_t{1} << i;
    if (named == 0)
      m.fail(item, "'" + name + "' is not a tensor of operator '" + c.op.name + "'");
    if (bits & named)
      m.fail(item, "'" + name + "' appears twice in " + key);
    bits |= named;
  }
  return bits;
}

std::vector<std::string> tensor_names(std::uint32_t bits, const SegmentContext &c) {
  std::vector<std::string> names;
  for (size_t i = 0; i < c.tensors.size(); ++i)
    if (bits & (std::uint32_t{1} << i))
      names.push_back(c.tensors[i].name);
  return names;
}

void check_holds(const YamlMap &m, const std::string &key, std::uint32_t keep,
                 const StorageLevel &level, const SegmentContext &c) {
  for (size_t i = 0; i < c.tensors.size(); ++i)
    if ((keep & (std::uint32_t{1} << i)) && !(level.holds & c.tensors[i].role))
      m.fail(m.required(key), "cannot keep '" + c.tensors[i].name + "' (" +
                                  roles_text(c.tensors[i].role) + "): the level holds " +
                                  roles_text(level.holds));
}

std::uint32_t read_keep(const YamlMap &m, size_t level, const SegmentContext &c) {
  require_at_most_one(m, "keep", "bypass");
  const std::uint32_t all = (std::uint32_t{1} << c.tensors.size()) - 1;
  const bool keep = m.has("keep");
  if (!keep && !m.has("bypass")) {
    if (level == 0)
      return all;
    m.fail(m.node(), "missing required key 'keep' (or 'bypass')");
  }
  const std::string key = keep ? "keep" : "bypass";
  const std::uint32_t listed = tensor_bits(m, key, c);
  const std::uint32_t bits = keep ? listed : all & ~listed;
  if (level == 0 && bits != all)
    m.fail(m.required(key), "the backing store keeps every tensor; this " + key + " leaves out " +
                                quoted_list(tensor_names(all & ~bits, c)));
  check_holds(m, key, bits, c.hw.hierarchy.levels[level], c);
  return bits;
}

LevelMapping read_level_block(const YamlMap &m, size_t level, const SegmentContext &c) {
  m.allow_only({"level", "order", "factors", "keep", "bypass"});
  LevelMapping out;
  out.factor = dim_factors(m, "factors", c);
  out.order = read_order(m, c);
  out.keep = read_keep(m, level, c);
  return out;
}

void check_axis(const YamlMap &m, const std::string &axis, const std::vector<std::int64_t> &factors,
                std::int64_t side) {
  std::int64_t product = 1;
  for (std::int64_t factor : factors) {
    if (factor > side / product)
      m.fail(m.required(axis), "the " + axis + " factors multiply to more than the fan-out's " +
                                   axis + " (" + std::to_string(side) + ")");
    product *= factor;
  }
}

void check_reduction(const YamlMap &m, const FanoutMapping &out, const Fanout &fanout,
                     const SegmentContext &c) {
  if (fanout.reduction)
    return;
  for (int dim : c.op.reduction_dims())
    if (out.x[static_cast<size_t>(dim)] * out.y[static_cast<size_t>(dim)] > 1)
      m.fail(m.node(), "'" + c.dim_name(dim) + "' does not index the output of '" + c.op.name +
                           "', and the fan-out has reduction: false");
}

FanoutMapping read_fanout_block(const YamlMap &m, const Fanout &fanout, const SegmentContext &c) {
  m.allow_only({"fanout", "x", "y"});
  FanoutMapping out{dim_factors(m, "x", c), dim_factors(m, "y", c)};
  check_axis(m, "x", out.x, fanout.x);
  check_axis(m, "y", out.y, fanout.y);
  check_reduction(m, out, fanout, c);
  return out;
}

/// Entry `index` of the segment's `levels`, which must be the hardware's entry `name`.
YamlMap expect_entry(const YamlMap &seg, const YAML::Node &list, size_t index, bool is_level,
                     const std::string &name) {
  if (index >= list.size())
    seg.fail(list, "missing " + entry_text(is_level, name) +
                       " (levels lists every level and fan-out of the hardware, in order)");
  const HierarchyEntry id =
      read_entry(YamlMap(list[index], seg.file_name(), "levels[" + std::to_string(index) + "]"));
  if (id.is_level != is_level || id.name != name)
    seg.fail(id.name_node, "expected " + entry_text(is_level, name) +
                               " (the hardware's levels and fan-outs, in order), got " +
                               entry_text(id.is_level, id.name));
  return YamlMap(list[index], seg.file_name(), entry_text(is_level, name));
}

void reject_extra_entries(const YamlMap &seg, const YAML::Node &list, size_t count,
                          const Hierarchy &h) {
  if (list.size() <= count)
    return;
  const HierarchyEntry id =
      read_entry(YamlMap(list[count], seg.file_name(), "levels[" + std::to_string(count) + "]"));
  const bool last_is_level = h.fanouts.back().empty();
  const std::string &last = last_is_level ? h.levels.back().name : h.fanouts.back().back().name;
  seg.fail(id.name_node, "unexpected " + entry_text(id.is_level, id.name) +
                             ": the hardware ends with " + entry_text(last_is_level, last));
}

/// The product of the factors of `dim` below the backing store, at most the dimension's size.
std::int64_t inner_product(const YamlMap &seg, const YAML::Node &levels, const OpMapping &mapping,
                           int dim, const SegmentContext &c) {
  const auto d = static_cast<size_t>(dim);
  const std::int64_t size = c.workload.dim_size(dim);
  std::int64_t product = 1;
  const auto multiply = [&](std::int64_t factor) {
    if (factor > size / product)
      seg.fail(levels, "the factors of '" + c.dim_name(dim) +
                           "' below the backing store multiply to more than "
                           "its size (" +
                           std::to_string(size) + ")");
    product *= factor;
  };
  for (size_t l = 0; l < mapping.levels.size(); ++l) {
    if (l > 0)
      multiply(mapping.levels[l].factor[d]);
    for (const FanoutMapping &f : mapping.fanouts[l]) {
      multiply(f.x[d]);
      multiply(f.y[d]);
    }
  }
  return product;
}

/// The backing store's factors: each dimension's size over the factors below, rounded up; the
/// file may give them only with that value.
void set_backing_store_factors(const YamlMap &seg, const YAML::Node &levels, const YamlMap &store,
                               OpMapping &mapping, const SegmentContext &c) {
  std::vector<std::int64_t> &factor = mapping.levels[0].factor;
  std::vector<std::int64_t> inner(factor.size(), 1);
  for (int dim : c.op.dims()) {
    const auto d = static_cast<size_t>(dim);
    inner[d] = inner_product(seg, levels, mapping, dim, c);
    factor[d] = (c.workload.dim_size(dim) + inner[d] - 1) / inner[d];
  }
  if (!store.has("factors"))
    return;
  const YamlMap given = store.map("factors", "factors of " + store.context());
  for (const auto &[name, value] : given.entries()) {
    const auto d = static_cast<size_t>(c.workload.dim_index(name.Scalar()));
    if (given.integer_value(value, name.Scalar(), 1, kMaxDimensionSize) != factor[d])
      store.fail(value, "factor of '" + name.Scalar() + "' must be ceil(" +
                            std::to_string(c.workload.dims[d].size) + " / " +
                            std::to_string(inner[d]) + ") = " + std::to_string(factor[d]) +
                            " (its size over the factors below), got " + value.Scalar());
  }
}

std::string dim_names(const std::vector<int> &dims, const SegmentContext &c) {
  std::vector<std::string> out;
  for (int dim : dims)
    out.push_back(c.dim_name(dim));
  return quoted_list(out);
}

/// Checks that `order` lists every loop of the level but those of `prefix` (a fused pair's
/// shared loops, listed in the segment instead), and no dimension of `prefix`. A single
/// operator's order keeps only the loops; a fused operator's keeps what it lists (its sub-nest).
void settle_order(const YamlMap &m, LevelMapping &level, const SegmentContext &c,
                  const std::vector<int> &prefix, bool fused) {
  const auto in_prefix = [&prefix](int dim) {
    return std::find(prefix.begin(), prefix.end(), dim) != prefix.end();
  };
  const auto is_loop = [&level](int dim) { return level.factor[static_cast<size_t>(dim)] > 1; };
  std::vector<int> loops;
  for (int dim : c.op.dims())
    if (is_loop(dim) && !in_prefix(dim))
      loops.push_back(dim);
  if (!m.has("order")) {
    if (loops.size() > 1)
      m.fail(m.node(), "missing required key 'order' (more than one dimension has a factor above "
                       "1 at this level: " +
                           dim_names(loops, c) + ")");
    level.order = loops;
    return;
  }
  std::vector<int> missing;
  for (int dim : loops)
    if (std::find(level.order.begin(), level.order.end(), dim) == level.order.end())
      missing.push_back(dim);
  if (!missing.empty())
    m.fail(m.required("order"),
           "order must list every dimension with a factor above 1 at this level; it leaves out " +
               dim_names(missing, c));
  for (int dim : level.order)
    if (in_prefix(dim))
      m.fail(m.required("order"), "'" + c.dim_name(dim) +
                                      "' is in the segment's prefix; the backing store's order "
                                      "lists the operator's loops below it");
  if (!fused)
    std::erase_if(level.order, [&is_loop](int dim) { return !is_loop(dim); });
}

/// The einsum `node` names, marked as mapped.
int read_op_name(const YamlMap &seg, const YAML::Node &node, const Workload &workload,
                 std::set<int> &mapped) {
  const std::string name = seg.string_value(node, "ops");
  const auto at = std::find_if(workload.ops.begin(), workload.ops.end(),
                               [&name](const Operator &op) { return op.name == name; });
  if (at == workload.ops.end())
    seg.fail(node, "'" + name + "' is not an operator of workload '" + workload.name + "'");
  if (at->kind != OpKind::Einsum)
    seg.fail(node, "general hierarchies evaluate einsum operators only; '" + name + "' is " +
                       kind_text(at->kind));
  const int op = static_cast<int>(at - workload.ops.begin());
  for (int e : computed_einsums(workload, op))
    if (const std::string &member = workload.ops[static_cast<size_t>(e)].name;
        !mapped.insert(e).second)
      seg.fail(node, "operator '" + member + "' is mapped twice" +
                         (member == name ? "" : " (here by '" + name + "')"));
  return op;
}

/// One operator's levels and fan-outs from `list` (entries of `seg`); `prefix`: a fused pair's
/// shared loops, which level 0's order leaves out.
OpMapping read_op_levels(const YamlMap &seg, const YAML::Node &list, const SegmentContext &c,
                         const std::vector<int> &prefix, bool fused) {
  const Hierarchy &h = c.hw.hierarchy;
  OpMapping mapping;
  std::vector<YamlMap> level_maps;
  size_t next = 0;
  for (size_t l = 0; l < h.levels.size(); ++l) {
    level_maps.push_back(expect_entry(seg, list, next++, true, h.levels[l].name));
    mapping.levels.push_back(read_level_block(level_maps.back(), l, c));
    mapping.fanouts.emplace_back();
    for (const Fanout &f : h.fanouts[l])
      mapping.fanouts.back().push_back(
          read_fanout_block(expect_entry(seg, list, next++, false, f.name), f, c));
  }
  reject_extra_entries(seg, list, next, h);
  set_backing_store_factors(seg, list, level_maps.front(), mapping, c);
  for (size_t l = 0; l < h.levels.size(); ++l)
    settle_order(level_maps[l], mapping.levels[l], c, l == 0 ? prefix : std::vector<int>{},
                 fused && l == 0);
  return mapping;
}

SegmentContext context_of(const Hardware &hw, const Workload &workload, int op) {
  const Operator &o = workload.ops[static_cast<size_t>(op)];
  return SegmentContext{hw, workload, o, op_tensors(o)};
}

std::vector<int> read_prefix(const YamlMap &seg, const Workload &workload) {
  std::vector<int> prefix;
  if (!seg.has("prefix"))
    return prefix;
  for (const YAML::Node &item : seg.list("prefix")) {
    const std::string name = seg.string_value(item, "prefix");
    const int dim = workload.dim_index(name);
    if (dim < 0)
      seg.fail(item, "'" + name + "' is not a dimension of workload '" + workload.name + "'");
    if (std::find(prefix.begin(), prefix.end(), dim) != prefix.end())
      seg.fail(item, "'" + name + "' appears twice in prefix");
    prefix.push_back(dim);
  }
  return prefix;
}

std::vector<HierRetention> read_retention(const YamlMap &seg) {
  const YamlMap map = seg.map("retention", "retention of " + seg.context());
  std::vector<HierRetention> out;
  for (const auto &[name, value] : map.entries())
    out.push_back({name.Scalar(), static_cast<int>(map.integer_value(value, name.Scalar(), 0, 64)),
                   location_of(name, seg.file_name())});
  return out;
}

HierSegmentMapping read_fused_segment(const YamlMap &seg, const Hardware &hw,
                                      const Workload &workload, std::set<int> &mapped) {
  seg.allow_only({"ops", "prefix", "retention", "levels"});
  const YAML::Node &ops = seg.list("ops");
  const int producer = read_op_name(seg, ops[0], workload, mapped);
  HierFusedPart fused;
  fused.consumer = read_op_name(seg, ops[1], workload, mapped);
  fused.prefix = read_prefix(seg, workload);
  fused.retention = read_retention(seg);
  const YamlMap levels = seg.map("levels", "levels of " + seg.context());
  const std::string &producer_name = workload.ops[static_cast<size_t>(producer)].name;
  const std::string &consumer_name = workload.ops[static_cast<size_t>(fused.consumer)].name;
  levels.allow_only({producer_name, consumer_name});
  const auto op_levels = [&](int op, const std::string &name) {
    const YamlMap entries(levels.node(), seg.file_name(), "levels of '" + name + "'");
    return read_op_levels(entries, levels.list(name), context_of(hw, workload, op), fused.prefix,
                          true);
  };
  HierSegmentMapping out{producer, op_levels(producer, producer_name), std::nullopt, seg.where()};
  fused.consumer_mapping = op_levels(fused.consumer, consumer_name);
  out.fused = std::move(fused);
  return out;
}

HierSegmentMapping read_segment(const YamlMap &seg, const Hardware &hw, const Workload &workload,
                                std::set<int> &mapped) {
  const YAML::Node &ops = seg.list("ops");
  if (ops.size() == 2)
    return read_fused_segment(seg, hw, workload, mapped);
  if (ops.size() != 1)
    seg.fail(ops, "key 'ops' must name one operator or a fused producer and consumer");
  seg.allow_only({"ops", "levels"});
  const int op = read_op_name(seg, ops[0], workload, mapped);
  return {op, read_op_levels(seg, seg.list("levels"), context_of(hw, workload, op), {}, false),
          std::nullopt, seg.where()};
}

void check_workload_name(const YamlMap &top, const Workload &workload) {
  const std::optional<std::string> name = top.optional_string("workload");
  if (name && *name != workload.name)
    top.fail(top.required("workload"),
             "mapping is for workload '" + *name + "', not '" + workload.name + "'");
}

} // namespace

std::vector<HierSegmentMapping> parse_hier_mapping(const std::string &yaml_text,
                                                   const std::string &file_name, const Hardware &hw,
                                                   const Workload &workload) {
  const YamlMap top(parse_yaml(yaml_text, file_name), file_name, "");
  top.allow_only({"workload", "segments"});
  check_workload_name(top, workload);
  const YAML::Node &segments = top.list("segments");
  if (segments.size() == 0)
    top.fail(segments, "key 'segments' must list at least one segment");
  std::vector<HierSegmentMapping> out;
  std::set<int> mapped;
  for (size_t i = 0; i < segments.size(); ++i)
    out.push_back(read_segment(YamlMap(segments[i], file_name, "segment " + std::to_string(i + 1)),
                               hw, workload, mapped));
  for (size_t o = 0; o < workload.ops.size(); ++o)
    if (workload.ops[o].kind == OpKind::Einsum && workload.ops[o].stacked.empty() &&
        !mapped.count(static_cast<int>(o)))
      top.fail(segments, "operator '" + workload.ops[o].name + "' is not mapped by any segment");
  return out;
}

std::vector<HierSegmentMapping> load_hier_mapping(const std::string &path, const Hardware &hw,
                                                  const Workload &workload,
                                                  std::uint64_t max_input_mib) {
  return parse_hier_mapping(read_yaml_file(path, max_input_mib), path, hw, workload);
}

} // namespace dse
