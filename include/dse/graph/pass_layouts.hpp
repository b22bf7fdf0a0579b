// The layouts and core splits of a schedule's vector passes (vector nodes run on their own, their
// lanes along the output's contiguous axis). Searched segments and copies move tiles word by word
// in any order, and so does the DMA between DRAM and the global buffer, so a layout costs nothing
// there; a tensor kept whole in the global buffer between segments, however, is stored in one
// layout, which every pass that writes or reads it shares, and one that is a view of an
// eliminated movement node (defined over the graph's own layout) keeps the graph's layout where
// the two layouts order it apart (layouts_store_alike).
#pragma once

#include <vector>

#include "dse/graph/layout_planner.hpp"
#include "dse/graph/segment_search.hpp"

namespace dse {

/// The cycles pass `node` spends beyond its vector operations at the array's full rate under
/// `option`: its lanes and cores left idle and the barrier after a split (pass_compute_cycles
/// less the ideal), the `cycles` of its part (MetricTotals).
double pass_idle_cycles(const Graph &graph, const Hardware &hw, int node,
                        const ParallelOption &option);

/// Part `part` of pass `node` (its counts, idle cycles left 0) with `option`'s idle cycles.
SegmentPart with_pass_option(SegmentPart part, const Graph &graph, const Hardware &hw, int node,
                             const ParallelOption &option);

/// Pass `node` of counts `part` on its fastest option (the first of equals): its cost on its own,
/// where no tensor binds its layout.
SegmentCost fastest_pass_cost(const Graph &graph, const Hardware &hw, int node,
                              const SegmentPart &part, LatencyModel model);

/// The passes of one schedule and what binds their layouts.
struct PassLayoutProblem {
  std::vector<std::vector<ParallelOption>> options; // per pass, its latency under each
  std::vector<std::vector<int>> shared; // sets of passes that store or read one tensor on chip
  std::vector<bool> graph_layout;       // per pass: bound to the graph's own layout (LastAxis)
};

/// The option each pass takes: the passes bound together (transitively) by `shared` form groups
/// that take one layout, the one of least summed latency (LastAxis on ties, and always where a
/// member is bound to the graph's layout), and each pass its fastest option in it (the first of
/// equals). Exact: the groups' choices are independent and every option's latency is its own.
std::vector<int> choose_pass_layouts(const PassLayoutProblem &problem);

} // namespace dse
