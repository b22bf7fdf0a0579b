// Runs an execution plan against the global memory: live words per step, the spills that a
// full memory forces, the DRAM traffic, and a per-step roofline latency and energy.
#pragma once

#include <vector>

#include "dse/graph/exec_plan.hpp"
#include "dse/ir/hardware.hpp"

namespace dse {

struct StepMemory {
  double demand_words = 0;   // every live buffer whole, the step's weights and working words
  double resident_words = 0; // what stays on chip after spilling
  double dram_words = 0;     // DRAM words moved during the step
  double cycles = 0;         // max(compute, DRAM transfer balanced over DMA units) for the step
};

struct SimulationResult {
  std::vector<StepMemory> steps;
  std::vector<bool> spilled; // per buffer
  double dram_reads = 0;
  double dram_writes = 0;
  double spill_words = 0; // DRAM words moved for spilled buffers
  double macs = 0;
  double vector_ops = 0;
  double latency_s = 0;
  double energy_pj = 0;

  double peak_demand() const;
  double dram_words() const { return dram_reads + dram_writes; }
};

/// Buffers live from their first to their last access and stay on chip unless a step finds the
/// resident words above `capacity_words`: then live buffers are spilled to DRAM, those the step
/// does not touch first, largest first (ties: lower index), and every later access of a spilled
/// buffer moves its words. Graph inputs are loaded once, graph outputs written once; weights are
/// read at every step that uses them. Latency is the sum over steps of max(compute cycles on the
/// whole array, DRAM cycles of dram_transfer_cycles); energy counts MACs, vector operations and
/// DRAM words.
SimulationResult simulate_plan(const ExecPlan &plan, const Hardware &hw, double capacity_words);

} // namespace dse
