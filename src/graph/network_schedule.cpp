// The network's one schedule: segment order, which tensors stay in the global buffer between
// segments (the memory simulation with each segment's tiles as its working words), the segment
// costs with those tensors on chip, and the passes' contributions.
#include "dse/graph/network_schedule.hpp"

#include <algorithm>
#include <numeric>

#include "dse/graph/memory_simulation.hpp"
#include "dse/graph/node_work.hpp"

namespace dse {

namespace {

/// The segments in the order they run: by their last node, so every input they read from the
/// graph is produced before (graph order is topological; a pair's intermediate has one reader).
std::vector<int> execution_order(const std::vector<Segment> &segments) {
  std::vector<int> order(segments.size());
  std::iota(order.begin(), order.end(), 0);
  const auto last = [&](int s) { return segments[static_cast<size_t>(s)].nodes.back(); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return last(a) < last(b); });
  return order;
}

/// Tensors that are one buffer: an eliminated movement node's inputs and outputs share storage.
class TensorGroups {
public:
  TensorGroups(const Graph &graph, const std::vector<Segment> &segments)
      : root_(graph.tensors.size()) {
    std::iota(root_.begin(), root_.end(), 0);
    for (const Segment &s : segments) {
      if (!s.eliminated)
        continue;
      const GraphNode &n = graph.node(s.nodes.front());
      for (int in : n.inputs)
        for (int out : n.outputs)
          if (graph.tensor(in).kind != TensorKind::Weight)
            root_[static_cast<size_t>(find(out))] = find(in);
    }
  }

  int find(int t) {
    while (root_[static_cast<size_t>(t)] != t)
      t = root_[static_cast<size_t>(t)] = root_[static_cast<size_t>(root_[static_cast<size_t>(t)])];
    return t;
  }

private:
  std::vector<int> root_;
};

/// Whether a tensor may stay on chip between segments: an activation that starts and ends
/// outside DRAM (not a graph input or output).
bool may_stay_on_chip(const GraphTensor &t) {
  return t.kind == TensorKind::Activation && !t.is_output;
}

/// The global buffer's plan over the segments: one buffer per tensor group (the largest member's
/// words), one step per segment that moves words, with its tiles as working words.
ExecPlan residency_plan(const Graph &graph, const std::vector<Segment> &segments,
                        const std::vector<int> &order, TensorGroups &groups) {
  ExecPlan plan;
  add_tensor_buffers(graph, plan);
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const auto root = static_cast<size_t>(groups.find(static_cast<int>(t)));
    PlanBuffer &b = plan.buffers[root];
    b.words = std::max(b.words, static_cast<double>(element_count(graph.tensors[t].shape)));
    if (!may_stay_on_chip(graph.tensors[t]))
      b.dram_only = true;
  }
  for (int index : order) {
    const Segment &s = segments[static_cast<size_t>(index)];
    if (s.eliminated)
      continue;
    PlanStep step;
    step.node = s.nodes.back();
    step.working_words = s.cost.buffer_words;
    for (const auto &[name, tensor] : s.graph_tensors) {
      if (graph.tensor(tensor).kind == TensorKind::Weight)
        continue;
      const int root = groups.find(tensor);
      const bool write =
          std::find(s.nodes.begin(), s.nodes.end(), graph.tensor(tensor).producer) != s.nodes.end();
      step.accesses.push_back({root, plan.buffers[static_cast<size_t>(root)].words, write});
    }
    plan.steps.push_back(std::move(step));
  }
  return plan;
}

/// Per buffer, whether it stays on chip: never spilled, and both written and read by the
/// segments.
std::vector<bool> resident_buffers(const ExecPlan &plan, const SimulationResult &simulation) {
  std::vector<bool> written(plan.buffers.size(), false), read(plan.buffers.size(), false);
  for (const PlanStep &step : plan.steps)
    for (const BufferAccess &a : step.accesses)
      (a.write ? written : read)[static_cast<size_t>(a.buffer)] = true;
  std::vector<bool> resident(plan.buffers.size(), false);
  for (size_t b = 0; b < plan.buffers.size(); ++b)
    resident[b] = !plan.buffers[b].dram_only && !simulation.spilled[b] && written[b] && read[b];
  return resident;
}

