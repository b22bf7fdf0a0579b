// Reads and validates hardware YAML into dse::Hardware: today's form (below) here, the general
// form (`hierarchy:`, docs/HIERARCHY.md §2.1) in hierarchy_loader.cpp; a file with a `hierarchy`
// key is in the general form.
//
// Today's format (levels outermost first; energies are pJ per word access, finite and >= 0):
//
//   name: accel-1mb                  # required string
//   source: "Horowitz ISSCC 2014"    # optional string: where the figures come from
//   clock_ghz: 1.0                   # required, 1e-6..1e6
//   word_bytes: 2                    # required integer 1..16
//   cores: 1                         # optional integer >= 1 (default 1), cores share DRAM
//   pe_array: {rows: 32, cols: 32, mac_energy_pj: 0.56}
//   vector: {lanes: 16, fma_units: 3, fma_energy_pj: 1.0}   # exactly one of pe_array / vector;
//                                    # a vector maps to rows = fma_units, cols = lanes
//   levels:                          # required list of 2 or 3 levels, names unique
//     - {name: DRAM, bandwidth_gbps: 60, read_energy_pj: 100.0, write_energy_pj: 100.0}
//     - {name: GlobalBuffer, capacity_kib: 1024, bandwidth_words_per_cycle: 64,
//        read_energy_pj: 1.9, write_energy_pj: 2.1, double_buffering: false}
//     - {name: RegFile, capacity_words: 64, read_energy_pj: 0.05, write_energy_pj: 0.05}
//   counting: legacy                 # optional: legacy (default) or timeloop, the counting
//                                    # of docs/HIERARCHY.md §4
//   first_read_elision: true         # optional bool (default true), counting: timeloop only
//
// Level 0 (DRAM) is unbounded: bandwidth_gbps (1e-6..1e6) is required and capacity keys are
// errors.
// Level 1 (global buffer) takes exactly one of capacity_kib (a positive number, converted to
// floor(kib * 1024 / word_bytes) words) or capacity_words (integer); either way 1..2^40 words.
// bandwidth_words_per_cycle (1e-6..1e12) is optional (unlimited when absent); double_buffering is
// an optional bool (default false). Level 2 (register file, optional) requires capacity_words.
//
//   dma_units:                       # optional non-empty list, names unique (both forms)
//     - {name: dma0, direction: both, bandwidth_gbps: 10}
//
// A DMA unit moves words between DRAM and the global buffer: direction is load (DRAM -> GB),
// store (GB -> DRAM) or both; bandwidth_gbps is 1e-6..1e6. When units are
// declared, some unit must load and some unit must store.
#include "dse/config/hardware_loader.hpp"

#include "hardware_yaml.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "hierarchy_loader.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

constexpr std::int64_t kMaxCores = std::int64_t{1} << 16;
constexpr std::int64_t kMaxWordBytes = 16;

constexpr RateRange kClockRangeGhz{1e-6, 1e6, "between 1e-6 and 1e6 GHz"};

/// Energies are summed over up to ~1e18 accesses: beyond a millijoule per access, a total
/// could overflow, and no real memory or MAC costs that much.
constexpr double kMaxEnergyPj = 1e9;

void read_energies(const YamlMap &m, MemoryLevel &level) {
  level.read_energy_pj = read_energy(m, "read_energy_pj");
  level.write_energy_pj = read_energy(m, "write_energy_pj");
}

MemoryLevel read_dram(const YamlMap &m, std::string_view name_key) {
  reject_capacity(m);
  m.allow_only({name_key, "bandwidth_gbps", "read_energy_pj", "write_energy_pj"});
  MemoryLevel level;
  level.bandwidth_gbps = read_rate(m, "bandwidth_gbps", kBandwidthRangeGbps);
  read_energies(m, level);
  return level;
}

std::int64_t read_capacity_kib(const YamlMap &m, std::int64_t word_bytes) {
  const double kib = m.number("capacity_kib", Bound::Positive);
  const YAML::Node &value = m.required("capacity_kib");
  const double words = std::floor(kib * 1024.0 / static_cast<double>(word_bytes));
  if (words < 1)
    m.fail(value, "capacity_kib " + value.Scalar() + " holds less than one " +
                      std::to_string(word_bytes) + "-byte word");
  const std::int64_t max_kib = kMaxCapacityWords / 1024 * word_bytes;
  if (words > static_cast<double>(kMaxCapacityWords))
    m.fail(value,
           "capacity_kib must be at most " + std::to_string(max_kib) + ", got " + value.Scalar());
  return static_cast<std::int64_t>(words);
}

