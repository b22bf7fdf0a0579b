// The accelerator as plain data: memory levels, compute array, clock. Built by config, read by
// the model and the search.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/hierarchy.hpp"

namespace dse {

/// One off-chip or on-chip memory level. Energies are per word access.
struct MemoryLevel {
  std::string name;
  /// Capacity in words; empty for DRAM (unbounded).
  std::optional<std::int64_t> capacity_words;
  /// Bandwidth in GB/s (DRAM) ...
  std::optional<double> bandwidth_gbps;
  /// ... or in words per cycle (on-chip levels).
  std::optional<double> bandwidth_words_per_cycle;
  double read_energy_pj = 0.0;
  double write_energy_pj = 0.0;
  bool double_buffering = false;

  bool operator==(const MemoryLevel &) const = default;
};

/// The compute fabric seen by the spatial mapping: `rows x cols` MACs per cycle and core.
/// A vector target (lanes x FMA units) is mapped to rows = fma_units, cols = lanes.
struct ComputeArray {
  std::int64_t rows = 1;
  std::int64_t cols = 1;
  double mac_energy_pj = 0.0;
  bool is_vector = false;
};

/// Which DRAM <-> global-buffer transfers a DMA (load-store) unit carries.
enum class DmaDirection { Load, Store, Both };

/// One DRAM <-> global-buffer transfer engine. Transfers are divisible: a stream of words is
/// split into descriptors over the units that can carry it.
struct DmaUnit {
  std::string name;
  DmaDirection direction = DmaDirection::Both;
  double bandwidth_gbps = 0;

  bool loads() const { return direction != DmaDirection::Store; }
  bool stores() const { return direction != DmaDirection::Load; }
};

/// A whole accelerator. `levels`, `array` and `cores` are today's form (DRAM, global buffer and
/// optionally an innermost register file), read by the legacy model; they are empty for a file
/// in the general form. `hierarchy` describes every file (docs/HIERARCHY.md §1, §2).
struct Hardware {
  std::string name;
  std::string source_file;
  /// Where the figures come from (free text from the file's `source:` key; may be empty).
  std::string source;
  double clock_ghz = 1.0;
  std::int64_t word_bytes = 2;
  std::int64_t cores = 1;
  ComputeArray array;
  std::vector<MemoryLevel> levels;
  /// The DMA units that move DRAM words, in file order; empty when the file declares none (then
  /// the DRAM bandwidth alone limits transfers). Non-empty lists can load and can store.
  std::vector<DmaUnit> dma_units;
  Hierarchy hierarchy;

  /// Whether the legacy model (today's form, `counting: legacy`) evaluates this hardware.
  bool is_legacy() const { return hierarchy.counting == Counting::Legacy; }

  const MemoryLevel &dram() const { return levels.front(); }
  const MemoryLevel &global_buffer() const { return levels.at(1); }
  /// The register level, if the file declares one (third level).
  const MemoryLevel *register_file() const { return levels.size() > 2 ? &levels[2] : nullptr; }

  /// Rows of the effective array: cores split the row dimension.
  std::int64_t effective_rows() const { return array.rows * cores; }
  std::int64_t effective_cols() const { return array.cols; }
  std::int64_t gb_capacity_words() const { return *global_buffer().capacity_words; }
  double dram_words_per_cycle() const {
    return *dram().bandwidth_gbps / (clock_ghz * static_cast<double>(word_bytes));
  }
  double dma_words_per_cycle(const DmaUnit &unit) const {
    return unit.bandwidth_gbps / (clock_ghz * static_cast<double>(word_bytes));
  }
  /// Global-buffer bandwidth in words per cycle (unlimited when not given).
  std::optional<double> gb_words_per_cycle() const {
    return global_buffer().bandwidth_words_per_cycle;
  }
};

/// The hierarchy of a file in today's form (`levels`, `pe_array`/`vector`, `cores`) under
/// `counting`, by the table of docs/HIERARCHY.md §1.
Hierarchy hierarchy_from_levels(const Hardware &hw, Counting counting);

} // namespace dse
