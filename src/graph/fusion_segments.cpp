// Segmentation of the graph into searched segments (single compute nodes and fused runs of them)
// and analytically costed vector and movement nodes; a dynamic program along each chain of
// fusable links.
#include "dse/graph/fusion_segments.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "dse/graph/node_work.hpp"
#include "dse/graph/pass_layouts.hpp"
#include "dse/model/cost.hpp"
#include "dse/model/dma_balance.hpp"
#include "dse/model/hier_vector_pass.hpp"

namespace dse {

const char *segment_kind_name(SegmentKind kind) {
  switch (kind) {
  case SegmentKind::Single:
    return "single";
  case SegmentKind::Fused:
    return "fused";
  case SegmentKind::Vector:
    return "vector";
  case SegmentKind::Movement:
    return "movement";
  case SegmentKind::Split:
    return "split";
  }
  return "?";
}

namespace {

/// A compute node with its attached vector nodes, and its fusable consumer unit.
struct Unit {
  int node = -1;
  std::vector<int> attached;
  int next = -1;
  int prev = -1;
};

/// Lexicographic DP value: infeasible segments first, then the objective.
struct Value {
  int infeasible = 0;
  double objective = 0;
  bool operator<(const Value &o) const {
    return infeasible != o.infeasible ? infeasible < o.infeasible : objective < o.objective;
  }
  Value operator+(const Value &o) const {
    return {infeasible + o.infeasible, objective + o.objective};
  }
};

class FusionPlanner {
public:
  FusionPlanner(const Graph &graph, const Hardware &hw, const FusionOptions &options)
      : g_(graph), hw_(hw), options_(options), searcher_(hw, options.search, options.objective),
        unit_of_(graph.nodes.size(), -1), covered_(graph.nodes.size(), false) {}

  FusionPlan run() {
    build_units();
    link_units();
    prefetch_searches();
    for (size_t u = 0; u < units_.size(); ++u)
      if (units_[u].prev < 0)
        plan_path(static_cast<int>(u));
    for (size_t v = 0; v < g_.nodes.size(); ++v)
      if (!covered_[v])
        add_standalone(static_cast<int>(v));
    for (std::vector<Segment> *segments : {&plan_.segments, &plan_.unfused, &plan_.other_fused})
      std::sort(segments->begin(), segments->end(), [](const Segment &a, const Segment &b) {
        return a.nodes.front() < b.nodes.front();
      });
    for (const Segment &s : plan_.segments)
      add_to_total(s);
    plan_.total.front = std::move(network_front_);
    plan_.searches = searcher_.searches();
    plan_.cache_hits = searcher_.cache_hits();
    return std::move(plan_);
  }

private:
  int result_of(const Unit &u) const {
    return g_.node(u.attached.empty() ? u.node : u.attached.back()).outputs[0];
  }

  /// Whether every node attached to `u` so far adds a weight (a bias): a residual may still be
  /// added to the einsum's output, sums being in any order.
  bool adds_only_weights(const Unit &u) const {
    return std::all_of(u.attached.begin(), u.attached.end(), [&](int a) {
      const GraphNode &n = g_.node(a);
      if (n.op_type != "Add" || n.inputs.size() != 2)
        return false;
      const bool first = g_.tensor(n.inputs[0]).kind == TensorKind::Weight;
      const bool second = g_.tensor(n.inputs[1]).kind == TensorKind::Weight;
      return first != second;
    });
  }

  void build_units() {
    for (size_t v = 0; v < g_.nodes.size(); ++v) {
      if (!is_compute(g_.nodes[v].kind))
        continue;
      Unit u{static_cast<int>(v), {}, -1, -1};
      covered_[v] = true;
      for (int cur = g_.nodes[v].outputs[0];;) {
        const GraphTensor &t = g_.tensor(cur);
        if (t.is_output || t.consumers.size() != 1)
          break;
        const int next = t.consumers[0];
        // A residual add is counted as its einsum's: the output starts from the residual.
        const bool residual = adds_only_weights(u) && residual_operand(g_, next, cur) >= 0;
        if (!residual && (!is_attachable(g_, next) || g_.data_input(next) != cur))
          break;
        u.attached.push_back(next);
        covered_[static_cast<size_t>(next)] = true;
        cur = g_.node(next).outputs[0];
      }
      unit_of_[v] = static_cast<int>(units_.size());
      units_.push_back(std::move(u));
    }
  }

  void link_units() {
    for (size_t u = 0; u < units_.size(); ++u) {
      const GraphTensor &t = g_.tensor(result_of(units_[u]));
      if (t.is_output || t.consumers.size() != 1)
        continue;
      const int v = unit_of_[static_cast<size_t>(t.consumers[0])];
      if (v < 0 || g_.node(units_[static_cast<size_t>(v)].node).inputs[0] != result_of(units_[u]))
        continue;
      const Unit &c = units_[static_cast<size_t>(v)];
      if (!lower_segment(g_, {{{units_[u].node, units_[u].attached}, {c.node, c.attached}}}))
        continue;
      units_[u].next = v;
      units_[static_cast<size_t>(v)].prev = static_cast<int>(u);
    }
  }