MemoryLevel read_global_buffer(const YamlMap &m, std::int64_t word_bytes,
                               std::string_view name_key) {
  m.allow_only({name_key, "capacity_kib", "capacity_words", "bandwidth_words_per_cycle",
                "read_energy_pj", "write_energy_pj", "double_buffering"});
  MemoryLevel level;
  level.capacity_words = read_capacity(m, word_bytes);
  if (m.has("bandwidth_words_per_cycle"))
    level.bandwidth_words_per_cycle =
        read_rate(m, "bandwidth_words_per_cycle", kBandwidthRangeWordsPerCycle);
  read_energies(m, level);
  level.double_buffering = m.boolean_or("double_buffering", false);
  return level;
}

MemoryLevel read_register_file(const YamlMap &m, std::string_view name_key) {
  m.allow_only({name_key, "capacity_words", "read_energy_pj", "write_energy_pj"});
  MemoryLevel level;
  level.capacity_words = m.integer("capacity_words", 1, kMaxCapacityWords);
  read_energies(m, level);
  return level;
}

} // namespace

double read_rate(const YamlMap &m, std::string_view key, const RateRange &range) {
  const double v = m.number(key, Bound::Positive);
  if (v < range.min || v > range.max)
    m.fail(m.required(key),
           std::string(key) + " must be " + range.text + ", got " + m.required(key).Scalar());
  return v;
}

double read_energy(const YamlMap &m, std::string_view key) {
  const double pj = m.number(key, Bound::NonNegative);
  if (pj > kMaxEnergyPj)
    m.fail(m.required(key), std::string(key) + " must be at most 1e9 pJ per access, got " +
                                m.required(key).Scalar());
  return pj;
}

void reject_capacity(const YamlMap &m) {
  for (std::string_view key : {"capacity_kib", "capacity_words"})
    if (m.has(key))
      m.fail(m.key_node(key),
             "the outermost level is unbounded and takes no '" + std::string(key) + "'");
}

std::int64_t read_capacity(const YamlMap &m, std::int64_t word_bytes) {
  const bool has_kib = m.has("capacity_kib");
  const bool has_words = m.has("capacity_words");
  if (has_kib && has_words)
    m.fail(m.key_node("capacity_words"),
           "give either 'capacity_kib' or 'capacity_words', not both");
  if (!has_kib && !has_words)
    m.fail(m.node(), "missing required key 'capacity_kib' (or 'capacity_words')");
  if (has_words)
    return m.integer("capacity_words", 1, kMaxCapacityWords);
  return read_capacity_kib(m, word_bytes);
}

MemoryLevel read_memory_level(const YamlMap &m, size_t index, std::int64_t word_bytes,
                              std::string_view name_key) {
  if (index == 0)
    return read_dram(m, name_key);
  if (index == 1)
    return read_global_buffer(m, word_bytes, name_key);
  return read_register_file(m, name_key);
}

namespace {

MemoryLevel read_level(const YAML::Node &node, size_t index, std::int64_t word_bytes,
                       const std::string &file_name) {
  const YamlMap unnamed(node, file_name, "levels[" + std::to_string(index) + "]");
  const std::string name = unnamed.name("name");
  MemoryLevel level = read_memory_level(YamlMap(node, file_name, "level '" + name + "'"), index,
                                        word_bytes, "name");
  level.name = name;
  return level;
}

std::vector<MemoryLevel> read_levels(const YamlMap &top, std::int64_t word_bytes) {
  const YAML::Node &list = top.list("levels");
  if (list.size() < 2 || list.size() > 3)
    top.fail(list, "levels must list 2 or 3 levels (DRAM, global buffer, optional register "
                   "file), got " +
                       std::to_string(list.size()));
  std::vector<MemoryLevel> levels;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    levels.push_back(read_level(list[i], i, word_bytes, top.file_name()));
    if (!names.insert(levels.back().name).second)
      top.fail(list[i]["name"], "duplicate level name '" + levels.back().name + "'");
  }
  return levels;
}

DmaDirection read_direction(const YamlMap &m) {
  const std::string direction = m.string("direction");
  if (direction == "load")
    return DmaDirection::Load;
  if (direction == "store")
    return DmaDirection::Store;
  if (direction == "both")
    return DmaDirection::Both;
  m.fail(m.required("direction"),
         "direction must be load, store or both, got " + describe(m.required("direction")));
}

DmaUnit read_dma_unit(const YAML::Node &node, size_t index, const std::string &file_name) {
  const YamlMap unnamed(node, file_name, "dma_units[" + std::to_string(index) + "]");
  DmaUnit unit;
  unit.name = unnamed.name("name");
  const YamlMap m(node, file_name, "dma unit '" + unit.name + "'");
  m.allow_only({"name", "direction", "bandwidth_gbps"});
  unit.direction = read_direction(m);
  unit.bandwidth_gbps = read_rate(m, "bandwidth_gbps", kBandwidthRangeGbps);
  return unit;
}

