// Reads the general form of the hardware file (docs/HIERARCHY.md §2.1): storage levels and
// spatial fan-outs of any depth, in nest order, outermost first. name, source, clock_ghz,
// word_bytes and dma_units are as in today's form (hardware_loader.cpp); cores, pe_array, vector
// and levels are not keys of this form.
//
//   counting: timeloop               # optional: timeloop (default here) or legacy (below)
//   first_read_elision: true         # optional bool (default true), with timeloop only
//   hierarchy:                       # required list; each entry has exactly one of `level` or
//                                    # `fanout` (a name, unique over the list); 2 to 5 levels,
//                                    # the first entry a level
//     - {level: DRAM, bandwidth_gbps: 64, read_energy_pj: 200.0, write_energy_pj: 200.0}
//     - {level: L2, capacity_kib: 2048, bandwidth_words_per_cycle: 128,
//        read_energy_pj: 30.0, write_energy_pj: 33.0}
//     - {fanout: cores, x: 4}
//     - {level: L1, capacity_kib: 128, read_bandwidth_words_per_cycle: 64,
//        write_bandwidth_words_per_cycle: 32, read_energy_pj: 6.0, write_energy_pj: 7.0,
//        update_energy_pj: 7.5, double_buffering: true, instances: 4}
//     - {fanout: mesh, x: 16, y: 16, multicast: true, reduction: true}
//     - {level: RF, capacity_words: 32, read_energy_pj: 0.3, write_energy_pj: 0.35,
//        holds: [output, operand1]}
//   compute: {mac_energy_pj: 0.8}    # required; or {fma_energy_pj: 1.0, vector: true}
//   mapspace:                        # optional search constraints (§2.2), one per target
//     - {target: L1, factors: {k: 1}, order: [n, m]}
//     - {target: mesh, x: [n], y: [m], one_axis_per_dim: true, min_utilisation: 0.5}
//     - {target: RF, keep: [output], bypass: [operand1]}
//
// Levels: read_energy_pj and write_energy_pj are required (pJ per word, 0..1e9);
// fill_energy_pj and update_energy_pj default to write_energy_pj. Bandwidths are words per cycle
// per instance, 1e-6..1e12, unlimited when absent: bandwidth_words_per_cycle is shared by reads,
// fills and updates; read_ and write_bandwidth_words_per_cycle are separate ports; every given
// limit applies. The first level (the backing store) is unbounded: capacity keys are errors;
// it may give bandwidth_gbps (1e-6..1e6, converted with clock_ghz and word_bytes) instead of
// bandwidth_words_per_cycle, and takes no holds or double_buffering. Other levels take exactly
// one of capacity_kib or capacity_words (1..2^40 words, as today), holds (roles output, operand0,
// operand1, intermediate; default all) and double_buffering (default false). instances, when
// given, must equal the product of the fan-out sizes above the level.
// Fan-outs: x and y (default 1) are 1..2^20; multicast and reduction default to true; all
// fan-outs together give at most 2^31 compute units.
// Mapspace: each entry names a level or fan-out as `target`. On a level: keep and bypass (roles or
// tensor names, not both naming one; on-chip levels only, a kept role within `holds`), factors
// (dimension: fixed factor 1..2^31-1) and order (dimensions, outermost first). On a fan-out: x and
// y (dimensions allowed on each axis), one_axis_per_dim (bool) and min_utilisation (0..1).
// Dimension and tensor names are checked against each workload by the search and the mapping
// check; counting: legacy takes no mapspace.
//
// counting: legacy takes today's shape only (a backing store, a buffer, one fan-out and an
// optional register file) with today's keys per level (bandwidth_gbps required on the backing
// store, capacity_words only on the register file) and x, y on the fan-out. It fills
// Hardware::levels and Hardware::array as today's spelling with pe_array {rows: y, cols: x}
// (vector {lanes: x, fma_units: y}) and one core, so that the legacy model reads it unchanged;
// the hierarchy keeps the file's fan-out name.
#include "hierarchy_loader.hpp"

#include <array>
#include <map>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace dse {

