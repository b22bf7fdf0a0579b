// Internal to src/config: the general form of the hardware file (`hierarchy:`, docs/HIERARCHY.md
// §2.1), the field readers it shares with today's form (defined in hardware_loader.cpp), and the
// level-or-fan-out entries that hierarchical mapping files mirror.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "dse/ir/hardware.hpp"
#include "yaml_reader.hpp"

namespace dse {

/// A rate the model divides by, bounded on both sides so that no time overflows to infinity (a
/// subnormal bandwidth) or vanishes (a clock of 1e308 GHz): every result stays finite.
struct RateRange {
  double min, max;
  const char *text; // the range as messages print it
};
/// No memory or transfer engine moves a petabyte per second.
inline constexpr RateRange kBandwidthRangeGbps{1e-6, 1e6, "between 1e-6 and 1e6 GB/s"};
inline constexpr RateRange kBandwidthRangeWordsPerCycle{1e-6, 1e12,
                                                        "between 1e-6 and 1e12 words per cycle"};
inline constexpr std::int64_t kMaxArraySide = std::int64_t{1} << 20;

/// The number under `key`, positive and within `range`.
double read_rate(const YamlMap &m, std::string_view key, const RateRange &range);
/// pJ per access under `key`: finite, 0 to 1e9.
double read_energy(const YamlMap &m, std::string_view key);
/// Exactly one of `capacity_kib` (converted with `word_bytes`) or `capacity_words`, in words.
std::int64_t read_capacity(const YamlMap &m, std::int64_t word_bytes);
/// Rejects capacity keys on the outermost level, which is unbounded.
void reject_capacity(const YamlMap &m);
/// Level `index` of today's form (0 DRAM, 1 global buffer, 2 register file) with today's keys,
/// its name under `name_key`.
MemoryLevel read_memory_level(const YamlMap &m, size_t index, std::int64_t word_bytes,
                              std::string_view name_key);

/// Reads the `hierarchy` and `compute` keys of a file in the general form into `hw`, whose
/// clock and word size are already read. With `counting` legacy the file must have today's
/// shape and also fills `hw.levels` and `hw.array` as today's spelling would.
void read_general_form(const YamlMap &top, Hardware &hw, Counting counting);

/// One entry of a `hierarchy` list, or of a mapping's `levels` list that mirrors it.
struct HierarchyEntry {
  bool is_level = true; // else a fan-out
  std::string name;
  YAML::Node name_node; // for locations
};

/// Fails at `second` when the map has both keys ("give either ... not both").
void require_at_most_one(const YamlMap &m, std::string_view first, std::string_view second);
/// The entry's kind and name: exactly one of the keys `level` or `fanout`.
HierarchyEntry read_entry(const YamlMap &m);
/// "level 'DRAM'" or "fan-out 'mesh'", as messages name an entry.
std::string entry_text(bool is_level, const std::string &name);
/// The role bits of `roles` (role::k*) as the file spells them: "output, operand1".
std::string roles_text(std::uint8_t roles);

} // namespace dse