std::vector<DmaUnit> read_dma_units(const YamlMap &top) {
  if (!top.has("dma_units"))
    return {};
  const YAML::Node &list = top.list("dma_units");
  if (list.size() == 0)
    top.fail(list, "dma_units must list at least one unit (or be left out), got an empty list");
  std::vector<DmaUnit> units;
  std::set<std::string> names;
  for (size_t i = 0; i < list.size(); ++i) {
    units.push_back(read_dma_unit(list[i], i, top.file_name()));
    if (!names.insert(units.back().name).second)
      top.fail(list[i]["name"], "duplicate dma unit name '" + units.back().name + "'");
  }
  const auto any = [&units](bool (DmaUnit::*can)() const) {
    return std::any_of(units.begin(), units.end(), [can](const DmaUnit &u) { return (u.*can)(); });
  };
  if (!any(&DmaUnit::loads))
    top.fail(list, "dma_units: no unit loads (direction load or both), so DRAM words could "
                   "never reach the global buffer");
  if (!any(&DmaUnit::stores))
    top.fail(list, "dma_units: no unit stores (direction store or both), so results could "
                   "never reach DRAM");
  return units;
}

ComputeArray read_pe_array(const YamlMap &m) {
  m.allow_only({"rows", "cols", "mac_energy_pj"});
  ComputeArray array;
  array.rows = m.integer("rows", 1, kMaxArraySide);
  array.cols = m.integer("cols", 1, kMaxArraySide);
  array.mac_energy_pj = read_energy(m, "mac_energy_pj");
  return array;
}

ComputeArray read_vector(const YamlMap &m) {
  m.allow_only({"lanes", "fma_units", "fma_energy_pj"});
  ComputeArray array;
  array.cols = m.integer("lanes", 1, kMaxArraySide);
  array.rows = m.integer("fma_units", 1, kMaxArraySide);
  array.mac_energy_pj = read_energy(m, "fma_energy_pj");
  array.is_vector = true;
  return array;
}

ComputeArray read_compute(const YamlMap &top) {
  const bool has_array = top.has("pe_array");
  const bool has_vector = top.has("vector");
  if (has_array && has_vector)
    top.fail(top.key_node("vector"), "give either 'pe_array' or 'vector', not both");
  if (!has_array && !has_vector)
    top.fail(top.node(), "missing required key 'pe_array' (or 'vector')");
  if (has_array)
    return read_pe_array(top.map("pe_array", "pe_array"));
  return read_vector(top.map("vector", "vector"));
}

Counting read_counting(const YamlMap &top, Counting fallback) {
  if (!top.has("counting"))
    return fallback;
  const std::string counting = top.string("counting");
  if (counting == "legacy")
    return Counting::Legacy;
  if (counting == "timeloop")
    return Counting::Timeloop;
  top.fail(top.required("counting"),
           "counting must be legacy or timeloop, got " + describe(top.required("counting")));
}

/// First-read elision is a rule of the general model only (docs/HIERARCHY.md §4.2).
bool read_first_read_elision(const YamlMap &top, Counting counting) {
  if (counting == Counting::Legacy && top.has("first_read_elision"))
    top.fail(top.key_node("first_read_elision"),
             "first_read_elision needs counting: timeloop (the legacy model has no first-read "
             "elision)");
  return top.boolean_or("first_read_elision", true);
}

void read_todays_form(const YamlMap &top, Hardware &hw, Counting counting) {
  hw.cores = top.integer_or("cores", 1, 1, kMaxCores);
  hw.array = read_compute(top);
  hw.levels = read_levels(top, hw.word_bytes);
  hw.hierarchy = hierarchy_from_levels(hw, counting);
}

} // namespace

Hardware hardware_from_yaml(const YAML::Node &root, const std::string &file_name) {
  const YamlMap top(root, file_name, "");
  const bool general = top.has("hierarchy");
  if (general)
    top.allow_only({"name", "source", "clock_ghz", "word_bytes", "counting", "first_read_elision",
                    "hierarchy", "compute", "dma_units", "mapspace"});
  else
    top.allow_only({"name", "source", "clock_ghz", "word_bytes", "cores", "pe_array", "vector",
                    "levels", "dma_units", "counting", "first_read_elision"});
  Hardware hw;
  hw.source_file = file_name;
  hw.name = top.name("name");
  hw.source = top.optional_string("source").value_or("");
  hw.clock_ghz = read_rate(top, "clock_ghz", kClockRangeGhz);
  hw.word_bytes = top.integer("word_bytes", 1, kMaxWordBytes);
  const Counting counting = read_counting(top, general ? Counting::Timeloop : Counting::Legacy);
  if (general)
    read_general_form(top, hw, counting);
  else
    read_todays_form(top, hw, counting);
  hw.hierarchy.first_read_elision = read_first_read_elision(top, counting);
  hw.dma_units = read_dma_units(top);
  return hw;
}

Hardware parse_hardware(const std::string &yaml_text, const std::string &file_name) {
  return hardware_from_yaml(parse_yaml(yaml_text, file_name), file_name);
}

Hardware load_hardware(const std::string &path, std::uint64_t max_input_mib) {
  return parse_hardware(read_yaml_file(path, max_input_mib), path);
}

} // namespace dse
