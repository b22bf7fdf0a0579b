// Reads mapping YAML. Format (one segment per searched problem, in execution order):
//
//   workload: ffn-2048x768x3072x768          # optional; must match the workload's name
//   segments:
//     - ops: [mm1, mm2]                      # one op, or a chain of them run fused
//       prefix: [m]                          # shared loops, outer -> inner (fused only)
//       loops: {mm1: [k, n], mm2: [n, l]}    # each op's own sub-nest, outer -> inner
//       retention: {A: 1, W1: 2, H: 1, W2: 0, O: 1}   # tile depth per tensor
//       spatial: {mm1: [m, n], mm2: [m, l]}  # [rows, cols] per op; '-' leaves one unused
//       tiles: {m: 128, n: 256, k: 768, l: 768}
//       cache: {Y1: [a], Y2: [a]}            # halo dims kept on chip per intermediate; a pair's
//                                            # may be a list: cache: [a]
//
// Names are only read here; they are checked against the workload when the mapping is resolved.
#include "dse/config/mapping_loader.hpp"

#include "yaml_reader.hpp"

namespace dse {

namespace {

std::vector<NamedValue> name_list(const YamlMap &map, const YAML::Node &node,
                                  std::string_view key) {
  if (!node.IsSequence())
    map.fail(node, "key '" + std::string(key) + "' must be a list of names, got " + describe(node));
  std::vector<NamedValue> out;
  for (const YAML::Node &item : node)
    out.push_back({map.string_value(item, key), location_of(item, map.file_name())});
  return out;
}

/// `cache: [dims]` (a pair's one intermediate) or `cache: {intermediate: [dims], ...}`.
std::vector<MappingCacheSpec> cache_specs(const YamlMap &seg, const std::string &file_name) {
  const YAML::Node &node = seg.required("cache");
  if (node.IsSequence())
    return {{{"", location_of(node, file_name)}, name_list(seg, node, "cache")}};
  std::vector<MappingCacheSpec> out;
  const YamlMap per_intermediate = seg.map("cache", "cache of " + seg.context());
  for (const auto &[key, value] : per_intermediate.entries())
    out.push_back({{key.as<std::string>(), location_of(key, file_name)},
                   name_list(per_intermediate, value, key.as<std::string>())});
  return out;
}

MappingSegmentSpec read_segment(const YAML::Node &node, const std::string &file_name,
                                size_t index) {
  const YamlMap seg(node, file_name, "segment " + std::to_string(index + 1));
  seg.allow_only({"ops", "prefix", "cache", "loops", "retention", "spatial", "tiles"});
  MappingSegmentSpec spec;
  spec.where = seg.where();
  spec.ops = name_list(seg, seg.required("ops"), "ops");
  if (spec.ops.empty())
    seg.fail(seg.required("ops"), "key 'ops' must name one operator or a chain of them");
  if (seg.has("prefix"))
    spec.prefix = name_list(seg, seg.required("prefix"), "prefix");
  if (seg.has("cache"))
    spec.cache = cache_specs(seg, file_name);
  const YamlMap loops = seg.map("loops", "loops of " + seg.context());
  for (const auto &[key, value] : loops.entries())
    spec.loops[key.as<std::string>()] = name_list(loops, value, key.as<std::string>());
  const YamlMap retention = seg.map("retention", "retention of " + seg.context());
  for (const auto &[key, value] : retention.entries())
    spec.retention[key.as<std::string>()] = {
        static_cast<int>(retention.integer_value(value, key.as<std::string>(), 0, 64)),
        location_of(value, file_name)};
  const YamlMap spatial = seg.map("spatial", "spatial of " + seg.context());
  for (const auto &[key, value] : spatial.entries()) {
    const std::vector<NamedValue> pair = name_list(spatial, value, key.as<std::string>());
    if (pair.size() != 2)
      spatial.fail(value, "spatial mapping of '" + key.as<std::string>() +
                              "' must be [row_dim, col_dim], got " + describe(value));
    spec.spatial[key.as<std::string>()] = {pair[0], pair[1]};
  }
  const YamlMap tiles = seg.map("tiles", "tiles of " + seg.context());
  for (const auto &[key, value] : tiles.entries())
    spec.tiles[key.as<std::string>()] = {
        tiles.integer_value(value, key.as<std::string>(), 1, kMaxDimensionSize),
        location_of(value, file_name)};
  return spec;
}

} // namespace

MappingSpec parse_mapping(const std::string &yaml_text, const std::string &file_name) {
  const YamlMap top(parse_yaml(yaml_text, file_name), file_name, "");
  top.allow_only({"workload", "segments"});
  MappingSpec spec;
  spec.source_file = file_name;
  if (auto name = top.optional_string("workload"))
    spec.workload = *name;
  const YAML::Node &segments = top.list("segments");
  if (segments.size() == 0)
    top.fail(segments, "key 'segments' must list at least one segment");
  for (size_t i = 0; i < segments.size(); ++i)
    spec.segments.push_back(read_segment(segments[i], file_name, i));
  return spec;
}

MappingSpec load_mapping(const std::string &path, std::uint64_t max_input_mib) {
  return parse_mapping(read_yaml_file(path, max_input_mib), path);
}

} // namespace dse