  /// Longest run of linked units searched fused (options.search.max_fused; 1 without fusion).
  size_t longest_run() const {
    return options_.search.fusion ? std::max<size_t>(1, options_.search.max_fused) : 1;
  }

  /// The units of the path that starts at unit `start`, in order.
  std::vector<const Unit *> path_from(int start) const {
    std::vector<const Unit *> path;
    for (int u = start; u >= 0; u = units_[static_cast<size_t>(u)].next)
      path.push_back(&units_[static_cast<size_t>(u)]);
    return path;
  }

  /// Units i to j - 1 of a path as one segment's nodes.
  static SegmentNodes run_nodes(const std::vector<const Unit *> &path, size_t i, size_t j) {
    SegmentNodes nodes;
    for (size_t k = i; k < j; ++k)
      nodes.units.push_back({path[k]->node, path[k]->attached});
    return nodes;
  }

  /// Every search the paths will ask for, run ahead in parallel: each unit alone and each run of
  /// linked units fused.
  void prefetch_searches() {
    std::vector<std::pair<Workload, bool>> segments;
    for (size_t u = 0; u < units_.size(); ++u) {
      if (units_[u].prev >= 0)
        continue;
      const std::vector<const Unit *> path = path_from(static_cast<int>(u));
      for (size_t i = 0; i < path.size(); ++i)
        for (size_t j = i + 1; j <= std::min(path.size(), i + longest_run()); ++j)
          if (std::optional<Workload> w = lower_segment(g_, run_nodes(path, i, j)))
            segments.emplace_back(std::move(*w), j > i + 1);
    }
    searcher_.prefetch(segments);
  }

  /// The segment of units i to j - 1 of the path, one alone or a run of them fused
  /// (std::nullopt when they cannot be).
  std::optional<Segment> searched(const std::vector<const Unit *> &path, size_t i, size_t j) {
    const SegmentNodes nodes = run_nodes(path, i, j);
    const std::optional<Workload> workload = lower_segment(g_, nodes);
    if (!workload)
      return std::nullopt;
    Segment s;
    s.kind = j > i + 1 ? SegmentKind::Fused : SegmentKind::Single;
    for (const SegmentUnit &u : nodes.units) {
      s.nodes.push_back(u.node);
      s.nodes.insert(s.nodes.end(), u.attached.begin(), u.attached.end());
    }
    s.label = label(s.nodes);
    s.graph_tensors = segment_graph_tensors(g_, nodes);
    std::optional<SegmentOutcome> outcome =
        s.kind == SegmentKind::Fused ? searcher_.best_fused(*workload) : searcher_.best(*workload);
    if (!outcome)
      return std::nullopt;
    s.no_fit = std::move(outcome->no_fit);
    if (outcome->cost)
      s.cost = std::move(*outcome->cost);
    return s;
  }

  Value value(const Segment &s) const {
    if (!s.feasible())
      return {1, 0};
    return {0, options_.objective == PlanObjective::Latency ? s.cost.latency_s : s.cost.energy_pj};
  }

  /// Dynamic program over the path starting at unit `start`: from each unit, a run of up to
  /// longest_run() units (one alone, or fused), then the best from the unit after it.
  void plan_path(int start) {
    const std::vector<const Unit *> path = path_from(start);
    const size_t n = path.size();
    std::vector<Value> best(n + 1);
    std::vector<std::vector<std::optional<Segment>>> runs(n); // runs[i][length - 1]
    std::vector<size_t> take(n, 1);
    for (size_t i = n; i-- > 0;)
      for (size_t j = i + 1; j <= std::min(n, i + longest_run()); ++j) {
        runs[i].push_back(searched(path, i, j));
        if (!runs[i].back())
          continue;
        const Value v = value(*runs[i].back()) + best[j];
        if (j == i + 1 || v < best[i]) {
          best[i] = v;
          take[i] = j - i;
        }
      }
    for (size_t i = 0; i < n; i += take[i])
      plan_.segments.push_back(*runs[i][take[i] - 1]);
    for (size_t i = 0; i < n; ++i) {
      plan_.unfused.push_back(*runs[i][0]);
      for (size_t length = 2; length <= runs[i].size(); ++length) {
        const std::optional<Segment> &run = runs[i][length - 1];
        if (run && run->feasible() && !(take[i] == length && on_plan(path, take, i)))
          plan_.other_fused.push_back(*run);
      }
    }
    network_front_ = minkowski_sum(network_front_, path_front(runs), PlanFrontPolicy{});
    done_ += n;
    if (options_.progress)
      options_.progress(runs[0][0]->label, done_, units_.size());
  }

  /// Whether the plan starts a segment at unit i of the path (`take`: each unit's run length).
  static bool on_plan(const std::vector<const Unit *> &path, const std::vector<size_t> &take,
                      size_t i) {
    size_t k = 0;
    while (k < i && k < path.size())
      k += take[k];
    return k == i;
  }

