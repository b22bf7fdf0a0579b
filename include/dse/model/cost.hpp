// Energy and latency from metric values (docs/DESIGN.md §4.2). The one place where hardware
// numbers turn counts into picojoules and seconds; the matrix search and the brute-force
// evaluator both call it.
#pragma once

#include <algorithm>

#include "dse/ir/hardware.hpp"

namespace dse {

enum class LatencyModel { Roofline, Sequential };

/// Totals of one mapping: counts of words, MACs, cycles and vector operations.
struct MetricTotals {
  double dram_reads = 0;
  double dram_writes = 0;
  double gb_reads = 0;  // GB -> PE
  double gb_writes = 0; // PE -> GB
  double macs = 0;
  double cycles = 0; // array cycles beyond vector_ops at full rate: MAC cycles, summed over
                     // operators, or a vector pass's idle lanes and cores (pass_layouts.hpp)
  double vector_ops = 0;
  double buffer_words = 0; // max over operators of GB words live
};

/// The objectives a front can be drawn over.
struct Objectives {
  double latency_s = 0;
  double energy_pj = 0;
  double edp = 0; // pJ * s
  double dram_words = 0;
  double buffer_words = 0;
};

/// Latency parts in cycles, for the breakdown.
struct LatencyParts {
  double compute_cycles = 0;
  double dram_cycles = 0;
  double gb_cycles = 0;
};

/// Hardware numbers folded into per-count weights, computed once per search.
struct CostWeights {
  double mac_pj = 0; // a MAC, with its register-file accesses
  double vector_op_pj = 0;
  double dram_read_pj = 0;  // a word read from DRAM and written into the GB
  double dram_write_pj = 0; // a word read from the GB and written to DRAM
  double gb_read_pj = 0;
  double gb_write_pj = 0;
  double cycles_per_vector_op = 1;
  double cycles_per_dram_word = 0;
  double cycles_per_gb_word = 0; // 0 when the GB bandwidth is unlimited
  // DMA units by direction, words per cycle summed over the units (docs/DESIGN.md §4.2); all 0 and
  // `dma_balanced` false when the hardware declares none.
  bool dma_balanced = false;
  double dma_load_words_per_cycle = 0;  // load-only units
  double dma_store_words_per_cycle = 0; // store-only units
  double dma_both_words_per_cycle = 0;  // bidirectional units
  double seconds_per_cycle = 1e-9;
  LatencyModel latency_model = LatencyModel::Roofline;
};

CostWeights cost_weights(const Hardware &hw, LatencyModel model);

/// Cycles to move `reads` words DRAM -> GB and `writes` words GB -> DRAM: the one function that
/// turns DRAM word counts into time (mapping evaluation, the search's lower bounds, network
/// segments, the memory simulation and the layout predictor all call it). Without DMA units, the
/// DRAM bandwidth alone. With them, transfers are divisible over the units, so the balanced time is
/// the fluid optimum over load-only (L), store-only (S) and bidirectional (B) bandwidth,
///   max(reads / (L + B), writes / (S + B), (reads + writes) / (L + S + B)),
/// and never less than the DRAM's own time. A max of linear functions with non-negative
/// coefficients: monotone in both counts, so the search's bounds and pruning stay sound. (The
/// loader guarantees L + B > 0 and S + B > 0.)
inline double dram_transfer_cycles(double reads, double writes, const CostWeights &w) {
  const double dram = (reads + writes) * w.cycles_per_dram_word;
  if (!w.dma_balanced)
    return dram;
  const double load = w.dma_load_words_per_cycle, store = w.dma_store_words_per_cycle,
               both = w.dma_both_words_per_cycle;
  return std::max({dram, reads / (load + both), writes / (store + both),
                   (reads + writes) / (load + store + both)});
}

inline LatencyParts latency_parts(const MetricTotals &m, const CostWeights &w) {
  return {m.cycles + m.vector_ops * w.cycles_per_vector_op,
          dram_transfer_cycles(m.dram_reads, m.dram_writes, w),
          (m.gb_reads + m.gb_writes) * w.cycles_per_gb_word};
}

inline double energy_pj(const MetricTotals &m, const CostWeights &w) {
  return w.mac_pj * m.macs + w.vector_op_pj * m.vector_ops + w.dram_read_pj * m.dram_reads +
         w.dram_write_pj * m.dram_writes + w.gb_read_pj * m.gb_reads + w.gb_write_pj * m.gb_writes;
}

inline Objectives objectives(const MetricTotals &m, const CostWeights &w) {
  const LatencyParts parts = latency_parts(m, w);
  const double cycles = w.latency_model == LatencyModel::Roofline
                            ? std::max({parts.compute_cycles, parts.dram_cycles, parts.gb_cycles})
                            : parts.compute_cycles + parts.dram_cycles + parts.gb_cycles;
  Objectives o;
  o.latency_s = cycles * w.seconds_per_cycle;
  o.energy_pj = energy_pj(m, w);
  o.edp = o.latency_s * o.energy_pj;
  o.dram_words = m.dram_reads + m.dram_writes;
  o.buffer_words = m.buffer_words;
  return o;
}

} // namespace dse
