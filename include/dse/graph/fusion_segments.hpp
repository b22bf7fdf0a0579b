// Fusion segments: the graph partitioned into single compute nodes and runs of linked ones fused
// (each with the vector nodes attached to its results) searched by the matrix engine, plus the
// remaining vector and data-movement nodes costed analytically; along each chain of fusable
// links a dynamic program picks the segmentation with the lowest latency or energy, and the same
// recursion over fronts (Minkowski sums and unions) traces the segments' latency-energy front.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dse/graph/lowering.hpp"
#include "dse/graph/movement_elimination.hpp"
#include "dse/graph/segment_search.hpp"
#include "dse/graph/split_region.hpp"

namespace dse {

/// Split: a split region run part by part (parted_segment.hpp).
enum class SegmentKind { Single, Fused, Vector, Movement, Split };
const char *segment_kind_name(SegmentKind kind);

struct Segment {
  SegmentKind kind = SegmentKind::Single;
  std::vector<int> nodes;          // all graph nodes it covers, in graph order
  std::string label;               // node names joined by '+'
  std::optional<UserError> no_fit; // a searched segment that no mapping fits: why
  SegmentCost cost;
  std::map<std::string, int> graph_tensors; // the graph tensor behind each tensor cost.parts name
  bool eliminated = false;                  // a movement node that moves nothing: an alias
  SplitRegion region;                       // Split: the region run part by part

  bool feasible() const { return !no_fit; }
};

/// Longest run of linked compute nodes a network plan fuses by default: runs of three cost a
/// network far more than pairs (MobileNetV2 on the vector DSP: 1.7 s and 350 MiB instead of 0.2 s).
inline constexpr std::size_t kNetworkMaxFused = 2;

/// The search options a network plan starts from: explore's, with runs of kNetworkMaxFused.
inline SearchOptions network_search_options() {
  SearchOptions options;
  options.max_fused = kNetworkMaxFused;
  return options;
}

struct FusionOptions {
  PlanObjective objective = PlanObjective::Latency;
  /// Tile menu, threads, latency model and longest fused run of the segment searches.
  SearchOptions search = network_search_options();
  const MovementPlan *movement = nullptr; // eliminated movement nodes cost nothing
  ProgressReporter progress;              // segment label, compute nodes done, total
};

struct FusionPlan {
  std::vector<Segment> segments;    // in graph order of their first node
  std::vector<Segment> unfused;     // the same graph with every compute node on its own
  std::vector<Segment> other_fused; // the fused runs searched but not on the plan, that fit
  /// Sums over the segments; total.front is the latency-energy front over every segmentation
  /// and every segment's front point (tensors between segments through DRAM).
  SegmentCost total;
  int searches = 0;   // explorations run (distinct segment workloads)
  int cache_hits = 0; // segments that reused an earlier exploration
};

/// Throws the search's UserError, naming the segment, when a segment of the best plan fits no
/// mapping (a node that fits on its own is never fused into an infeasible run).
FusionPlan plan_fusion(const Graph &graph, const Hardware &hw, const FusionOptions &options);

/// A vector or movement node run on its own, its operands to and from DRAM through the GB (read
/// and written there); an eliminated movement node moves and costs nothing. In today's model a
/// vector node runs on its fastest layout and core split (pass_layouts.hpp).
Segment standalone_segment(const Graph &graph, const Hardware &hw, int node, LatencyModel model,
                           bool eliminated);

} // namespace dse