namespace {

constexpr size_t kMinLevels = 2;
constexpr std::int64_t kMaxComputeUnits = std::int64_t{1} << 31;

constexpr std::array<std::pair<std::string_view, std::uint8_t>, 4> kRoles{{
    {"output", role::kOutput},
    {"operand0", role::kOperand0},
    {"operand1", role::kOperand1},
    {"intermediate", role::kIntermediate},
}};

struct Entry {
  HierarchyEntry id;
  YAML::Node node;
};

/// The entries of `hierarchy`, checked for kinds, names and the number of levels.
std::vector<Entry> read_entries(const YamlMap &top) {
  const YAML::Node &list = top.list("hierarchy");
  std::vector<Entry> entries;
  std::set<std::string> names;
  size_t levels = 0;
  for (size_t i = 0; i < list.size(); ++i) {
    const YamlMap m(list[i], top.file_name(), "hierarchy[" + std::to_string(i) + "]");
    HierarchyEntry id = read_entry(m);
    if (!names.insert(id.name).second)
      top.fail(id.name_node, "duplicate name '" + id.name + "' in hierarchy");
    if (i == 0 && !id.is_level)
      top.fail(id.name_node, "the first entry of hierarchy must be a level (the backing store), "
                             "got fan-out '" +
                                 id.name + "'");
    levels += id.is_level ? 1 : 0;
    entries.push_back({std::move(id), list[i]});
  }
  if (levels < kMinLevels || levels > kMaxStorageLevels)
    top.fail(list, "hierarchy must list 2 to 5 storage levels (a backing store and one to four "
                   "on-chip levels), got " +
                       std::to_string(levels));
  return entries;
}

YamlMap entry_map(const YamlMap &top, const Entry &entry, const std::string &suffix) {
  return YamlMap(entry.node, top.file_name(),
                 entry_text(entry.id.is_level, entry.id.name) + suffix);
}

std::optional<double> optional_rate(const YamlMap &m, std::string_view key) {
  if (!m.has(key))
    return std::nullopt;
  return read_rate(m, key, kBandwidthRangeWordsPerCycle);
}

double energy_or(const YamlMap &m, std::string_view key, double fallback) {
  return m.has(key) ? read_energy(m, key) : fallback;
}

std::uint8_t role_bit(const YamlMap &m, const YAML::Node &item) {
  const std::string name = m.string_value(item, "holds");
  for (const auto &[role_name, bit] : kRoles)
    if (name == role_name)
      return bit;
  m.fail(item, "holds: unknown role " + describe(item) +
                   " (expected output, operand0, operand1 or intermediate)");
}

std::uint8_t read_holds(const YamlMap &m) {
  if (!m.has("holds"))
    return role::kAll;
  const YAML::Node &list = m.list("holds");
  if (list.size() == 0)
    m.fail(list, "holds must name at least one role (output, operand0, operand1, intermediate)");
  std::uint8_t holds = 0;
  for (const YAML::Node &item : list) {
    const std::uint8_t bit = role_bit(m, item);
    if (holds & bit)
      m.fail(item, "holds names '" + item.Scalar() + "' twice");
    holds |= bit;
  }
  return holds;
}

void read_backing_store(const YamlMap &m, const Hardware &hw, StorageLevel &s) {
  reject_capacity(m);
  m.allow_only({"level", "bandwidth_gbps", "bandwidth_words_per_cycle",
                "read_bandwidth_words_per_cycle", "write_bandwidth_words_per_cycle",
                "read_energy_pj", "write_energy_pj", "fill_energy_pj", "update_energy_pj",
                "instances"});
  require_at_most_one(m, "bandwidth_gbps", "bandwidth_words_per_cycle");
  if (m.has("bandwidth_gbps")) // as Hardware::dram_words_per_cycle converts it
    s.shared_words_per_cycle = read_rate(m, "bandwidth_gbps", kBandwidthRangeGbps) /
                               (hw.clock_ghz * static_cast<double>(hw.word_bytes));
}

void read_on_chip(const YamlMap &m, std::int64_t word_bytes, StorageLevel &s) {
  m.allow_only({"level", "capacity_kib", "capacity_words", "bandwidth_words_per_cycle",
                "read_bandwidth_words_per_cycle", "write_bandwidth_words_per_cycle",
                "read_energy_pj", "write_energy_pj", "fill_energy_pj", "update_energy_pj",
                "instances", "holds", "double_buffering"});
  s.capacity_words = read_capacity(m, word_bytes);
  s.holds = read_holds(m);
  s.double_buffering = m.boolean_or("double_buffering", false);
}

void check_instances(const YamlMap &m, std::int64_t instances) {
  if (!m.has("instances"))
    return;
  const std::int64_t given = m.integer("instances", 1, kMaxComputeUnits);
  if (given != instances)
    m.fail(m.required("instances"), "instances is " + std::to_string(given) +
                                        ", but the fan-outs above the level give " +
                                        std::to_string(instances));
}

/// Level `index` of the general form; `instances` is the product of the fan-outs above it.
StorageLevel read_storage_level(const YamlMap &m, const std::string &name, size_t index,
                                const Hardware &hw, std::int64_t instances) {
  StorageLevel s;
  s.name = name;
  if (index == 0)
    read_backing_store(m, hw, s);
  else
    read_on_chip(m, hw.word_bytes, s);
  if (!s.shared_words_per_cycle)
    s.shared_words_per_cycle = optional_rate(m, "bandwidth_words_per_cycle");
  s.read_words_per_cycle = optional_rate(m, "read_bandwidth_words_per_cycle");
  s.write_words_per_cycle = optional_rate(m, "write_bandwidth_words_per_cycle");
  s.read_pj = read_energy(m, "read_energy_pj");
  const double write_pj = read_energy(m, "write_energy_pj");
  s.fill_pj = energy_or(m, "fill_energy_pj", write_pj);
  s.update_pj = energy_or(m, "update_energy_pj", write_pj);
  check_instances(m, instances);
  return s;
}

/// x, y, multicast and reduction (the caller has checked which keys the map may have).
Fanout read_fanout_fields(const YamlMap &m, const std::string &name) {
  Fanout f;
  f.name = name;
  f.x = m.integer("x", 1, kMaxArraySide);
  f.y = m.integer_or("y", 1, 1, kMaxArraySide);
  f.multicast = m.boolean_or("multicast", true);
  f.reduction = m.boolean_or("reduction", true);
  return f;
}

/// Multiplies `units` by the fan-out's size, keeping the product within 2^31.
void count_units(const YamlMap &m, const Fanout &f, std::int64_t &units) {
  if (f.size() > kMaxComputeUnits / units)
    m.fail(m.node(), "the fan-outs down to this one give more than 2^31 compute units");
  units *= f.size();
}

struct ComputeSpec {
  double energy_pj = 0;
  bool vector = false;
};

ComputeSpec read_compute_section(const YamlMap &top) {
  const YamlMap m = top.map("compute", "compute");
  m.allow_only({"mac_energy_pj", "fma_energy_pj", "vector"});
  const bool vector = m.boolean_or("vector", false);
  const std::string key = vector ? "fma_energy_pj" : "mac_energy_pj";
  const std::string other = vector ? "mac_energy_pj" : "fma_energy_pj";
  if (m.has(other))
    m.fail(m.key_node(other), "'" + other + "' does not go with vector: " +
                                  (vector ? "true" : "false") + "; give '" + key + "'");
  return {read_energy(m, key), vector};
}

Hierarchy read_timeloop_hierarchy(const YamlMap &top, const std::vector<Entry> &entries,
                                  const Hardware &hw) {
  Hierarchy h;
  h.counting = Counting::Timeloop;
  std::int64_t units = 1;
  for (const Entry &entry : entries) {
    const YamlMap m = entry_map(top, entry, "");
    if (entry.id.is_level) {
      h.levels.push_back(read_storage_level(m, entry.id.name, h.levels.size(), hw, units));
      h.fanouts.emplace_back();
      continue;
    }
    m.allow_only({"fanout", "x", "y", "multicast", "reduction"});
    h.fanouts.back().push_back(read_fanout_fields(m, entry.id.name));
    count_units(m, h.fanouts.back().back(), units);
  }
  return h;
}

bool has_todays_shape(const std::vector<Entry> &entries) {
  if (entries.size() != 3 && entries.size() != 4)
    return false;
  for (size_t i = 0; i < entries.size(); ++i)
    if (entries[i].id.is_level != (i != 2))
      return false;
  return true;
}

std::string shape_text(const std::vector<Entry> &entries) {
  std::string text;
  for (const Entry &entry : entries)
    text += (text.empty() ? "" : ", ") + std::string(entry.id.is_level ? "level " : "fan-out ") +
            entry.id.name;
  return text;
}

/// Today's shape spelt in the general form: today's levels and array, then its hierarchy.
void read_legacy_hierarchy(const YamlMap &top, const std::vector<Entry> &entries, Hardware &hw) {
  if (!has_todays_shape(entries))
    top.fail(top.required("hierarchy"),
             "counting: legacy takes today's shape (a backing store, a buffer, one fan-out and an "
             "optional register file, in this order); this hierarchy is " +
                 shape_text(entries));
  std::string fanout_name;
  for (const Entry &entry : entries) {
    const YamlMap m = entry_map(top, entry, " (counting: legacy)");
    if (entry.id.is_level) {
      hw.levels.push_back(read_memory_level(m, hw.levels.size(), hw.word_bytes, "level"));
      hw.levels.back().name = entry.id.name;
      continue;
    }
    m.allow_only({"fanout", "x", "y"});
    const Fanout f = read_fanout_fields(m, entry.id.name);
    std::int64_t units = 1;
    count_units(m, f, units);
    hw.array.cols = f.x;
    hw.array.rows = f.y;
    fanout_name = f.name;
  }
  const ComputeSpec compute = read_compute_section(top);
  hw.array.mac_energy_pj = compute.energy_pj;
  hw.array.is_vector = compute.vector;
  hw.hierarchy = hierarchy_from_levels(hw, Counting::Legacy);
  hw.hierarchy.fanouts[1][0].name = fanout_name;
}

/// Each `hierarchy` entry as a rule addresses it: a level's index, or a fan-out's gap and place
/// in Hierarchy::fanouts.
std::map<std::string, MapspaceRule> rule_targets(const std::vector<Entry> &entries) {
  std::map<std::string, MapspaceRule> targets;
  int level = -1, fanout = 0;
  for (const Entry &entry : entries) {
    MapspaceRule rule;
    rule.on_level = entry.id.is_level;
    level += entry.id.is_level ? 1 : 0;
    fanout = entry.id.is_level ? 0 : fanout + 1;
    rule.level = level;
    rule.fanout = entry.id.is_level ? 0 : fanout - 1;
    targets.emplace(entry.id.name, std::move(rule));
  }
  return targets;
}

/// The names listed under `key`, each once.
std::vector<MapspaceName> read_names(const YamlMap &m, std::string_view key) {
  std::vector<MapspaceName> names;
  for (const YAML::Node &item : m.list(key)) {
    const std::string name = m.string_value(item, key);
    for (const MapspaceName &seen : names)
      if (seen.name == name)
        m.fail(item, std::string(key) + " names '" + name + "' twice");
    names.push_back({name, location_of(item, m.file_name())});
  }
  return names;
}

std::vector<MapspaceName> optional_names(const YamlMap &m, std::string_view key) {
  return m.has(key) ? read_names(m, key) : std::vector<MapspaceName>{};
}

/// Role bits of the role names among `names`; the other names go to `tensors`.
std::uint8_t split_roles(const std::vector<MapspaceName> &names,
                         std::vector<MapspaceName> &tensors) {
  std::uint8_t roles = 0;
  for (const MapspaceName &n : names) {
    const auto *role = std::find_if(kRoles.begin(), kRoles.end(),
                                    [&n](const auto &r) { return r.first == n.name; });
    if (role == kRoles.end())
      tensors.push_back(n);
    else
      roles |= role->second;
  }
  return roles;
}

void read_keep_and_bypass(const YamlMap &m, const StorageLevel &level, bool backing_store,
                          MapspaceRule &rule) {
  if (backing_store && (m.has("keep") || m.has("bypass")))
    m.fail(m.key_node(m.has("keep") ? "keep" : "bypass"),
           "the backing store keeps every tensor; keep and bypass apply to on-chip levels");
  const std::vector<MapspaceName> keep = optional_names(m, "keep");
  const std::vector<MapspaceName> bypass = optional_names(m, "bypass");
  for (const MapspaceName &b : bypass)
    for (const MapspaceName &k : keep)
      if (b.name == k.name)
        throw UserError(b.where, m.context() + ": keep and bypass both name '" + b.name + "'");
  rule.keep_roles = split_roles(keep, rule.keep_tensors);
  rule.bypass_roles = split_roles(bypass, rule.bypass_tensors);
  const std::uint8_t forbidden = rule.keep_roles & ~level.holds;
  if (forbidden != 0)
    m.fail(m.required("keep"),
           "keep names " + roles_text(forbidden) +
               ", which the level may not hold (its holds: " + roles_text(level.holds) + ")");
}

void read_factors(const YamlMap &m, MapspaceRule &rule) {
  if (!m.has("factors"))
    return;
  const YamlMap factors = m.map("factors", m.context() + " factors");
  for (const auto &[key, value] : factors.entries())
    rule.factors.push_back({{key.Scalar(), location_of(key, m.file_name())},
                            m.integer_value(value, "factors", 1, kMaxDimensionSize)});
}

void read_level_rule(const YamlMap &m, const Hierarchy &h, MapspaceRule &rule) {
  m.allow_only({"target", "keep", "bypass", "factors", "order"});
  const auto level = static_cast<size_t>(rule.level);
  read_keep_and_bypass(m, h.levels[level], level == 0, rule);
  read_factors(m, rule);
  rule.order = optional_names(m, "order");
}

void read_fanout_rule(const YamlMap &m, MapspaceRule &rule) {
  m.allow_only({"target", "x", "y", "one_axis_per_dim", "min_utilisation"});
  if (m.has("x"))
    rule.x = read_names(m, "x");
  if (m.has("y"))
    rule.y = read_names(m, "y");
  rule.one_axis_per_dim = m.boolean_or("one_axis_per_dim", false);
  rule.min_utilisation = m.number_or("min_utilisation", 0.0, Bound::NonNegative);
  if (rule.min_utilisation > 1)
    m.fail(m.required("min_utilisation"), "min_utilisation must be between 0 and 1, got " +
                                              m.required("min_utilisation").Scalar());
}

/// Fails when `rule`'s target already has a rule (one per level or fan-out).
void check_single_rule(const YamlMap &m, const Hierarchy &h, const MapspaceRule &rule) {
  for (const MapspaceRule &other : h.mapspace)
    if (other.on_level == rule.on_level && other.level == rule.level && other.fanout == rule.fanout)
      m.fail(m.required("target"), "target '" + m.string("target") +
                                       "' already has a mapspace constraint, at line " +
                                       std::to_string(other.where.line));
}

/// The `mapspace` list: one rule per entry, its target a level or fan-out of `entries`.
void read_mapspace(const YamlMap &top, const std::vector<Entry> &entries, Hierarchy &h) {
  if (!top.has("mapspace"))
    return;
  const std::map<std::string, MapspaceRule> targets = rule_targets(entries);
  const YAML::Node &list = top.list("mapspace");
  for (size_t i = 0; i < list.size(); ++i) {
    const YamlMap entry(list[i], top.file_name(), "mapspace[" + std::to_string(i) + "]");
    const std::string target = entry.name("target");
    const auto found = targets.find(target);
    if (found == targets.end())
      entry.fail(entry.required("target"),
                 "target '" + target + "' is not a level or fan-out of the hierarchy");
    MapspaceRule rule = found->second;
    rule.where = location_of(list[i], top.file_name());
    const YamlMap m(list[i], top.file_name(),
                    "mapspace constraint on " + entry_text(rule.on_level, target));
    check_single_rule(m, h, rule);
    if (rule.on_level)
      read_level_rule(m, h, rule);
    else
      read_fanout_rule(m, rule);
    h.mapspace.push_back(std::move(rule));
  }
}

} // namespace

