// Folds the hardware's energies, bandwidths and clock into per-count weights.
#include "dse/model/cost.hpp"

namespace dse {

CostWeights cost_weights(const Hardware &hw, LatencyModel model) {
  const MemoryLevel &dram = hw.dram();
  const MemoryLevel &gb = hw.global_buffer();
  CostWeights w;
  // Each MAC reads two operands and writes one partial sum in the register file, if declared.
  const MemoryLevel *rf = hw.register_file();
  const double rf_pj = rf ? 2 * rf->read_energy_pj + rf->write_energy_pj : 0.0;
  w.mac_pj = hw.array.mac_energy_pj + rf_pj;
  w.vector_op_pj = hw.array.mac_energy_pj;
  w.dram_read_pj = dram.read_energy_pj + gb.write_energy_pj;
  w.dram_write_pj = dram.write_energy_pj + gb.read_energy_pj;
  w.gb_read_pj = gb.read_energy_pj;
  w.gb_write_pj = gb.write_energy_pj;
  w.cycles_per_vector_op = 1.0 / static_cast<double>(hw.effective_rows() * hw.effective_cols());
  w.cycles_per_dram_word = 1.0 / hw.dram_words_per_cycle();
  const auto gb_bw = hw.gb_words_per_cycle();
  w.cycles_per_gb_word = gb_bw ? 1.0 / *gb_bw : 0.0;
  for (const DmaUnit &unit : hw.dma_units) {
    w.dma_balanced = true;
    double &rate = unit.direction == DmaDirection::Load    ? w.dma_load_words_per_cycle
                   : unit.direction == DmaDirection::Store ? w.dma_store_words_per_cycle
                                                           : w.dma_both_words_per_cycle;
    rate += hw.dma_words_per_cycle(unit);
  }
  w.seconds_per_cycle = 1e-9 / hw.clock_ghz;
  w.latency_model = model;
  return w;
}

} // namespace dse
