// Split regions as segments of the network schedule: each distinct part planned and scheduled as
// a graph of its own (its compute nodes alone beside its slabs, or fused depth first), the parts'
// counts added up under names that keep apart the segments of a part and point the tensors
// shared with the rest of the graph back to it.
#include "dse/graph/parted_segment.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tbb/parallel_for.h>

#include "dse/graph/network_schedule.hpp"
#include "dse/graph/split_part.hpp"

namespace dse {

namespace {

/// One part's counts, in the order its segments run, and the whole graph's tensor behind each
/// tensor it shares with the rest of the graph.
struct PartRun {
  std::vector<SegmentPart> parts;
  std::map<std::string, int> graph_tensors;
  double peak_words = 0;
  bool fused = false; // a segment of the part runs linked compute nodes fused
};

/// Parts with equal keys are equal searches: every tensor's shape and every window's padding.
std::string part_key(const Graph &part) {
  std::string key;
  for (const GraphTensor &t : part.tensors)
    key += shape_text(t.shape);
  for (const GraphNode &n : part.nodes)
    key += "|" + shape_text(n.attrs.pads);
  return key;
}

/// Whether a tensor of a part graph is shared with the rest of the graph (read from or written
/// to it), not kept inside the part.
bool shared(const GraphTensor &t) { return t.kind != TensorKind::Activation || t.is_output; }

/// Words of the tensors a part computes and reads itself (its slabs).
double slab_words(const Graph &part) {
  double words = 0;
  for (const GraphTensor &t : part.tensors)
    if (!shared(t))
      words += static_cast<double>(element_count(t.shape));
  return words;
}

/// `hw` with its global buffer less `words`: what a part's searches may fill beside its slabs.
std::optional<Hardware> beside(const Hardware &hw, double words) {
  const auto left = hw.gb_capacity_words() - static_cast<std::int64_t>(words);
  if (left <= 0)
    return std::nullopt;
  Hardware out = hw;
  out.levels.at(1).capacity_words = left;
  return out;
}

/// The run of `plan`'s segments of `part` scheduled on `hw`, the tensors passed between them kept
/// in the global buffer where they fit; its parts named apart per segment.
PartRun scheduled_run(const PartGraph &part, const Hardware &hw, const FusionPlan &plan,
                      LatencyModel model) {
  const NetworkSchedule s = residency_schedule(part.graph, hw, plan.segments, model);
  PartRun run;
  run.peak_words = s.peak_words;
  for (int index : s.order) {
    const auto k = static_cast<size_t>(index);
    run.fused = run.fused || (s.segments[k].kind == SegmentKind::Fused && s.costs[k].fused);
    for (SegmentPart p : s.costs[k].parts) {
      for (TensorDramWords &t : p.tensors) {
        const std::string name = std::to_string(k) + "/" + t.tensor;
        const auto bound = s.segments[k].graph_tensors.find(t.tensor);
        if (bound != s.segments[k].graph_tensors.end() && shared(part.graph.tensor(bound->second)))
          run.graph_tensors[name] = part.sources[static_cast<size_t>(bound->second)].tensor;
        t.tensor = name;
      }
      run.parts.push_back(std::move(p));
    }
  }
  return run;
}

/// The plan of `part` on `hw` with `options` (its movement nodes copies, no progress), or nothing
/// when no mapping fits a segment of it.
std::optional<FusionPlan> part_plan(const PartGraph &part, const Hardware &hw,
                                    FusionOptions options) {
  options.movement = nullptr;
  options.progress = {};
  try {
    return plan_fusion(part.graph, hw, options);
  } catch (const UserError &) {
    return std::nullopt;
  }
}

/// The part with its compute nodes searched alone in the global buffer left beside all its
/// slabs, so that every slab stays on chip beside every segment's tiles.
std::optional<PartRun> run_alone(const PartGraph &part, const Hardware &hw,
                                 const FusionOptions &options) {
  const std::optional<Hardware> searched = beside(hw, slab_words(part.graph));
  if (!searched)
    return std::nullopt;
  FusionOptions alone = options;
  alone.search.fusion = false;
  const std::optional<FusionPlan> plan = part_plan(part, *searched, alone);
  if (!plan)
    return std::nullopt;
  return scheduled_run(part, hw, *plan, options.search.latency_model);
}

/// The part planned depth first, as a network is: its linked compute nodes fused in runs of up
/// to options.search.max_fused (through their windows), searched in the whole global buffer, the
/// tensors between its segments kept where they fit. Nothing when it has fewer than two compute
/// nodes (none to fuse) or fusion is off.
std::optional<PartRun> run_depth_first(const PartGraph &part, const Hardware &hw,
                                       const FusionOptions &options) {
  const auto computes = std::count_if(part.graph.nodes.begin(), part.graph.nodes.end(),
                                      [](const GraphNode &n) { return is_compute(n.kind); });
  if (computes < 2 || !options.search.fusion || options.search.max_fused < 2)
    return std::nullopt;
  const std::optional<FusionPlan> plan = part_plan(part, hw, options);
  if (!plan)
    return std::nullopt;
  return scheduled_run(part, hw, *plan, options.search.latency_model);
}

/// The cheaper in options.objective of the part run alone and depth first (alone on ties).
std::optional<PartRun> run_part(const PartGraph &part, const Hardware &hw,
                                const FusionOptions &options) {
  std::optional<PartRun> alone = run_alone(part, hw, options);
  std::optional<PartRun> depth_first = run_depth_first(part, hw, options);
  const auto rank = [&](const PartRun &run) {
    return plan_rank(sequence_cost(run.parts, hw, options.search.latency_model), options.objective);
  };
  if (depth_first && (!alone || rank(*depth_first) < rank(*alone)))
    return depth_first;
  return alone;
}

std::string region_label(const Graph &graph, const SplitRegion &region) {
  std::string out;
  for (int v : region.nodes)
    out += (out.empty() ? "" : "+") + graph.node(v).name;
  return out + " in " + std::to_string(region.parts) + " parts along " +
         split_axis_name(region.axis);
}

/// The nodes of `region` grown to whole segments of `unfused`.
std::pair<int, int> widened(const SplitRegion &region, const std::vector<Segment> &unfused) {
  int first = region.nodes.front(), last = region.nodes.back();
  for (bool grown = true; grown;) {
    grown = false;
    for (const Segment &s : unfused) {
      const auto [lo, hi] = std::minmax_element(s.nodes.begin(), s.nodes.end());
      if (*hi < first || *lo > last || (*lo >= first && *hi <= last))
        continue;
      first = std::min(first, *lo);
      last = std::max(last, *hi);
      grown = true;
    }
  }
  return {first, last};
}

} // namespace

std::optional<Segment> parted_segment(const Graph &graph, const Hardware &hw,
                                      const SplitRegion &region, const FusionOptions &options) {
  std::map<std::string, std::optional<PartRun>> runs;
  std::vector<SegmentPart> parts;
  Segment s;
  double peak_words = 0; // the most any part's run holds
  bool fused = false;    // some part runs fused
  for (int p = 0; p < region.parts; ++p) {
    const std::optional<PartGraph> part = part_graph(graph, region, p);
    if (!part)
      return std::nullopt;
    const std::string key = part_key(part->graph);
    auto run = runs.find(key);
    if (run == runs.end())
      run = runs.emplace(key, run_part(*part, hw, options)).first;
    if (!run->second)
      return std::nullopt;
    parts.insert(parts.end(), run->second->parts.begin(), run->second->parts.end());
    s.graph_tensors.insert(run->second->graph_tensors.begin(), run->second->graph_tensors.end());
    peak_words = std::max(peak_words, run->second->peak_words);
    fused = fused || run->second->fused;
  }
  s.kind = SegmentKind::Split;
  s.nodes = region.nodes;
  s.region = region;
  s.label = region_label(graph, region);
  s.cost = sequence_cost(std::move(parts), hw, options.search.latency_model);
  s.cost.buffer_words = peak_words;
  s.cost.fused = fused;
  s.cost.front = {CostPoint{s.cost.latency_s, s.cost.energy_pj, s.cost.dram_words, 0}};
  return s;
}

std::vector<Segment> parted_segments(const Graph &graph, const Hardware &hw,
                                     const std::vector<SplitRegion> &regions,
                                     const std::vector<Segment> &unfused,
                                     const FusionOptions &options) {
  // Regions are planned in parallel, each into its own slot, and kept in their order.
  std::vector<std::optional<Segment>> best(regions.size());
  tbb::parallel_for(std::size_t{0}, regions.size(), [&](std::size_t i) {
    const SplitRegion &region = regions[i];
    const auto [first, last] = widened(region, unfused);
    for (int times : kPartMultiples) {
      const std::optional<SplitRegion> whole =
          make_region(graph, first, last, region.axis, region.parts * times, region.offset);
      std::optional<Segment> s = whole ? parted_segment(graph, hw, *whole, options) : std::nullopt;
      if (s && (!best[i] || plan_rank(s->cost, options.objective) <
                                plan_rank(best[i]->cost, options.objective)))
        best[i] = std::move(s);
    }
  });
  std::vector<Segment> out;
  for (std::optional<Segment> &s : best)
    if (s)
      out.push_back(std::move(*s));
  return out;
}

} // namespace dse
