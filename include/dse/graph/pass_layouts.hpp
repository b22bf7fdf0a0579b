// The layouts and core splits of a schedule's vector passes (vector nodes run on their own, their
// lanes along the output's contiguous axis). Searched segments and copies move tiles word by word
// in any order, and so does the DMA between DRAM and the global buffer, so a layout costs nothing
// there; a tensor kept whole in the global buffer between segments, however, is stored in one
// layout, which every pass that writes or reads it shares, and one that is a view of an
// eliminated movement node (defined over the graph's own layout) keeps the graph's layout where
// the two layouts order it apart (layouts_store_alike).
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "dse/graph/fusion_segments.hpp"
#include "dse/graph/layout_planner.hpp"
#include "dse/graph/segment_search.hpp"

namespace dse {

/// Part `part` of pass `node` (its counts) with `option`'s idle cycles as its `cycles`
/// (MetricTotals): its lanes and cores left idle and the barrier after a split, that is
/// pass_compute_cycles less its vector operations at the array's full rate.
SegmentPart with_pass_option(SegmentPart part, const Graph &graph, const Hardware &hw, int node,
                             const ParallelOption &option);

/// Pass `node` of counts `part` on its fastest option (choose_pass_layouts on the pass alone):
/// its cost on its own, where no tensor binds its layout.
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

/// Which layouts a schedule's vector passes may take.
enum class PassLayouts {
  Planned,    // chosen by choose_pass_layouts
  GraphLayout // the graph's own (LastAxis) only, each pass on its fastest core split in it
};

/// What a schedule keeps on chip, per graph tensor: its buffer (one root for the tensors of an
/// eliminated movement node, which share storage) and whether that buffer stays in the global
/// buffer between segments.
struct OnChipTensors {
  const std::vector<int> &buffer_of;
  const std::vector<bool> &resident;
};

/// Segment `i` of a schedule run as `part`, its tensors kept on chip moving no DRAM word.
using PassCostInSchedule = std::function<SegmentCost(size_t i, const SegmentPart &part)>;

/// The passes (vector nodes run on their own) among `segments` laid out as `layouts` allows: the
/// passes that write or read one buffer kept on chip bound together, and to the graph's layout
/// where that buffer is a view the two layouts order apart; each option costed by `cost`. The
/// chosen options' costs go to `costs` and the options to `chosen`, both per segment.
void lay_out_passes(const Graph &graph, const Hardware &hw,
                    const std::vector<const Segment *> &segments, const OnChipTensors &on_chip,
                    PassLayouts layouts, const PassCostInSchedule &cost,
                    std::vector<SegmentCost> &costs,
                    std::vector<std::optional<ParallelOption>> &chosen);

} // namespace dse
