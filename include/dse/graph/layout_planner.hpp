// Layout and intra-operator parallelism (CoMCU): every node picks a (data layout, core split)
// option with a predicted latency; edges carry the cost of converting the layout and
// redistributing the tensor between cores; min-plus elimination picks the cheapest plan. The
// options and a vector pass's compute cycles under one are shared with the schedule's layouts
// (pass_layouts.hpp).
#pragma once

#include <string>
#include <vector>

#include "dse/graph/elimination_solver.hpp"
#include "dse/ir/graph.hpp"
#include "dse/ir/hardware.hpp"

namespace dse {

/// Which axis of a tensor is contiguous (vectorised): the last one (NCHW images, row-major
/// matrices) or the channel one (NHWC images, column-major matrices).
enum class DataLayout { LastAxis, ChannelAxis };
/// "NCHW"/"NHWC" for rank-4 tensors, "row-major"/"col-major" otherwise.
std::string layout_name(DataLayout layout, size_t rank);

struct ParallelOption {
  DataLayout layout = DataLayout::LastAxis;
  int cores = 1;
  int split_axis = -1; // output axis divided between the cores; -1 on one core
  double latency_s = 0;
};

/// The latency predictor's fixed costs, in cycles.
struct LayoutCosts {
  double barrier_cycles = 1000; // synchronising the cores after a split operator
};

/// Whether both layouts store a tensor of shape `shape` in the same order: the channel-axis layout
/// moves that axis (the channels of an image, the rows of a matrix) innermost, which changes no
/// order where it has one position or only positions of one after it.
bool layouts_store_alike(const Shape &shape);

/// The options of a node whose output has shape `out`, latencies left 0: each layout on one core
/// and, with two cores or more, split between all of them along the channel axis or the axis
/// before the last where that axis has a position per core.
std::vector<ParallelOption> parallel_options(const Shape &out, std::int64_t cores);

/// Cycles of the busiest core running `work` vector operations of a node whose output has shape
/// `out` under `option`: its share of the work on the array's rows, the lanes along the
/// contiguous axis (a last group of that axis fills only part of them), and the barrier after a
/// split.
double pass_compute_cycles(double work, const Shape &out, const ParallelOption &option,
                           const Hardware &hw, const LayoutCosts &costs = {});

struct LayoutPlan {
  std::vector<std::vector<ParallelOption>> options; // per node
  std::vector<int> chosen;                          // per node
  double latency_s = 0;                             // chosen plan: node latencies plus conversions
  double conversion_s = 0; // of which layout conversions and redistributions
  double baseline_s = 0;   // best plan with one layout everywhere on one core
  DataLayout baseline_layout = DataLayout::LastAxis;
  bool exact = true;      // the elimination solved the graph exactly
  int branched_nodes = 0; // nodes the non-series-parallel fallback conditioned on
  double speedup() const { return latency_s > 0 ? baseline_s / latency_s : 1; }
};

/// The options of each node, the cost graph over them and its min-plus solution.
LayoutPlan plan_layout(const Graph &graph, const Hardware &hw, const LayoutCosts &costs = {});

} // namespace dse