  /// The front of a path over every segmentation into runs.
  static CostFront path_front(const std::vector<std::vector<std::optional<Segment>>> &runs) {
    return segmented_front(
        runs.size(), runs.empty() ? 1 : runs[0].size(),
        [&](size_t i, size_t j) {
          const std::optional<Segment> &run = runs[i][j - i - 1];
          return run ? run->cost.front : CostFront{};
        },
        CostPoint{}, PlanFrontPolicy{});
  }

  std::string label(const std::vector<int> &nodes) const {
    std::string out;
    for (int v : nodes)
      out += (out.empty() ? "" : "+") + g_.node(v).name;
    return out;
  }

  void add_standalone(int v) {
    const bool eliminated =
        options_.movement && options_.movement->eliminated[static_cast<size_t>(v)];
    Segment s = standalone_segment(g_, hw_, v, options_.search.latency_model, eliminated);
    network_front_ = minkowski_sum(network_front_, s.cost.front, PlanFrontPolicy{});
    plan_.unfused.push_back(s);
    plan_.segments.push_back(std::move(s));
  }

  void add_to_total(const Segment &s) {
    if (!s.feasible())
      throw UserError(s.no_fit->where(), "segment '" + s.label + "': " + s.no_fit->message());
    SegmentCost &t = plan_.total;
    t.latency_s += s.cost.latency_s;
    t.energy_pj += s.cost.energy_pj;
    t.dram_words += s.cost.dram_words;
    t.buffer_words = std::max(t.buffer_words, s.cost.buffer_words);
    t.macs += s.cost.macs;
    add_dma_loads(t.dma_units, s.cost.dma_units);
  }

  const Graph &g_;
  const Hardware &hw_;
  const FusionOptions &options_;
  SegmentSearcher searcher_;
  std::vector<Unit> units_;
  std::vector<int> unit_of_;
  std::vector<bool> covered_;
  std::uint64_t done_ = 0;               // compute nodes planned so far
  CostFront network_front_{CostPoint{}}; // of the paths and standalone segments planned so far
  FusionPlan plan_;
};

/// The cost of a node run alone on a general hierarchy: its vector operations on the compute
/// units, its operands read from and written to the backing store.
SegmentCost hier_pass_cost(const Hardware &hw, const MetricTotals &totals, LatencyModel model) {
  const HierVectorPass pass =
      evaluate_hier_pass(hw, totals.vector_ops, totals.dram_reads, totals.dram_writes, model);
  SegmentCost c;
  c.latency_s = pass.latency_cycles / (hw.clock_ghz * 1e9);
  c.energy_pj = pass.energy_pj;
  c.dram_words = pass.dram_reads + pass.dram_updates;
  return c;
}

} // namespace

FusionPlan plan_fusion(const Graph &graph, const Hardware &hw, const FusionOptions &options) {
  return FusionPlanner(graph, hw, options).run();
}

Segment standalone_segment(const Graph &graph, const Hardware &hw, int node, LatencyModel model,
                           bool eliminated) {
  const GraphNode &n = graph.node(node);
  Segment s;
  s.kind = is_movement(n.kind) ? SegmentKind::Movement : SegmentKind::Vector;
  s.nodes = {node};
  s.label = n.name;
  s.eliminated = eliminated;
  if (!eliminated) {
    SegmentPart part;
    part.totals.dram_reads = node_weight_words(graph, node);
    part.totals.vector_ops = node_vector_ops(graph, node);
    // Today's model reads and writes the operands through the global buffer; a general
    // hierarchy's pass (hier_vector_pass.hpp) through the backing store.
    const auto add = [&](int t, bool write) {
      const GraphTensor &tensor = graph.tensor(t);
      if (tensor.kind == TensorKind::Weight)
        return;
      const auto words = static_cast<double>(element_count(tensor.shape));
      // From DRAM into the GB and read there, or written there and out to DRAM.
      (write ? part.totals.dram_writes : part.totals.dram_reads) += words;
      (write ? part.totals.gb_writes : part.totals.gb_reads) += words;
      part.tensors.push_back({tensor.name, write ? 0 : words, write ? words : 0});
      s.graph_tensors[tensor.name] = t;
    };
    for (int t : n.inputs)
      add(t, false);
    for (int t : n.outputs)
      add(t, true);
    if (!hw.is_legacy())
      s.cost = hier_pass_cost(hw, part.totals, model);
    else if (s.kind == SegmentKind::Vector) // its lanes along the best layout's contiguous axis
      s.cost = fastest_pass_cost(graph, hw, node, part, model);
    else
      s.cost = sequence_cost({std::move(part)}, hw, model); // the search's model
  }
  s.cost.front = {CostPoint{s.cost.latency_s, s.cost.energy_pj, s.cost.dram_words, 0}};
  return s;
}

} // namespace dse