void require_at_most_one(const YamlMap &m, std::string_view first, std::string_view second) {
  if (m.has(first) && m.has(second))
    m.fail(m.key_node(second),
           "give either '" + std::string(first) + "' or '" + std::string(second) + "', not both");
}

HierarchyEntry read_entry(const YamlMap &m) {
  require_at_most_one(m, "level", "fanout");
  if (!m.has("level") && !m.has("fanout"))
    m.fail(m.node(), "missing required key 'level' (or 'fanout')");
  const bool is_level = m.has("level");
  const std::string_view key = is_level ? "level" : "fanout";
  return {is_level, m.name(key), m.required(key)};
}

std::string entry_text(bool is_level, const std::string &name) {
  return (is_level ? "level '" : "fan-out '") + name + "'";
}

std::string roles_text(std::uint8_t roles) {
  std::string text;
  for (const auto &[role_name, bit] : kRoles)
    if (roles & bit)
      text += (text.empty() ? "" : ", ") + std::string(role_name);
  return text;
}

void read_general_form(const YamlMap &top, Hardware &hw, Counting counting) {
  const std::vector<Entry> entries = read_entries(top);
  if (counting == Counting::Legacy) {
    if (top.has("mapspace"))
      top.fail(top.key_node("mapspace"), "mapspace constraints need counting: timeloop (the "
                                         "legacy search does not read them)");
    read_legacy_hierarchy(top, entries, hw);
    return;
  }
  hw.hierarchy = read_timeloop_hierarchy(top, entries, hw);
  const ComputeSpec compute = read_compute_section(top);
  hw.hierarchy.mac_pj = compute.energy_pj;
  hw.hierarchy.vector = compute.vector;
  read_mapspace(top, entries, hw.hierarchy);
}

} // namespace dse
