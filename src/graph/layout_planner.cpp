// The CoMCU latency predictor per (layout, core split) option, the conversion cost matrices on
// the edges, and the min-plus solution compared with the best single-layout one-core plan.
#include "dse/graph/layout_planner.hpp"

#include <cmath>
#include <limits>

#include "dse/graph/node_work.hpp"
#include "dse/model/cost.hpp"

namespace dse {

std::string layout_name(DataLayout layout, size_t rank) {
  if (rank == 4)
    return layout == DataLayout::LastAxis ? "NCHW" : "NHWC";
  return layout == DataLayout::LastAxis ? "row-major" : "col-major";
}

namespace {

/// The contiguous (vectorised) axis of a tensor of rank `rank` under `layout`.
size_t vector_axis(DataLayout layout, size_t rank) {
  if (layout == DataLayout::LastAxis || rank < 2)
    return rank - 1;
  return rank == 4 ? 1 : rank - 2;
}

/// Fraction of the lanes doing useful work on an axis of `extent` elements.
double lane_use(std::int64_t extent, std::int64_t lanes) {
  const std::int64_t groups = (extent + lanes - 1) / lanes;
  return static_cast<double>(extent) / static_cast<double>(groups * lanes);
}

/// The busiest core's fraction of a node's positions split along `o.split_axis`.
double core_share(const Shape &out, const ParallelOption &o) {
  const std::int64_t extent = out[static_cast<size_t>(o.split_axis)];
  const std::int64_t per_core = (extent + o.cores - 1) / o.cores;
  return static_cast<double>(per_core) / static_cast<double>(extent);
}

} // namespace

bool layouts_store_alike(const Shape &shape) {
  if (shape.size() < 2)
    return true;
  const size_t channel = vector_axis(DataLayout::ChannelAxis, shape.size());
  std::int64_t after = 1;
  for (size_t a = channel + 1; a < shape.size(); ++a)
    after *= shape[a];
  return shape[channel] == 1 || after == 1;
}

std::vector<ParallelOption> parallel_options(const Shape &out, std::int64_t cores) {
  std::vector<ParallelOption> opts;
  for (DataLayout layout : {DataLayout::LastAxis, DataLayout::ChannelAxis}) {
    opts.push_back({layout, 1, -1, 0});
    if (cores < 2 || out.size() < 2)
      continue;
    const size_t channel = out.size() == 4 ? 1 : out.size() - 1;
    for (size_t axis : {channel, out.size() - 2})
      if (out[axis] >= cores)
        opts.push_back({layout, static_cast<int>(cores), static_cast<int>(axis), 0});
  }
  return opts;
}

double pass_compute_cycles(double work, const Shape &out, const ParallelOption &option,
                           const Hardware &hw, const LayoutCosts &costs) {
  std::int64_t vec_extent = out.empty() ? 1 : out[vector_axis(option.layout, out.size())];
  double share = 1;
  if (option.cores > 1) {
    share = core_share(out, option);
    if (static_cast<size_t>(option.split_axis) == vector_axis(option.layout, out.size()))
      vec_extent = (vec_extent + option.cores - 1) / option.cores;
  }
  const auto lanes = static_cast<double>(hw.array.cols);
  const auto units = static_cast<double>(hw.array.rows);
  return work * share / (units * lanes * lane_use(vec_extent, hw.array.cols)) +
         (option.cores > 1 ? costs.barrier_cycles : 0);
}

namespace {

class Predictor {
public:
  Predictor(const Graph &graph, const Hardware &hw, const LayoutCosts &costs)
      : g_(graph), hw_(hw), costs_(costs), weights_(cost_weights(hw, LatencyModel::Roofline)),
        gb_words_per_cycle_(hw.gb_words_per_cycle().value_or(hw.dram_words_per_cycle())) {}

  std::vector<ParallelOption> options(int node) const {
    std::vector<ParallelOption> opts =
        parallel_options(g_.tensor(g_.node(node).outputs[0]).shape, hw_.cores);
    for (ParallelOption &o : opts)
      o.latency_s = predict(node, o);
    return opts;
  }

