// One schedule of a whole network: the fusion segments in execution order, each tensor passed
// from one segment to another kept whole in the global buffer while it fits beside the running
// segments' tiles (else it goes through DRAM, as each segment's search assumes), with the DRAM
// words, latency and energy reported once, and each pass's contribution as the difference to the
// same schedule without it.
#pragma once

#include <string>
#include <vector>

#include "dse/graph/fusion_segments.hpp"

namespace dse {

/// What a schedule adds up to.
struct ScheduleTotals {
  double latency_s = 0;
  double energy_pj = 0;
  double dram_words = 0;
  double macs = 0;
  std::vector<DmaUnitLoad> dma_units; // summed over segments (empty without units)
};

/// The same schedule without one pass: its totals.
struct PassContribution {
  std::string pass;
  ScheduleTotals without;
};

struct NetworkSchedule {
  std::vector<int> order;         // FusionPlan::segments in the order they run
  std::vector<SegmentCost> costs; // per segment (by index): resident tensors moved on chip
  std::vector<bool> resident;     // per graph tensor: held in the global buffer between segments
  ScheduleTotals total;
  double capacity_words = 0; // of the global buffer
  double peak_words = 0;     // the most it holds: a segment's tiles and the resident tensors
  std::vector<PassContribution> contributions; // fusion, on-chip residency, movement elimination
};

/// The schedule of `plan` on `hw`: segments run when their last node's turn comes (graph order);
/// a tensor produced by one segment and read by others (not a graph input or output) stays on
/// chip unless a segment finds its tiles and the live resident tensors above the global buffer's
/// capacity, which spills the tensors it does not touch first, largest first. A resident tensor's
/// DRAM reads and writes in each segment's mapping become accesses in place (its tiles are views
/// of it), and each part's latency and energy follow from its counts as in the search. An
/// eliminated movement node's output is its input.
NetworkSchedule schedule_network(const Graph &graph, const Hardware &hw, const FusionPlan &plan,
                                 LatencyModel model);

} // namespace dse
