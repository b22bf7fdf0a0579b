// How the balanced latency model (dram_transfer_cycles in cost.hpp) spreads one transfer over the
// hardware's DMA units: each unit's words and busy cycles, for the reports.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"

namespace dse {

/// One DMA unit's share of the DRAM words of a mapping or segment.
struct DmaUnitLoad {
  std::string name;
  double read_words = 0;  // DRAM -> GB
  double write_words = 0; // GB -> DRAM
  double cycles = 0;      // busy cycles: its words / its words per cycle

  double words() const { return read_words + write_words; }
};

/// The shares of `reads` and `writes` DRAM words, one per unit in hw.dma_units order (empty when
/// the hardware declares no units). The shares sum to reads and writes, and no unit is busy
/// longer than the fluid optimum of dram_transfer_cycles.
std::vector<DmaUnitLoad> dma_unit_loads(double reads, double writes, const Hardware &hw);

/// Adds `part` to `total` unit by unit (parts that run one after another); an empty `total`
/// takes `part` as it is, an empty `part` (no transfer) changes nothing.
void add_dma_loads(std::vector<DmaUnitLoad> &total, const std::vector<DmaUnitLoad> &part);

} // namespace dse
