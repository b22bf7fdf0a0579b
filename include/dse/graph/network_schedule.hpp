// One schedule of a whole network: the fusion segments in execution order, tensors passed from
// one segment to another kept whole in the global buffer where they fit beside the running
// segments' tiles (the others go through DRAM, as each segment's search assumes), with the DRAM
// words, latency and energy reported once, and each pass's contribution as the difference to the
// same schedule without it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dse/graph/fusion_segments.hpp"
#include "dse/graph/layout_planner.hpp"

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
  std::vector<Segment> segments;  // as run: FusionPlan::segments with the changes below
  std::vector<int> split;         // first nodes of the plan's fused runs run as their singles
  std::vector<int> joined;        // first nodes of other fused runs run instead of their singles
  std::vector<int> copied;        // the plan's eliminated movement nodes run as copies
  std::vector<int> parted;        // first nodes of the split regions run part by part
  std::vector<int> order;         // segments in the order they run
  std::vector<SegmentCost> costs; // per segment (by index): resident tensors moved on chip (its
                                  // front stays the segment's own, in segments[i].cost)
  std::vector<bool> resident;     // per graph tensor: held in the global buffer between segments
  std::vector<std::optional<ParallelOption>> layouts; // per segment (by index): a vector pass's
                                                      // layout and core split (today's model)
  ScheduleTotals total;
  double capacity_words = 0; // of the global buffer
  double peak_words = 0;     // the most it holds: a segment's tiles and the resident tensors
  std::vector<PassContribution> contributions; // fusion, splitting, on-chip residency, movement
                                               // elimination, layout planning
  /// The network's front: the plan's segment front (every segmentation and segment mapping,
  /// tensors between segments through DRAM) united with every schedule evaluated (this one, the
  /// changes tried and the contributions', and those of the same search for the other
  /// objective), points beaten on latency and energy removed.
  CostFront front;
};

/// The schedule of `plan` on `hw`: segments run when their last node's turn comes (graph order).
/// A tensor produced by one segment and read by others (not a graph input or output) may stay
/// whole in the global buffer from its producer to its last reader: by DRAM words saved per word
/// and step held, most first, each is kept when it fits beside every running segment's tiles and
/// the tensors kept before it. A kept tensor's DRAM reads and writes in each segment's mapping
/// become accesses in place (its tiles are views of it), and each part's latency and energy
/// follow from its counts as in the search. Each vector pass takes its layout and core split
/// (pass_layouts.hpp): the passes that share a tensor kept on chip one layout, the graph's own
/// where that tensor is a view the two layouts order apart. An eliminated movement node's outputs
/// share its input's storage (one buffer, the largest member's words), kept on chip whole or not
/// at all.
/// From the plan's segments, a local search in `objective`: each fused run of the plan run as
/// its singles, each other fused run searched (FusionPlan::other_fused) run instead of its
/// singles, each eliminated movement node run as a copy, and each of `regions` (split regions
/// run part by part, parted_segment.hpp) run instead of the segments it holds, one change made
/// or undone at a time while the schedule gets cheaper; the schedules without fusion, without
/// movement elimination and without splitting are tried whole too, so no contribution is
/// negative (nor is layout planning's: the graph's own layout is one the passes may take).
NetworkSchedule schedule_network(const Graph &graph, const Hardware &hw, const FusionPlan &plan,
                                 const std::vector<Segment> &regions, LatencyModel model,
                                 PlanObjective objective);

/// The schedule of `segments` as they are, tensors passed between them kept whole in the global
/// buffer where they fit (the packing of schedule_network): how a split region runs one part.
NetworkSchedule residency_schedule(const Graph &graph, const Hardware &hw,
                                   const std::vector<Segment> &segments, LatencyModel model);

/// The schedule of `plan`'s segments as they are, every tensor between segments through DRAM
/// (the backing store), as each segment's search assumes: the schedule of a general hierarchy,
/// whose levels hold tiles only (docs/HIERARCHY.md). Its front is the plan's.
NetworkSchedule through_dram_schedule(const Graph &graph, const FusionPlan &plan);

} // namespace dse
