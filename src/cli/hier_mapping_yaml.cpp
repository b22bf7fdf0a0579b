// Mapping files for hierarchies of any depth, written from an OpMapping per einsum operator or a
// fused pair's mapping: factors of 1 and the backing store's keep-everything left out, names
// quoted when YAML needs it.
#include "dse/cli/hier_mapping_yaml.hpp"

#include "dse/cli/yaml_name.hpp"
#include "dse/support/check.hpp"

namespace dse {

namespace {

/// What one segment is written from.
struct SegmentView {
  const Workload &workload;
  const Operator &op;
  OperatorTensors tensors; // as OpMapping's keep bits index them
};

std::string dim_name(const SegmentView &v, int dim) {
  return yaml_name(v.workload.dims[static_cast<size_t>(dim)].name);
}

/// `{M: 16, N: 8}`: the factors above 1 of the operator's dimensions, in its dimension order.
std::string factor_map(const SegmentView &v, const std::vector<std::int64_t> &factor) {
  std::string text;
  for (int dim : v.op.dims())
    if (factor[static_cast<size_t>(dim)] > 1)
      text += (text.empty() ? "" : ", ") + dim_name(v, dim) + ": " +
              std::to_string(factor[static_cast<size_t>(dim)]);
  return text.empty() ? "" : "{" + text + "}";
}

/// The loops of the level's order, outer to inner (dimensions with factor 1 are not loops), or
/// with `every_listed` each dimension of the order (a fused operator's sub-nest, whose positions
/// its tensors' retention depths count).
std::string order_list(const SegmentView &v, const LevelMapping &level, bool every_listed) {
  std::string text;
  for (int dim : level.order)
    if (every_listed || level.factor[static_cast<size_t>(dim)] > 1)
      text += (text.empty() ? "" : ", ") + dim_name(v, dim);
  return text.empty() ? "" : "[" + text + "]";
}

std::string keep_list(const SegmentView &v, std::uint32_t keep) {
  std::string text;
  for (size_t i = 0; i < v.tensors.size(); ++i)
    if (keep & (std::uint32_t{1} << i))
      text += (text.empty() ? "" : ", ") + yaml_name(v.tensors[i]->tensor);
  return "[" + text + "]";
}

/// ", key: value" when the value is not empty.
std::string field(const char *key, const std::string &value) {
  return value.empty() ? "" : std::string(", ") + key + ": " + value;
}

/// The backing store keeps every tensor, which its entry leaves unsaid.
std::string level_entry(const SegmentView &v, const StorageLevel &storage,
                        const LevelMapping &level, bool backing_store, bool fused,
                        const std::string &indent) {
  std::string text = indent + "- {level: " + yaml_name(storage.name);
  text += field("order", order_list(v, level, backing_store && fused)) +
          field("factors", factor_map(v, level.factor));
  if (!backing_store)
    text += ", keep: " + keep_list(v, level.keep);
  return text + "}\n";
}

std::string fanout_entry(const SegmentView &v, const Fanout &fanout, const FanoutMapping &f,
                         const std::string &indent) {
  return indent + "- {fanout: " + yaml_name(fanout.name) + field("x", factor_map(v, f.x)) +
         field("y", factor_map(v, f.y)) + "}\n";
}

/// Operator `oper`'s levels and fan-outs in nest order, one list entry per line after `indent`;
/// `fused`: the operator of a fused pair, the backing store's order its sub-nest.
std::string levels_yaml(const Hardware &hw, const Workload &workload, const Operator &oper,
                        const OpMapping &mapping, bool fused, const std::string &indent) {
  const Hierarchy &h = hw.hierarchy;
  DSE_CHECK(mapping.levels.size() == h.levels.size() && mapping.fanouts.size() == h.fanouts.size(),
            "a mapping of " + std::to_string(mapping.levels.size()) +
                " levels for a hierarchy of " + std::to_string(h.levels.size()));
  const SegmentView v{workload, oper, operator_tensors(oper)};
  std::string text;
  for (size_t l = 0; l < h.levels.size(); ++l) {
    text += level_entry(v, h.levels[l], mapping.levels[l], l == 0, fused, indent);
    DSE_CHECK(mapping.fanouts[l].size() == h.fanouts[l].size(),
              "fan-outs of the mapping differ from the hierarchy's below level " +
                  std::to_string(l));
    for (size_t f = 0; f < h.fanouts[l].size(); ++f)
      text += fanout_entry(v, h.fanouts[l][f], mapping.fanouts[l][f], indent);
  }
  return text;
}

} // namespace

std::string hier_mapping_header(const Workload &workload) {
  return "workload: " + yaml_name(workload.name) + "\nsegments:\n";
}

std::string hier_segment_yaml(const Hardware &hw, const Workload &workload, int op,
                              const OpMapping &mapping) {
  const Operator &oper = workload.ops.at(static_cast<size_t>(op));
  return "  - ops: [" + yaml_name(oper.name) + "]\n    levels:\n" +
         levels_yaml(hw, workload, oper, mapping, false, "      ");
}

std::string hier_fused_segment_yaml(const Hardware &hw, const Problem &problem,
                                    const FusedHierMapping &mapping) {
  const Workload &w = *problem.workload;
  std::string prefix, retention;
  for (int d : mapping.outer.prefix)
    prefix += (prefix.empty() ? "" : ", ") + yaml_name(w.dims[static_cast<size_t>(d)].name);
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    retention += (t == 0 ? "" : ", ") + yaml_name(problem.tensors[t].name) + ": " +
                 std::to_string(mapping.outer.retention[t]);
  std::string text = "  - ops: [" + yaml_name(problem.op(0).name) + ", " +
                     yaml_name(problem.op(1).name) + "]\n    prefix: [" + prefix +
                     "]\n    retention: {" + retention + "}\n    levels:\n";
  for (int o = 0; o < 2; ++o) {
    OpMapping op = mapping.ops[static_cast<size_t>(o)];
    op.levels[0].order = mapping.outer.subnests[static_cast<size_t>(o)];
    text += "      " + yaml_name(problem.op(o).name) + ":\n" +
            levels_yaml(hw, w, problem.op(o), op, true, "        ");
  }
  return text;
}

} // namespace dse