  /// Converting the tensor between a producer option and a consumer option, in seconds.
  double conversion_s(int tensor, const ParallelOption &from, const ParallelOption &to) const {
    const auto words = static_cast<double>(element_count(g_.tensor(tensor).shape));
    double cycles = 0;
    if (from.layout != to.layout)
      cycles += 2 * words / gb_words_per_cycle_; // read and write it transposed
    if (from.cores != to.cores || from.split_axis != to.split_axis) {
      const double cores = static_cast<double>(std::max(from.cores, to.cores));
      cycles += words * (1 - 1 / cores) / gb_words_per_cycle_; // moved between cores
    }
    return cycles / (hw_.clock_ghz * 1e9);
  }

private:
  double predict(int node, const ParallelOption &o) const {
    const GraphNode &n = g_.node(node);
    double compute = 0;
    if (is_movement(n.kind)) {
      const double share = o.cores > 1 ? core_share(g_.tensor(n.outputs[0]).shape, o) : 1;
      compute = node_activation_words(g_, node) / gb_words_per_cycle_ * share; // a copy
      compute += o.cores > 1 ? costs_.barrier_cycles : 0;
    } else {
      compute = pass_compute_cycles(node_macs(g_, node) + node_vector_ops(g_, node),
                                    g_.tensor(n.outputs[0]).shape, o, hw_, costs_);
    }
    const double words = node_activation_words(g_, node) + node_weight_words(g_, node);
    const double writes = node_output_words(g_, node);
    const double memory = dram_transfer_cycles(words - writes, writes, weights_);
    return std::max(compute, memory) / (hw_.clock_ghz * 1e9);
  }

  const Graph &g_;
  const Hardware &hw_;
  LayoutCosts costs_;
  CostWeights weights_; // DRAM transfer time, balanced over the DMA units
  double gb_words_per_cycle_;
};

CostGraph cost_graph(const Graph &graph, const Predictor &p,
                     const std::vector<std::vector<ParallelOption>> &options) {
  CostGraph cg;
  for (const auto &opts : options) {
    std::vector<double> costs;
    for (const ParallelOption &o : opts)
      costs.push_back(o.latency_s);
    cg.node_costs.push_back(std::move(costs));
  }
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    for (int t : graph.nodes[v].inputs) {
      const int u = graph.tensor(t).producer;
      if (u < 0)
        continue;
      CostEdge e{u, static_cast<int>(v), {}};
      for (const ParallelOption &from : options[static_cast<size_t>(u)]) {
        std::vector<double> row;
        for (const ParallelOption &to : options[v])
          row.push_back(p.conversion_s(t, from, to));
        e.cost.push_back(std::move(row));
      }
      cg.edges.push_back(std::move(e));
    }
  return cg;
}

} // namespace

LayoutPlan plan_layout(const Graph &graph, const Hardware &hw, const LayoutCosts &costs) {
  const Predictor predictor(graph, hw, costs);
  LayoutPlan plan;
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    plan.options.push_back(predictor.options(static_cast<int>(v)));
  const CostGraph cg = cost_graph(graph, predictor, plan.options);
  const EliminationResult r = solve_min_plus(cg);
  plan.chosen = r.option;
  plan.latency_s = r.cost;
  plan.exact = r.exact;
  plan.branched_nodes = r.branched_nodes;
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    plan.conversion_s -= cg.node_costs[v][static_cast<size_t>(r.option[v])];
  plan.conversion_s += r.cost;
  // Baseline: one layout everywhere on one core (option 0 of a layout is its one-core option).
  plan.baseline_s = std::numeric_limits<double>::infinity();
  for (DataLayout layout : {DataLayout::LastAxis, DataLayout::ChannelAxis}) {
    double total = 0;
    for (const auto &opts : plan.options)
      for (const ParallelOption &o : opts)
        total += o.layout == layout && o.cores == 1 ? o.latency_s : 0;
    if (total < plan.baseline_s) {
      plan.baseline_s = total;
      plan.baseline_layout = layout;
    }
  }
  return plan;
}

} // namespace dse
