// The general form of the hardware file written from a Hardware: every number in a form that
// reads back as the same double, names quoted when YAML needs it, defaults left out.
#include "dse/cli/hardware_yaml_writer.hpp"

#include <array>
#include <utility>

#include "dse/cli/yaml_name.hpp"
#include "dse/support/check.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

/// Role bits as `holds` spells them, in the loader's order.
constexpr std::array<std::pair<std::uint8_t, const char *>, 4> kRoleNames{{
    {role::kOutput, "output"},
    {role::kOperand0, "operand0"},
    {role::kOperand1, "operand1"},
    {role::kIntermediate, "intermediate"},
}};

std::string holds_text(std::uint8_t holds) {
  std::string text;
  for (const auto &[bit, name] : kRoleNames)
    if (holds & bit)
      text += (text.empty() ? "" : ", ") + std::string(name);
  return "[" + text + "]";
}

/// ", key: value" for a limit that is given, nothing for an unlimited one.
std::string rate_field(const char *key, const std::optional<double> &words_per_cycle) {
  return words_per_cycle ? std::string(", ") + key + ": " + exact_number(*words_per_cycle) : "";
}

/// Fills are charged the write energy; updates only say so when they differ.
std::string energy_fields(const StorageLevel &s) {
  std::string text = ", read_energy_pj: " + exact_number(s.read_pj) +
                     ", write_energy_pj: " + exact_number(s.fill_pj);
  if (s.update_pj != s.fill_pj)
    text += ", update_energy_pj: " + exact_number(s.update_pj);
  return text;
}

/// The backing store (level 0) is unbounded: it takes no capacity, holds or double buffering,
/// which would mean nothing there.
std::string level_entry(const StorageLevel &s, bool backing_store) {
  std::string text = "  - {level: " + yaml_name(s.name);
  if (!backing_store)
    text += ", capacity_words: " + std::to_string(*s.capacity_words);
  text += rate_field("bandwidth_words_per_cycle", s.shared_words_per_cycle);
  text += rate_field("read_bandwidth_words_per_cycle", s.read_words_per_cycle);
  text += rate_field("write_bandwidth_words_per_cycle", s.write_words_per_cycle);
  text += energy_fields(s);
  if (!backing_store && s.holds != role::kAll)
    text += ", holds: " + holds_text(s.holds);
  if (!backing_store && s.double_buffering)
    text += ", double_buffering: true";
  return text + "}\n";
}

std::string fanout_entry(const Fanout &f) {
  std::string text = "  - {fanout: " + yaml_name(f.name) + ", x: " + std::to_string(f.x);
  if (f.y != 1)
    text += ", y: " + std::to_string(f.y);
  if (!f.multicast)
    text += ", multicast: false";
  if (!f.reduction)
    text += ", reduction: false";
  return text + "}\n";
}

std::string hierarchy_text(const Hierarchy &h) {
  std::string text = "hierarchy:\n";
  for (size_t l = 0; l < h.levels.size(); ++l) {
    text += level_entry(h.levels[l], l == 0);
    for (const Fanout &f : h.fanouts[l])
      text += fanout_entry(f);
  }
  return text;
}

std::string compute_text(const Hierarchy &h) {
  if (h.vector)
    return "compute: {fma_energy_pj: " + exact_number(h.mac_pj) + ", vector: true}\n";
  return "compute: {mac_energy_pj: " + exact_number(h.mac_pj) + "}\n";
}

const char *direction_text(DmaDirection direction) {
  switch (direction) {
  case DmaDirection::Load:
    return "load";
  case DmaDirection::Store:
    return "store";
  case DmaDirection::Both:
    return "both";
  }
  return "both";
}

std::string dma_text(const std::vector<DmaUnit> &units) {
  if (units.empty())
    return "";
  std::string text = "dma_units:\n";
  for (const DmaUnit &unit : units)
    text += "  - {name: " + yaml_name(unit.name) +
            ", direction: " + direction_text(unit.direction) +
            ", bandwidth_gbps: " + exact_number(unit.bandwidth_gbps) + "}\n";
  return text;
}

} // namespace

std::string hardware_yaml(const Hardware &hw) {
  DSE_CHECK(!hw.is_legacy(), "the general form is written for hierarchies counted by docs/"
                             "HIERARCHY.md §4; '" +
                                 hw.name + "' uses the legacy model");
  std::string text = "name: " + yaml_name(hw.name) + "\n";
  if (!hw.source.empty())
    text += "source: " + yaml_double_quoted(hw.source) + "\n";
  text += "clock_ghz: " + exact_number(hw.clock_ghz) + "\n";
  text += "word_bytes: " + std::to_string(hw.word_bytes) + "\n";
  if (!hw.hierarchy.first_read_elision)
    text += "first_read_elision: false\n";
  return text + hierarchy_text(hw.hierarchy) + compute_text(hw.hierarchy) + dma_text(hw.dma_units);
}

} // namespace dse
