// Text and CSV renderings of a network plan. Quantities print exactly (exact_number: whole
// numbers in full digits, others in the shortest form that reads back), so the text agrees with
// the CSVs; only derived display ratios are rounded.
#include "dse/cli/network_report.hpp"

#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

#include <iomanip>
#include <sstream>

namespace dse {

namespace {

std::string num(double v) { return exact_number(v); }

/// A derived ratio for display only (the speed-up): 6 significant digits, since its inputs are
/// printed exactly beside it.
std::string ratio(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

/// A derived fraction for display only (memory compression), rounded to 0.1%.
std::string percent(double fraction) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(1) << 100 * fraction << "%";
  return out.str();
}

std::string node_name(const Graph &g, int node) { return node < 0 ? "" : g.node(node).name; }

/// A node's name in a text report: names from the model file are escaped for the terminal.
std::string shown_name(const Graph &g, int node) { return escape_control(node_name(g, node)); }

const char *objective_word(PlanObjective o) {
  return o == PlanObjective::Latency ? "latency" : "energy";
}

/// "+123" or "-4.5": a change, signed.
std::string change(double v) { return (v > 0 ? "+" : "") + num(v); }

/// How the schedule's vector passes are laid out: how many take the channel axis contiguous,
/// and, on several cores, how many are split between them.
void pass_layout_line(std::ostringstream &out, const NetworkSchedule &s, const Hardware &hw) {
  int passes = 0, channel = 0, split = 0;
  for (const std::optional<ParallelOption> &o : s.layouts) {
    if (!o)
      continue;
    ++passes;
    channel += o->layout == DataLayout::ChannelAxis ? 1 : 0;
    split += o->cores > 1 ? 1 : 0;
  }
  out << "  layouts of the " << passes << " vector passes: " << channel
      << " with the channel axis contiguous (NHWC/col-major), " << passes - channel
      << " the last (NCHW/row-major)";
  if (hw.cores > 1)
    out << "; " << split << " split between the " << hw.cores << " cores";
  out << "\n";
}

void schedule_lines(std::ostringstream &out, const NetworkPlan &p, const Hardware &hw,
                    const NetworkOptions &o) {
  const FusionPlan &f = p.fusion;
  const NetworkSchedule &s = p.schedule;
  int runs = 0, fused = 0, kept = 0;
  for (const Segment &segment : s.segments) {
    runs += segment.kind == SegmentKind::Fused ? 1 : 0;
    fused += segment.kind == SegmentKind::Fused && segment.cost.fused ? 1 : 0;
  }
  for (bool resident : s.resident)
    kept += resident ? 1 : 0;
  const ScheduleTotals &t = s.total;
  out << "schedule (best " << objective_word(o.objective) << ", tiles "
      << tile_menu_name(o.search.menu) << "): " << s.segments.size() << " segments, " << runs
      << " fusable runs (" << fused << " fused), " << f.searches << " searches, " << f.cache_hits
      << " reused\n"
      << "  on chip: " << kept << " tensors kept in " << escape_control(p.memory_before.level)
      << " between segments (peak " << num(s.peak_words) << " of " << num(s.capacity_words)
      << " words)\n"
      << "  changes to the segment plan: " << s.split.size() << " runs split into singles, "
      << s.joined.size() << " other runs fused, " << s.copied.size()
      << " eliminated movement nodes as copies, " << s.parted.size()
      << " split regions run part by part\n"
      << "  total: latency " << num(t.latency_s) << " s, energy " << num(t.energy_pj)
      << " pJ, DRAM " << num(t.dram_words) << " words, MACs " << num(t.macs) << "\n";
  for (const PassContribution &c : s.contributions)
    out << "  without " << c.pass << ": latency " << change(c.without.latency_s - t.latency_s)
        << " s, energy " << change(c.without.energy_pj - t.energy_pj) << " pJ, DRAM "
        << change(c.without.dram_words - t.dram_words) << " words\n";
  pass_layout_line(out, s, hw);
  if (!s.front.empty())
    out << "  network front (every segmentation through DRAM, and the schedules evaluated): "
        << s.front.size() << " points, latency " << num(s.front.front().latency_s) << " .. "
        << num(s.front.back().latency_s) << " s, energy " << num(s.front.back().energy_pj) << " .. "
        << num(s.front.front().energy_pj) << " pJ\n";
  if (t.dma_units.empty())
    return;
  out << "  DMA units (balanced load, summed over segments):\n";
  for (const DmaUnitLoad &u : t.dma_units)
    out << "    " << escape_control(u.name) << ": " << num(u.words()) << " words ("
        << num(u.read_words) << " read, " << num(u.write_words) << " written), busy "
        << num(u.cycles) << " cycles\n";
}

/// The schedule of a general hierarchy: each compute node searched alone with its attached
/// operators (with --hier-fusion, linked pairs fused too), every tensor between segments through
/// the backing store.
void hierarchy_schedule_lines(std::ostringstream &out, const NetworkPlan &p, const Hardware &hw,
                              const NetworkOptions &o) {
  const NetworkSchedule &s = p.schedule;
  size_t searched = 0, fused = 0;
  for (const Segment &segment : s.segments) {
    searched += segment.kind == SegmentKind::Single ? 1 : 0;
    fused += segment.kind == SegmentKind::Fused ? 1 : 0;
  }
  const ScheduleTotals &t = s.total;
  out << "schedule on the hierarchy (best " << objective_word(o.objective)
      << ", divisor factors at every level): " << s.segments.size() << " segments (" << searched
      << " compute nodes searched with their attached operators, ";
  if (o.hier_fusion)
    out << fused << " fused pairs, ";
  out << s.segments.size() - searched - fused << " vector and movement nodes), "
      << p.fusion.searches << " searches, " << p.fusion.cache_hits
      << " reused; every tensor between segments through "
      << escape_control(hw.hierarchy.levels[0].name) << "\n"
      << "  total: latency " << num(t.latency_s) << " s, energy " << num(t.energy_pj)
      << " pJ, DRAM " << num(t.dram_words) << " words, MACs " << num(t.macs) << "\n";
  if (!s.front.empty())
    out << "  network front (every segment's front points): " << s.front.size()
        << " points, latency " << num(s.front.front().latency_s) << " .. "
        << num(s.front.back().latency_s) << " s, energy " << num(s.front.back().energy_pj) << " .. "
        << num(s.front.front().energy_pj) << " pJ\n";
}

/// The memory plan of whole tensors: every node run whole with its live tensors in the global
/// buffer, hotspots split (VMOC), the regions proposed to the schedule. Its own DRAM words,
/// latency and energy (operands moved whole once) are printed only without the segment
/// searches: the schedule's are the plan's figures.
void memory_lines(std::ostringstream &out, const NetworkPlan &p, const NetworkOptions &o) {
  int split = 0;
  for (const SplitDecision &d : p.split.decisions)
    split += d.split ? 1 : 0;
  const MemoryReport &b = p.memory_before, &a = p.memory_after;
  const SimulationResult &sb = p.split.before, &sa = p.split.after;
  out << "memory plan of whole tensors (nodes run whole, live tensors in "
      << escape_control(b.level) << "; hotspots split, benefit in " << objective_word(o.objective)
      << "): " << b.hotspots.size() << " hotspot runs, " << p.split.decisions.size()
      << " hotspot nodes tried, " << split << " split regions";
  if (o.search_segments)
    out << " proposed to the schedule (" << p.schedule.parted.size() << " run part by part)";
  out << "\n"
      << "  " << escape_control(b.level) << " peak (capacity " << num(b.capacity_words)
      << "): " << num(b.peak_words) << " -> " << num(a.peak_words) << " words; memory compression "
      << percent(p.compression()) << "\n";
  if (o.search_segments)
    return;
  out << "  DRAM traffic: " << num(sb.dram_words()) << " -> " << num(sa.dram_words())
      << " words (spills " << num(sb.spill_words) << " -> " << num(sa.spill_words) << ")\n"
      << "  latency: " << num(sb.latency_s) << " -> " << num(sa.latency_s)
      << " s; energy: " << num(sb.energy_pj) << " -> " << num(sa.energy_pj) << " pJ; halo MACs "
      << num(sa.macs - sb.macs) << "\n";
}

/// The layout planner's own plan, every node run whole (printed without the segment searches).
void layout_plan_line(std::ostringstream &out, const LayoutPlan &l, const Hardware &hw) {
  out << "layout and parallelism (" << hw.cores << " cores): " << num(l.latency_s)
      << " s (conversions " << num(l.conversion_s) << " s) vs " << num(l.baseline_s) << " s for "
      << (l.baseline_layout == DataLayout::LastAxis ? "row-major/NCHW" : "col-major/NHWC")
      << " on one core: speed-up " << ratio(l.speedup()) << "x, "
      << (l.exact ? "exact" : "fallback (inexact)") << ", " << l.branched_nodes
      << " nodes branched\n";
}

} // namespace

std::string network_summary(const NetworkPlan &plan, const Graph &graph, const Hardware &hw,
                            const NetworkOptions &options) {
  std::ostringstream out;
  out << "network " << escape_control(graph.name) << " (" << escape_control(graph.source_file)
      << ") on " << escape_control(hw.name) << ": " << graph.nodes.size() << " nodes ("
      << graph.folded_nodes << " folded on import), words of " << hw.word_bytes << " bytes\n";
  if (!hw.is_legacy()) {
    if (options.search_segments)
      hierarchy_schedule_lines(out, plan, hw, options);
  } else {
    if (options.search_segments)
      schedule_lines(out, plan, hw, options);
    memory_lines(out, plan, options);
    if (!options.search_segments) // the schedule lays out its own passes
      layout_plan_line(out, plan.layout, hw);
  }
  const MovementPlan &m = plan.movement;
  out << "data-movement elimination: " << m.movement_nodes << " movement nodes, "
      << m.load_store_pairs_removed << " of " << m.load_store_pairs << " load-store pairs removed ("
      << num(m.words_removed) << " words), " << m.kept.size() << " kept as copies\n"
      << "bank mapping: " << plan.banks.global.copies << " copies (global propagation, "
      << plan.banks.iterations << " sweeps, " << plan.banks.conflicts << " conflicts) vs "
      << plan.banks.local.copies << " (per-operator choice)\n"
      << "planning time: " << num(plan.seconds) << " s\n";
  return out.str();
}

std::string hotspot_report(const NetworkPlan &plan, const Graph &graph) {
  std::ostringstream out;
  const auto hotspots = [&](const MemoryReport &r, const ExecPlan &p, const char *title) {
    out << title << ":\n";
    if (r.hotspots.empty())
      out << "  none\n";
    for (const Hotspot &h : r.hotspots) {
      const PlanStep &s = p.steps[static_cast<size_t>(h.peak_step)];
      out << "  " << escape_control(r.level) << ": steps " << h.first_step << "-" << h.last_step
          << " above " << num(r.capacity_words) << " words, peak " << num(h.peak_words)
          << " at step " << h.peak_step << " (" << graph.node(s.node).op_type << " '"
          << escape_control(graph.node(s.node).name) << "'"
          << (s.part >= 0 ? ", part " + std::to_string(s.part) : "") << ")\n    tensors:";
      for (const auto &[name, words] : h.tensors)
        out << " " << escape_control(name) << " (" << num(words) << ")";
      out << "\n";
    }
  };
  hotspots(plan.memory_before, plan.split.plan_before, "hotspots before splitting");
  out << "decisions:\n";
  for (const SplitDecision &d : plan.split.decisions) {
    out << "  " << graph.node(d.node).op_type << " '" << escape_control(graph.node(d.node).name)
        << "' (" << num(d.peak_words) << " words): ";
    if (!d.split) {
      out << "left alone: " << escape_control(d.reason) << "\n";
      continue;
    }
    const SplitRegion &r = d.region;
    out << "split " << r.nodes.size() << " nodes '" << shown_name(graph, r.nodes.front()) << "'..'"
        << shown_name(graph, r.nodes.back()) << "' along " << split_axis_name(r.axis)
        << (r.axis == SplitAxis::Rows ? " (axis -" + std::to_string(r.offset + 1) + ")" : "")
        << " into " << r.parts << " parts; benefit " << num(d.benefit) << ", halo MACs "
        << num(d.halo_macs) << ", weights re-read " << num(d.extra_weight_words) << " words\n";
  }
  out << "schedule after splitting (super-nodes wrap the parts of each region):\n";
  for (const ScheduleUnit &u : super_node_schedule(plan.split))
    if (u.region >= 0)
      out << "  super-node " << u.region << ": '" << shown_name(graph, u.nodes.front()) << "'..'"
          << shown_name(graph, u.nodes.back()) << "', "
          << plan.split.regions[static_cast<size_t>(u.region)].parts << " parts, peak "
          << num(u.peak_words) << " words\n";
  hotspots(plan.memory_after, plan.split.plan_after, "hotspots after splitting");
  return out.str();
}

std::string memory_csv(const NetworkPlan &plan, const Graph &graph) {
  std::ostringstream out;
  out << "plan,step,node,part,region," << csv_field(plan.memory_before.level + "_live_words")
      << ",resident_words,dram_words\n";
  const auto rows = [&](const char *name, const ExecPlan &p, const SimulationResult &s,
                        const MemoryReport &r) {
    for (size_t i = 0; i < p.steps.size(); ++i) {
      out << name << "," << i << "," << csv_field(node_name(graph, p.steps[i].node)) << ","
          << p.steps[i].part << "," << p.steps[i].region << "," << num(r.live_words[i]) << ","
          << num(s.steps[i].resident_words) << "," << num(s.steps[i].dram_words) << "\n";
    }
  };
  rows("before", plan.split.plan_before, plan.split.before, plan.memory_before);
  rows("after", plan.split.plan_after, plan.split.after, plan.memory_after);
  return out.str();
}

std::string splits_csv(const NetworkPlan &plan, const Graph &graph) {
  std::ostringstream out;
  out << "node,peak_words,decision,first,last,axis,offset,parts,benefit,halo_macs,"
         "extra_weight_words,reason\n";
  for (const SplitDecision &d : plan.split.decisions) {
    out << csv_field(node_name(graph, d.node)) << "," << num(d.peak_words) << ","
        << (d.split ? "split" : "left") << ",";
    if (d.split)
      out << csv_field(node_name(graph, d.region.nodes.front())) << ","
          << csv_field(node_name(graph, d.region.nodes.back())) << ","
          << split_axis_name(d.region.axis) << "," << d.region.offset << "," << d.region.parts
          << "," << num(d.benefit) << "," << num(d.halo_macs) << "," << num(d.extra_weight_words)
          << ",\n";
    else
      out << ",,,,,,,," << csv_field(d.reason) << "\n";
  }
  return out.str();
}

namespace {

/// The graph tensors a segment reads or writes in the global buffer, space-separated.
std::string kept_on_chip(const Segment &s, const NetworkSchedule &schedule, const Graph &graph) {
  std::string out;
  for (const auto &[name, tensor] : s.graph_tensors)
    if (schedule.resident[static_cast<size_t>(tensor)])
      out += (out.empty() ? "" : " ") + graph.tensor(tensor).name;
  return out;
}

} // namespace

std::string segments_csv(const NetworkPlan &plan, const Graph &graph, const Hardware &hw) {
  std::ostringstream out;
  out << "segment,step,kind,nodes,first_node,fused,latency_s,energy_pj,dram_words,"
         "buffer_words,macs,restreamed,dram_words_through,kept_on_chip";
  for (const DmaUnit &u : hw.dma_units)
    out << "," << csv_field(u.name + "_words") << "," << csv_field(u.name + "_cycles");
  out << "\n";
  const auto dma = [&](const std::vector<DmaUnitLoad> &loads) {
    // Segments that move nothing (eliminated movement) have no per-unit loads.
    for (size_t u = 0; u < hw.dma_units.size(); ++u)
      out << "," << (loads.empty() ? "0" : num(loads[u].words())) << ","
          << (loads.empty() ? "0" : num(loads[u].cycles));
    out << "\n";
  };
  const NetworkSchedule &schedule = plan.schedule;
  const std::vector<Segment> &segments = schedule.segments;
  std::vector<size_t> step(segments.size());
  for (size_t k = 0; k < schedule.order.size(); ++k)
    step[static_cast<size_t>(schedule.order[k])] = k;
  for (size_t i = 0; i < segments.size(); ++i) {
    const Segment &s = segments[i];
    const SegmentCost &c = schedule.costs[i];
    out << i << "," << step[i] << "," << segment_kind_name(s.kind) << "," << csv_field(s.label)
        << "," << csv_field(node_name(graph, s.nodes.front())) << ","
        << (s.cost.fused ? "yes" : "no") << "," << num(c.latency_s) << "," << num(c.energy_pj)
        << "," << num(c.dram_words) << "," << num(c.buffer_words) << "," << num(c.macs) << ","
        << csv_field(s.cost.restreamed) << "," << num(s.cost.dram_words) << ","
        << csv_field(kept_on_chip(s, schedule, graph));
    dma(c.dma_units);
  }
  double through = 0;
  for (const Segment &s : segments)
    through += s.cost.dram_words;
  const ScheduleTotals &t = schedule.total;
  out << "total,,,,,no," << num(t.latency_s) << "," << num(t.energy_pj) << "," << num(t.dram_words)
      << "," << num(schedule.peak_words) << "," << num(t.macs) << ",," << num(through) << ",";
  dma(t.dma_units);
  return out.str();
}

std::string network_front_csv(const NetworkPlan &plan) {
  std::ostringstream out;
  out << "point,latency_s,energy_pj,edp_pj_s,dram_words,fused_segments\n";
  const CostFront &front = plan.schedule.front;
  for (size_t i = 0; i < front.size(); ++i) {
    const CostPoint &p = front[i];
    out << i << "," << csv_number(p.latency_s) << "," << csv_number(p.energy_pj) << ","
        << csv_number(p.latency_s * p.energy_pj) << "," << csv_number(p.dram_words) << ","
        << p.fused_segments << "\n";
  }
  return out.str();
}

std::string layout_csv(const NetworkPlan &plan, const Graph &graph) {
  std::ostringstream out;
  out << "node,op,layout,cores,split_axis,latency_s\n";
  const auto row = [&](int node, const ParallelOption &o, double latency_s) {
    const GraphNode &n = graph.node(node);
    out << csv_field(n.name) << "," << n.op_type << ","
        << layout_name(o.layout, graph.tensor(n.outputs[0]).shape.size()) << "," << o.cores << ","
        << o.split_axis << "," << num(latency_s) << "\n";
  };
  const NetworkSchedule &s = plan.schedule;
  for (size_t i = 0; i < s.layouts.size(); ++i)
    if (s.layouts[i])
      row(s.segments[i].nodes.front(), *s.layouts[i], s.costs[i].latency_s);
  const LayoutPlan &l = plan.layout;
  for (size_t v = 0; v < l.chosen.size(); ++v) {
    const ParallelOption &o = l.options[v][static_cast<size_t>(l.chosen[v])];
    row(static_cast<int>(v), o, o.latency_s);
  }
  return out.str();
}

} // namespace dse
