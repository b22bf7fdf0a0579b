// The graph-level pipeline of `dse network`, one pass per line: movement elimination, bank
// mapping, memory hotspots, adaptive splitting, fusion segments searched by the matrix engine,
// the one schedule they make (split regions run part by part, tensors kept on chip between
// segments, vector passes laid out), or without the searches layout/parallelism planning. On a
// general hierarchy: movement elimination, bank mapping, each compute node searched alone, and
// their schedule through DRAM (docs/HIERARCHY.md §8.5).
#pragma once

#include "dse/graph/adaptive_split.hpp"
#include "dse/graph/bank_mapping.hpp"
#include "dse/graph/fusion_segments.hpp"
#include "dse/graph/hotspots.hpp"
#include "dse/graph/layout_planner.hpp"
#include "dse/graph/movement_elimination.hpp"
#include "dse/graph/network_schedule.hpp"

namespace dse {

struct NetworkOptions {
  PlanObjective objective = PlanObjective::Latency; // fusion segments and split benefit
  /// Per-segment searches (tile menu, threads, latency model, longest fused run).
  SearchOptions search = network_search_options();
  SplitOptions split;          // its objective is set from `objective`
  bool search_segments = true; // false: skip the matrix-engine searches (memory planning only)
  /// General hierarchies: each run of two linked compute nodes that can fuse is also searched
  /// fused (explore_hier's fused pairs, docs/HIERARCHY.md §8.5).
  bool hier_fusion = false;
  ProgressReporter progress;
};

struct NetworkPlan {
  MovementPlan movement;
  BankMapping banks;
  SplitResult split;          // this and the next two: today's model only (empty otherwise)
  MemoryReport memory_before; // hotspots of the whole-node plan
  MemoryReport memory_after;  // with the split regions as super-nodes
  FusionPlan fusion;          // empty when search_segments is false
  NetworkSchedule schedule;   // of the fusion segments; empty when search_segments is false
  LayoutPlan layout;          // today's model without search_segments only (the schedule lays
                              // out its own vector passes)
  double seconds = 0;

  /// 1 - peak_after / peak_before of the global level (VMOC's memory compression).
  double compression() const;
};

NetworkPlan plan_network(const Graph &graph, const Hardware &hw, const NetworkOptions &options);

} // namespace dse
