// Evaluation of one fully specified mapping (candidate + tiling): totals for the searches and
// the full per-tensor, per-operator, per-component breakdown for `dse eval` and the front CSV.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/cost.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/model/dma_balance.hpp"
#include "dse/model/metrics.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

MetricTotals evaluate_totals(const DataflowMetrics &dataflow, const ComputeMetrics &compute,
                             const AtomTable &atoms);

struct TensorReport {
  std::string name;
  std::string role; // input, output, intermediate
  int retention_depth = 0;
  double footprint_words = 0;
  double dram_reads = 0;
  double dram_writes = 0;
};

struct OperatorReport {
  std::string name;
  double macs = 0;
  double cycles = 0;
  double utilisation = 0; // MACs / (cycles * array size)
  double buffer_words = 0;
};

struct EnergyReport {
  double mac_pj = 0;
  double vector_pj = 0;
  double dram_pj = 0;
  double global_buffer_pj = 0;
  double register_file_pj = 0;
};

struct MappingReport {
  std::vector<TensorReport> tensors;
  std::vector<OperatorReport> operators;
  MetricTotals totals;
  Objectives objectives;
  LatencyParts latency_cycles;
  std::string bound;                  // which latency part dominates: compute, dram or gb
  std::vector<DmaUnitLoad> dma_units; // DRAM words per DMA unit (empty without units)
  EnergyReport energy;
  double softmax_pass_words = 0;  // unfused softmax: words read and written by its own pass
  double overlap_store_words = 0; // cached halos: the overlap stores' words (in every gb_words)
};

MappingReport evaluate_mapping(const Problem &problem, const Candidate &candidate,
                               const Tiling &tiling, const Hardware &hw, LatencyModel model);

} // namespace dse