/// The most words the global buffer holds at one step: its working words and the resident
/// buffers live from their first access to their last.
double peak_words(const ExecPlan &plan, const std::vector<bool> &resident) {
  const std::vector<BufferSpan> spans = buffer_spans(plan);
  double peak = 0;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    double held = plan.steps[i].working_words;
    for (size_t b = 0; b < plan.buffers.size(); ++b)
      if (resident[b] && spans[b].live_at(static_cast<int>(i)))
        held += plan.buffers[b].words;
    peak = std::max(peak, held);
  }
  return peak;
}

/// The segment's cost with the DRAM words of its resident tensors moved on chip.
SegmentCost cost_with_residency(const Segment &s, const std::vector<bool> &resident,
                                const Hardware &hw, LatencyModel model) {
  if (s.eliminated || s.cost.parts.empty())
    return s.cost;
  std::vector<SegmentPart> parts = s.cost.parts;
  for (SegmentPart &part : parts)
    for (TensorDramWords &t : part.tensors) {
      const auto bound = s.graph_tensors.find(t.tensor);
      if (bound == s.graph_tensors.end() || !resident[static_cast<size_t>(bound->second)])
        continue;
      part.totals.dram_reads -= t.reads;
      part.totals.dram_writes -= t.writes;
      t.reads = t.writes = 0;
    }
  SegmentCost c = sequence_cost(std::move(parts), hw, model);
  c.fused = s.cost.fused;
  c.restreamed = s.cost.restreamed;
  c.front = s.cost.front;
  return c;
}

/// The schedule of `segments`, tensors kept on chip where they fit when `keep_on_chip`.
NetworkSchedule schedule_of(const Graph &graph, const Hardware &hw,
                            const std::vector<Segment> &segments, LatencyModel model,
                            bool keep_on_chip) {
  NetworkSchedule out;
  out.order = execution_order(segments);
  out.capacity_words = static_cast<double>(hw.gb_capacity_words());
  TensorGroups groups(graph, segments);
  const ExecPlan plan = residency_plan(graph, segments, out.order, groups);
  const std::vector<bool> buffers =
      keep_on_chip ? resident_buffers(plan, simulate_plan(plan, hw, out.capacity_words))
                   : std::vector<bool>(plan.buffers.size(), false);
  out.peak_words = peak_words(plan, buffers);
  out.resident.resize(graph.tensors.size());
  for (size_t t = 0; t < graph.tensors.size(); ++t)
    out.resident[t] = buffers[static_cast<size_t>(groups.find(static_cast<int>(t)))];
  out.costs.resize(segments.size());
  for (int index : out.order) {
    const auto i = static_cast<size_t>(index);
    out.costs[i] = cost_with_residency(segments[i], out.resident, hw, model);
    const SegmentCost &c = out.costs[i];
    out.total.latency_s += c.latency_s;
    out.total.energy_pj += c.energy_pj;
    out.total.dram_words += c.dram_words;
    out.total.macs += c.macs;
    add_dma_loads(out.total.dma_units, c.dma_units);
  }
  return out;
}

} // namespace

NetworkSchedule schedule_network(const Graph &graph, const Hardware &hw, const FusionPlan &plan,
                                 LatencyModel model) {
  NetworkSchedule schedule = schedule_of(graph, hw, plan.segments, model, true);
  schedule.contributions.push_back(
      {"fusion", schedule_of(graph, hw, plan.unfused, model, true).total});
  schedule.contributions.push_back(
      {"on-chip residency", schedule_of(graph, hw, plan.segments, model, false).total});
  std::vector<Segment> copies = plan.segments;
  for (Segment &s : copies)
    if (s.eliminated)
      s = standalone_segment(graph, hw, s.nodes.front(), model, false);
  schedule.contributions.push_back(
      {"movement elimination", schedule_of(graph, hw, copies, model, true).total});
  return schedule;
}

} // namespace dse
