// The network's one schedule: segment order, which tensors stay in the global buffer between
// segments (packed beside each segment's tiles, those that save the most DRAM words per word held
// first), the segment costs with those tensors on chip, and the passes' contributions.
#include "dse/graph/network_schedule.hpp"

#include <algorithm>
#include <numeric>
#include <tbb/parallel_invoke.h>

#include "dse/graph/exec_plan.hpp"
#include "dse/graph/node_work.hpp"
#include "dse/graph/pass_layouts.hpp"
#include "dse/support/contains.hpp"

namespace dse {

namespace {

/// Segments by pointer: the schedules a search evaluates share the plan's.
using SegmentRefs = std::vector<const Segment *>;

/// The segments in the order they run: by their last node, so every input they read from the
/// graph is produced before (graph order is topological; a run's intermediates have one reader).
std::vector<int> execution_order(const SegmentRefs &segments) {
  std::vector<int> order(segments.size());
  std::iota(order.begin(), order.end(), 0);
  const auto last = [&](int s) { return segments[static_cast<size_t>(s)]->nodes.back(); };
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return last(a) < last(b); });
  return order;
}

/// Tensors that are one buffer: an eliminated movement node's inputs and outputs share storage.
class TensorGroups {
public:
  TensorGroups(const Graph &graph, const SegmentRefs &segments) : root_(graph.tensors.size()) {
    std::iota(root_.begin(), root_.end(), 0);
    for (const Segment *s : segments) {
      if (!s->eliminated)
        continue;
      const GraphNode &n = graph.node(s->nodes.front());
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
ExecPlan residency_plan(const Graph &graph, const SegmentRefs &segments,
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
    const Segment &s = *segments[static_cast<size_t>(index)];
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

/// Per buffer, the DRAM words its tensors move in the segments' own mappings: what keeping it
/// on chip saves.
std::vector<double> dram_savings(const ExecPlan &plan, const SegmentRefs &segments,
                                 TensorGroups &groups) {
  std::vector<double> saving(plan.buffers.size(), 0);
  for (const Segment *s : segments)
    for (const SegmentPart &part : s->cost.parts)
      for (const TensorDramWords &t : part.tensors)
        if (const auto bound = s->graph_tensors.find(t.tensor); bound != s->graph_tensors.end())
          saving[static_cast<size_t>(groups.find(bound->second))] += t.reads + t.writes;
  return saving;
}

/// Which buffers stay on chip, and the most words the global buffer holds at one step (a step's
/// working words and the kept buffers live from their first access to their last).
struct Residency {
  std::vector<bool> resident; // per buffer
  double peak_words = 0;
};

/// Candidates are buffers both written and read by the segments whose keeping saves DRAM words;
/// by DRAM words saved per word and step held, most first (ties: lower index), each is kept when
/// it fits beside the steps' working words and the buffers kept before it at every step of its
/// span.
Residency pack_on_chip(const ExecPlan &plan, const std::vector<double> &saving, double capacity) {
  std::vector<bool> written(plan.buffers.size(), false), read(plan.buffers.size(), false);
  for (const PlanStep &step : plan.steps)
    for (const BufferAccess &a : step.accesses)
      (a.write ? written : read)[static_cast<size_t>(a.buffer)] = true;
  const std::vector<BufferSpan> spans = buffer_spans(plan);
  const auto density = [&](size_t b) {
    return saving[b] / (plan.buffers[b].words * (spans[b].last - spans[b].first + 1));
  };
  std::vector<size_t> candidates;
  for (size_t b = 0; b < plan.buffers.size(); ++b)
    if (!plan.buffers[b].dram_only && written[b] && read[b] && saving[b] > 0)
      candidates.push_back(b);
  std::stable_sort(candidates.begin(), candidates.end(),
                   [&](size_t a, size_t b) { return density(a) > density(b); });
  std::vector<double> held(plan.steps.size());
  for (size_t i = 0; i < plan.steps.size(); ++i)
    held[i] = plan.steps[i].working_words;
  Residency out;
  out.resident.assign(plan.buffers.size(), false);
  for (size_t b : candidates) {
    const auto first = static_cast<size_t>(spans[b].first),
               last = static_cast<size_t>(spans[b].last);
    const double words = plan.buffers[b].words;
    if (std::any_of(held.begin() + first, held.begin() + last + 1,
                    [&](double h) { return h + words > capacity; }))
      continue;
    for (size_t i = first; i <= last; ++i)
      held[i] += words;
    out.resident[b] = true;
  }
  for (double h : held)
    out.peak_words = std::max(out.peak_words, h);
  return out;
}

/// The cost of segment `s` run as `parts` with the DRAM words of its resident tensors moved on
/// chip (a searched segment's front, which the segment holds, is not copied).
SegmentCost cost_with_residency(const Segment &s, std::vector<SegmentPart> parts,
                                const std::vector<bool> &resident, const Hardware &hw,
                                LatencyModel model) {
  if (s.eliminated || parts.empty())
    return s.cost;
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
  c.buffer_words = s.cost.buffer_words; // its tiles (a split region's: and its slabs) stay
  c.fused = s.cost.fused;
  c.restreamed = s.cost.restreamed;
  return c;
}

/// The schedule of `segments`, tensors kept on chip where they fit when `keep_on_chip`, the
/// passes laid out as `layouts` allows; its segments left for the caller to copy (a search
/// evaluates many schedules and keeps one).
NetworkSchedule schedule_of(const Graph &graph, const Hardware &hw, const SegmentRefs &segments,
                            LatencyModel model, bool keep_on_chip,
                            PassLayouts layouts = PassLayouts::Planned) {
  NetworkSchedule out;
  out.order = execution_order(segments);
  out.capacity_words = static_cast<double>(hw.gb_capacity_words());
  TensorGroups groups(graph, segments);
  const ExecPlan plan = residency_plan(graph, segments, out.order, groups);
  // Without residency nothing is worth keeping: no buffer saves a word.
  const Residency kept = pack_on_chip(plan,
                                      keep_on_chip ? dram_savings(plan, segments, groups)
                                                   : std::vector<double>(plan.buffers.size(), 0),
                                      out.capacity_words);
  out.peak_words = kept.peak_words;
  out.resident.resize(graph.tensors.size());
  for (size_t t = 0; t < graph.tensors.size(); ++t)
    out.resident[t] = kept.resident[static_cast<size_t>(groups.find(static_cast<int>(t)))];
  out.costs.resize(segments.size());
  out.layouts.resize(segments.size());
  for (size_t i = 0; i < segments.size(); ++i)
    out.costs[i] =
        cost_with_residency(*segments[i], segments[i]->cost.parts, out.resident, hw, model);
  std::vector<int> buffer_of(graph.tensors.size());
  for (size_t t = 0; t < graph.tensors.size(); ++t)
    buffer_of[t] = groups.find(static_cast<int>(t));
  const auto pass_cost = [&](size_t i, const SegmentPart &part) {
    return cost_with_residency(*segments[i], {part}, out.resident, hw, model);
  };
  lay_out_passes(graph, hw, segments, {buffer_of, out.resident}, layouts, pass_cost, out.costs,
                 out.layouts);
  for (int index : out.order) {
    const SegmentCost &c = out.costs[static_cast<size_t>(index)];
    out.total.latency_s += c.latency_s;
    out.total.energy_pj += c.energy_pj;
    out.total.dram_words += c.dram_words;
    out.total.macs += c.macs;
    add_dma_loads(out.total.dma_units, c.dma_units);
  }
  return out;
}

/// Changes to the plan's segments that the schedule may make.
struct Refinement {
  std::vector<int> split;  // first nodes of the plan's fused runs run as their singles instead
  std::vector<int> joined; // first nodes of other runs run fused instead of their singles
  std::vector<int> copied; // eliminated movement nodes run as copies instead
  std::vector<int> parted; // first nodes of split regions run part by part instead
};

/// The nodes of the segments of `runs` whose first node is in `firsts`.
std::vector<int> nodes_of(const std::vector<Segment> &runs, const std::vector<int> &firsts) {
  std::vector<int> out;
  for (const Segment &p : runs)
    if (contains(firsts, p.nodes.front()))
      out.insert(out.end(), p.nodes.begin(), p.nodes.end());
  return out;
}

/// A plan's segments as a schedule runs them: by pointer into the plan, and the eliminated
/// movement nodes run as copies, owned here (moving this keeps every pointer valid).
struct RefinedSegments {
  std::vector<Segment> copies;
  SegmentRefs segments;
};

/// What a schedule may run instead of the plan's segments: the plan, and its split regions
/// each run part by part as one segment.
struct ScheduleInputs {
  const FusionPlan &plan;
  const std::vector<Segment> &regions;
};

/// The plan's segments with `r` applied, in graph order of their first node; a region run part
/// by part replaces the segments whose first node it holds.
RefinedSegments refined(const ScheduleInputs &in, const Refinement &r, const Graph &graph,
                        const Hardware &hw, LatencyModel model) {
  const FusionPlan &plan = in.plan;
  const std::vector<int> joined = nodes_of(plan.other_fused, r.joined);
  const std::vector<int> parted = nodes_of(in.regions, r.parted);
  RefinedSegments out;
  out.copies.reserve(r.copied.size());
  const auto add = [&](const Segment *s) {
    if (!contains(parted, s->nodes.front()))
      out.segments.push_back(s);
  };
  for (const Segment &s : plan.segments) {
    const int first = s.nodes.front();
    if (s.kind == SegmentKind::Fused && contains(r.split, first)) {
      for (const Segment &single : plan.unfused)
        if (single.kind == SegmentKind::Single && contains(s.nodes, single.nodes.front()) &&
            !contains(joined, single.nodes.front()))
          add(&single);
    } else if (s.eliminated && contains(r.copied, first)) {
      add(&out.copies.emplace_back(standalone_segment(graph, hw, first, model, false)));
    } else if (!contains(joined, first)) {
      add(&s);
    }
  }
  for (const Segment &p : plan.other_fused)
    if (contains(r.joined, p.nodes.front()))
      add(&p);
  for (const Segment &region : in.regions)
    if (contains(r.parted, region.nodes.front()))
      out.segments.push_back(&region);
  std::stable_sort(
      out.segments.begin(), out.segments.end(),
      [](const Segment *a, const Segment *b) { return a->nodes.front() < b->nodes.front(); });
  return out;
}

/// Whether other run `p` can run fused under `r`: none of its nodes is in a fused run.
bool can_join(const FusionPlan &plan, const Refinement &r, const Segment &p) {
  std::vector<int> fused = nodes_of(plan.other_fused, r.joined);
  for (const Segment &s : plan.segments)
    if (s.kind == SegmentKind::Fused && !contains(r.split, s.nodes.front()))
      fused.insert(fused.end(), s.nodes.begin(), s.nodes.end());
  return std::none_of(p.nodes.begin(), p.nodes.end(), [&](int v) { return contains(fused, v); });
}

/// A change the schedule tries: the list it goes in, and the segment's first node.
struct Change {
  std::vector<int> Refinement::*list;
  const Segment *segment;
};

/// Whether `segments` cover every node of `graph` once: no segment overlaps another, and a
/// region run part by part holds whole the segments it replaces.
bool covers_each_node_once(const Graph &graph, const SegmentRefs &segments) {
  std::vector<int> times(graph.nodes.size(), 0);
  for (const Segment *s : segments)
    for (int v : s->nodes)
      ++times[static_cast<size_t>(v)];
  return std::all_of(times.begin(), times.end(), [](int t) { return t == 1; });
}

/// Every change, in graph order of the segments: the plan's runs split, the other runs
/// joined, the eliminated movement nodes copied, the split regions run part by part.
std::vector<Change> changes_of(const ScheduleInputs &in) {
  const FusionPlan &plan = in.plan;
  std::vector<Change> out;
  for (const Segment &s : plan.segments)
    if (s.kind == SegmentKind::Fused)
      out.push_back({&Refinement::split, &s});
    else if (s.eliminated)
      out.push_back({&Refinement::copied, &s});
  for (const Segment &p : plan.other_fused)
    out.push_back({&Refinement::joined, &p});
  for (const Segment &region : in.regions)
    out.push_back({&Refinement::parted, &region});
  std::stable_sort(out.begin(), out.end(), [](const Change &a, const Change &b) {
    return a.segment->nodes.front() < b.segment->nodes.front();
  });
  return out;
}

/// The totals of the schedule of `segments` as a point of the network front.
CostPoint point_of(const NetworkSchedule &s, const SegmentRefs &segments) {
  const auto fused = std::count_if(segments.begin(), segments.end(), [](const Segment *x) {
    return x->kind == SegmentKind::Fused && x->cost.fused;
  });
  return {s.total.latency_s, s.total.energy_pj, s.total.dram_words, static_cast<int>(fused)};
}

/// `r` without fusion: every run of the plan split, none joined.
Refinement without_fusion(const FusionPlan &plan, Refinement r) {
  r.split.clear();
  r.joined.clear();
  for (const Segment &s : plan.segments)
    if (s.kind == SegmentKind::Fused)
      r.split.push_back(s.nodes.front());
  return r;
}

/// `r` without movement elimination: every eliminated movement node copied.
Refinement without_elimination(const FusionPlan &plan, Refinement r) {
  r.copied.clear();
  for (const Segment &s : plan.segments)
    if (s.eliminated)
      r.copied.push_back(s.nodes.front());
  return r;
}

/// `r` with split region `region` run part by part, room made for it in the same change: the
/// plan's fused runs that share a node with it run as their singles, and the runs joined or
/// regions run part by part that share one are left out (the region may pay only once they are
/// gone, which alone may not pay).
Refinement part_by_part(const ScheduleInputs &in, Refinement r, const Segment &region) {
  const auto shares_a_node = [&](const Segment &s) {
    return std::any_of(s.nodes.begin(), s.nodes.end(),
                       [&](int v) { return contains(region.nodes, v); });
  };
  for (const Segment &s : in.plan.segments)
    if (s.kind == SegmentKind::Fused && shares_a_node(s) && !contains(r.split, s.nodes.front()))
      r.split.push_back(s.nodes.front());
  for (const Segment &p : in.plan.other_fused)
    if (shares_a_node(p))
      std::erase(r.joined, p.nodes.front());
  for (const Segment &other : in.regions)
    if (shares_a_node(other))
      std::erase(r.parted, other.nodes.front());
  r.parted.push_back(region.nodes.front());
  return r;
}

/// `r` without splitting: no region run part by part.
Refinement without_splitting(Refinement r) {
  r.parted.clear();
  return r;
}

/// The search for the schedule: from the plan's segments, changes made or undone while the
/// schedule gets cheaper. Every schedule it evaluates can run, so each is a point for the front.
class ScheduleSearch {
public:
  ScheduleSearch(const Graph &graph, const Hardware &hw, const ScheduleInputs &inputs,
                 LatencyModel model, PlanObjective objective)
      : graph_(graph), hw_(hw), inputs_(inputs), plan_(inputs.plan), model_(model),
        objective_(objective), changes_(changes_of(inputs)), evaluated_(plan_.total.front),
        best_(schedule(r_, true)) {}

  /// The plan's segments were chosen with every tensor between them through DRAM. With tensors
  /// kept on chip, a fused run may cost more than its singles (their intermediates kept whole)
  /// or a run left out less, and an eliminated movement node, whose inputs and outputs are one
  /// buffer kept whole or not at all, more than a copy that lets them be kept apart. Each change
  /// is made, or undone, where that makes the schedule cheaper, in graph order, until a pass
  /// over them all finds none; then the schedule without fusion and the one without movement
  /// elimination are tried whole, and the search goes on from either if it is cheaper. A split
  /// region run part by part replaces the segments it holds, so it is tried with the fused runs
  /// that share a node with it split into their singles in the same change (part_by_part), and
  /// the schedule without splitting is tried whole too. A change after which some node would run
  /// twice or not at all is not taken. Every step strictly improves, so this ends, and no pass's
  /// contribution is negative.
  NetworkSchedule run() {
    // Without the regions first, then with them: the schedule is never dearer than the one the
    // search finds without splitting.
    search(false);
    if (!inputs_.regions.empty())
      search(true);
    best_.split = r_.split;
    best_.joined = r_.joined;
    best_.copied = r_.copied;
    best_.parted = r_.parted;
    for (const Segment *s : refined(inputs_, r_, graph_, hw_, model_).segments)
      best_.segments.push_back(*s);
    best_.contributions.push_back({"fusion", schedule(without_fusion(plan_, r_), true).total});
    best_.contributions.push_back({"splitting", schedule(without_splitting(r_), true).total});
    best_.contributions.push_back({"on-chip residency", schedule(r_, false).total});
    best_.contributions.push_back(
        {"movement elimination", schedule(without_elimination(plan_, r_), true).total});
    best_.contributions.push_back(
        {"layout planning", schedule(r_, true, PassLayouts::GraphLayout).total});
    best_.front = pareto_filter(evaluated_, PlanFrontPolicy{});
    return std::move(best_);
  }

private:
  /// Changes made or undone until none helps, then the schedules without fusion, without
  /// movement elimination (and, with the regions, without splitting) tried whole, until none of
  /// those helps either.
  void search(bool with_regions) {
    do {
      while (improve_by_changes(with_regions)) {
      }
    } while (adopt_if_cheaper(without_fusion(plan_, r_)) ||
             adopt_if_cheaper(without_elimination(plan_, r_)) ||
             (with_regions && adopt_if_cheaper(without_splitting(r_))));
  }

  /// The schedule of the plan refined by `r`, its segments not copied.
  NetworkSchedule schedule(const Refinement &r, bool keep_on_chip,
                           PassLayouts layouts = PassLayouts::Planned) {
    return schedule(refined(inputs_, r, graph_, hw_, model_), keep_on_chip, layouts);
  }

  /// The schedule of `segments` (a refinement of the plan), noted for the front.
  NetworkSchedule schedule(const RefinedSegments &segments, bool keep_on_chip,
                           PassLayouts layouts = PassLayouts::Planned) {
    NetworkSchedule s = schedule_of(graph_, hw_, segments.segments, model_, keep_on_chip, layouts);
    evaluated_.push_back(point_of(s, segments.segments));
    return s;
  }

  /// Takes `r` when it runs every node once and its schedule is cheaper than the best so far.
  bool adopt_if_cheaper(const Refinement &r) {
    const RefinedSegments segments = refined(inputs_, r, graph_, hw_, model_);
    if (!covers_each_node_once(graph_, segments.segments))
      return false;
    NetworkSchedule trial = schedule(segments, true);
    if (!(plan_rank(trial.total, objective_) < plan_rank(best_.total, objective_)))
      return false;
    r_ = r;
    best_ = std::move(trial);
    return true;
  }

  /// One pass over every change (the regions' only `with_regions`), each made (or undone) when
  /// that is cheaper.
  bool improve_by_changes(bool with_regions) {
    bool improved = false;
    for (const Change &change : changes_) {
      if (!with_regions && change.list == &Refinement::parted)
        continue;
      Refinement r = r_;
      std::vector<int> &list = r.*change.list;
      const int first = change.segment->nodes.front();
      if (const auto at = std::find(list.begin(), list.end(), first); at != list.end())
        list.erase(at);
      else if (change.list == &Refinement::parted)
        r = part_by_part(inputs_, r_, *change.segment);
      else if (change.list != &Refinement::joined || can_join(plan_, r, *change.segment))
        list.push_back(first);
      else
        continue;
      improved = adopt_if_cheaper(r) || improved;
    }
    return improved;
  }

  const Graph &graph_;
  const Hardware &hw_;
  const ScheduleInputs inputs_;
  const FusionPlan &plan_;
  LatencyModel model_;
  PlanObjective objective_;
  std::vector<Change> changes_; // every change the search may make, in graph order
  CostFront evaluated_;
  Refinement r_;
  NetworkSchedule best_;
};

} // namespace

NetworkSchedule through_dram_schedule(const Graph &graph, const FusionPlan &plan) {
  NetworkSchedule out;
  out.segments = plan.segments;
  SegmentRefs segments;
  for (const Segment &s : plan.segments)
    segments.push_back(&s);
  out.order = execution_order(segments);
  out.resident.assign(graph.tensors.size(), false);
  out.layouts.resize(plan.segments.size());
  for (const Segment &s : out.segments) {
    out.costs.push_back(s.cost);
    out.total.latency_s += s.cost.latency_s;
    out.total.energy_pj += s.cost.energy_pj;
    out.total.dram_words += s.cost.dram_words;
    out.total.macs += s.cost.macs;
  }
  out.front = plan.total.front;
  return out;
}

NetworkSchedule residency_schedule(const Graph &graph, const Hardware &hw,
                                   const std::vector<Segment> &segments, LatencyModel model) {
  SegmentRefs refs;
  for (const Segment &s : segments)
    refs.push_back(&s);
  NetworkSchedule out = schedule_of(graph, hw, refs, model, true);
  out.segments = segments;
  return out;
}

NetworkSchedule schedule_network(const Graph &graph, const Hardware &hw, const FusionPlan &plan,
                                 const std::vector<Segment> &regions, LatencyModel model,
                                 PlanObjective objective) {
  const ScheduleInputs inputs{plan, regions};
  // The same search for the other objective, beside it, adds the schedules it reaches to the
  // front.
  const PlanObjective other =
      objective == PlanObjective::Latency ? PlanObjective::Energy : PlanObjective::Latency;
  NetworkSchedule best, other_best;
  tbb::parallel_invoke([&] { best = ScheduleSearch(graph, hw, inputs, model, objective).run(); },
                       [&] { other_best = ScheduleSearch(graph, hw, inputs, model, other).run(); });
  best.front = front_union(best.front, other_best.front, PlanFrontPolicy{});
  return best;
}

} // namespace dse
