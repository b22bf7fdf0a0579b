// The front of a general hierarchy as CSV (its rows shared with `dse sweep`) and JSON, one
// mapping line per segment (an operator alone, a vector pass or a fused pair), and the search
// statistics.
#include "dse/cli/hier_front_report.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dse/support/csv.hpp"

namespace dse {

namespace {

/// Totals of a plan that the front table shows beyond its objectives.
struct PlanTotals {
  double dram_reads = 0, dram_updates = 0, macs = 0, compute_cycles = 0, latency_cycles = 0;
};

void add_pass(PlanTotals &t, const HierVectorPass &pass) {
  t.dram_reads += pass.dram_reads;
  t.dram_updates += pass.dram_updates;
  t.latency_cycles += pass.latency_cycles;
}

/// The cost of a searched part (an einsum alone or a fused pair), nullptr for a vector pass.
const HierCost *part_cost(const HierExploreResult &r, const HierPlanPart &part) {
  const HierSegmentFront &s = r.segments[part.segment];
  if (s.pass)
    return nullptr;
  return s.pair ? &s.fused.front[part.point].cost.totals : &s.search.front[part.point].cost;
}

PlanTotals plan_totals(const HierExploreResult &r, const HierPlan &plan) {
  PlanTotals t;
  for (const HierPlanPart &part : plan.parts) {
    const HierCost *c = part_cost(r, part);
    if (!c) {
      add_pass(t, *r.segments[part.segment].pass);
      continue;
    }
    for (const std::optional<HierTensorCounts> &tensor : c->levels[0].tensors)
      if (tensor) {
        t.dram_reads += tensor->reads;
        t.dram_updates += tensor->updates;
      }
    t.macs += c->macs;
    t.compute_cycles += c->compute_cycles;
    t.latency_cycles += c->latency_cycles;
  }
  return t;
}

/// `up + down (fused)` for a fused pair (its einsums, as `dse eval` names the segment), else the
/// operator's name.
std::string segment_label(const Workload &w, const HierSegmentFront &s) {
  if (!s.pair)
    return w.ops[static_cast<size_t>(s.ops.front())].name;
  return s.pair->op(0).name + " + " + s.pair->op(1).name + " (fused)";
}

std::string factor_text(const Workload &w, const std::vector<int> &order,
                        const std::vector<std::int64_t> &factor) {
  std::string out;
  for (int d : order) {
    if (!out.empty())
      out += " ";
    out += w.dims[static_cast<size_t>(d)].name + std::to_string(factor[static_cast<size_t>(d)]);
  }
  return out;
}

std::string keep_text(const Operator &op, std::uint32_t keep) {
  const OperatorTensors tensors = operator_tensors(op);
  std::string out;
  for (size_t t = 0; t < tensors.size(); ++t)
    if ((keep >> t & 1U) != 0)
      out += " " + tensors[t]->tensor;
  return out.empty() ? " keep none" : " keep" + out;
}

std::string axis_text(const Workload &w, const std::vector<std::int64_t> &factors) {
  std::string out;
  for (size_t d = 0; d < factors.size(); ++d)
    if (factors[d] > 1)
      out += (out.empty() ? "" : " ") + w.dims[d].name + std::to_string(factors[d]);
  return out;
}

std::string describe_vector_pass(const HierVectorPass &pass) {
  return "vector pass, " + exact_number(pass.vector_ops) + " operations, " +
         exact_number(pass.dram_reads + pass.dram_updates) + " DRAM words";
}

nlohmann::ordered_json vector_pass_json(const HierVectorPass &pass) {
  return {{"vector_ops", pass.vector_ops},
          {"dram_reads", pass.dram_reads},
          {"dram_updates", pass.dram_updates}};
}

double plan_utilisation(const PlanTotals &t, const Hardware &hw) {
  return t.macs / (t.compute_cycles * static_cast<double>(hw.hierarchy.compute_units()));
}

nlohmann::ordered_json mapping_json(const Hardware &hw, const Workload &w, const Operator &op,
                                    const OpMapping &m) {
  nlohmann::ordered_json levels = nlohmann::ordered_json::array();
  const OperatorTensors tensors = operator_tensors(op);
  for (size_t l = 0; l < m.levels.size(); ++l) {
    nlohmann::ordered_json level;
    level["level"] = hw.hierarchy.levels[l].name;
    level["order"] = nlohmann::ordered_json::array();
    level["factors"] = nlohmann::ordered_json::object();
    for (int d : m.levels[l].order) {
      level["order"].push_back(w.dims[static_cast<size_t>(d)].name);
      level["factors"][w.dims[static_cast<size_t>(d)].name] =
          m.levels[l].factor[static_cast<size_t>(d)];
    }
    level["keep"] = nlohmann::ordered_json::array();
    for (size_t t = 0; t < tensors.size(); ++t)
      if ((m.levels[l].keep >> t & 1U) != 0)
        level["keep"].push_back(tensors[t]->tensor);
    levels.push_back(level);
    for (size_t f = 0; f < m.fanouts[l].size(); ++f)
      levels.push_back({{"fanout", hw.hierarchy.fanouts[l][f].name},
                        {"x", axis_text(w, m.fanouts[l][f].x)},
                        {"y", axis_text(w, m.fanouts[l][f].y)}});
  }
  return levels;
}

/// `prefix[m16 n4] retention(A:3 W1:3 H:2) up{...} down{...}`: the shared loops with their
/// trips, each tensor's retention depth at level 1, each operator's nest (describe_hier_mapping).
std::string describe_fused_mapping(const Hardware &hw, const Problem &problem,
                                   const FusedHierMapping &m) {
  const Workload &w = *problem.workload;
  const FusedTiles tiles = fused_tiles(problem, m);
  std::string out = "prefix[" + factor_text(w, m.outer.prefix, tiles.trips) + "] retention(";
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    out +=
        (t == 0 ? "" : " ") + problem.tensors[t].name + ":" + std::to_string(m.outer.retention[t]);
  out += ")";
  for (int o = 0; o < 2; ++o)
    out += " " + problem.op(o).name + "{" +
           describe_hier_mapping(hw, w, problem.op(o), m.ops[static_cast<size_t>(o)]) + "}";
  return out;
}

/// One part of a front point: the operator or fused pair, its cycles and energy, and its
/// mapping (a fused pair's prefix with trips, retention depths and each operator's levels).
nlohmann::ordered_json part_json(const HierExploreResult &r, const HierPlanPart &part,
                                 const Workload &w, const Hardware &hw) {
  const HierSegmentFront &s = r.segments[part.segment];
  nlohmann::ordered_json j{{"operator", segment_label(w, s)}};
  if (s.pass) {
    j["latency_cycles"] = s.pass->latency_cycles;
    j["energy_pj"] = s.pass->energy_pj;
    j["vector_pass"] = vector_pass_json(*s.pass);
    return j;
  }
  const HierCost &c = *part_cost(r, part);
  j["latency_cycles"] = c.latency_cycles;
  j["energy_pj"] = c.energy_pj;
  if (!s.pair) {
    const Operator &op = w.ops[static_cast<size_t>(s.ops.front())];
    j["mapping"] = mapping_json(hw, w, op, s.search.front[part.point].mapping);
    return j;
  }
  const FusedHierMapping &m = s.fused.front[part.point].mapping;
  const FusedTiles tiles = fused_tiles(*s.pair, m);
  nlohmann::ordered_json fused;
  fused["prefix"] = nlohmann::ordered_json::object();
  for (int d : m.outer.prefix)
    fused["prefix"][w.dims[static_cast<size_t>(d)].name] = tiles.trips[static_cast<size_t>(d)];
  for (size_t t = 0; t < s.pair->tensors.size(); ++t)
    fused["retention"][s.pair->tensors[t].name] = m.outer.retention[t];
  for (int o = 0; o < 2; ++o)
    fused["mappings"][s.pair->op(o).name] =
        mapping_json(hw, w, s.pair->op(o), m.ops[static_cast<size_t>(o)]);
  j["fused"] = fused;
  return j;
}

} // namespace

std::string describe_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                                  const OpMapping &mapping) {
  std::string out;
  for (size_t l = 0; l < mapping.levels.size(); ++l) {
    const LevelMapping &level = mapping.levels[l];
    out += (l == 0 ? "" : " | ") + hw.hierarchy.levels[l].name + "[" +
           factor_text(workload, level.order, level.factor) + "]" +
           (l == 0 ? "" : keep_text(op, level.keep));
    for (size_t f = 0; f < mapping.fanouts[l].size(); ++f)
      out += " | " + hw.hierarchy.fanouts[l][f].name + " x(" +
             axis_text(workload, mapping.fanouts[l][f].x) + ") y(" +
             axis_text(workload, mapping.fanouts[l][f].y) + ")";
  }
  return out;
}

std::string hier_plan_mapping(const HierExploreResult &result, const HierPlan &plan,
                              const Workload &workload, const Hardware &hw) {
  std::string out;
  for (const HierPlanPart &part : plan.parts) {
    const HierSegmentFront &s = result.segments[part.segment];
    out += (out.empty() ? "" : " ; ") + segment_label(workload, s) + ": ";
    if (s.pass)
      out += describe_vector_pass(*s.pass);
    else if (s.pair)
      out += describe_fused_mapping(hw, *s.pair, s.fused.front[part.point].mapping);
    else
      out += describe_hier_mapping(hw, workload, workload.ops[static_cast<size_t>(s.ops.front())],
                                   s.search.front[part.point].mapping);
  }
  return out;
}

std::string hier_front_table_header(const std::vector<const Hardware *> &hws) {
  const std::string &level = hws.front()->hierarchy.levels[1].name;
  const bool shared = std::all_of(hws.begin(), hws.end(), [&level](const Hardware *hw) {
    return hw->hierarchy.levels[1].name == level;
  });
  return "point,latency_s,energy_pj,edp_pj_s,dram_read_words,dram_update_words," +
         csv_field(shared ? level + "_words" : "buffer_words") +
         ",latency_cycles,macs,utilisation,mapping\n";
}

std::string hier_front_table_rows(const std::string &leading, const HierExploreResult &result,
                                  const Workload &workload, const Hardware &hw) {
  std::ostringstream out;
  for (size_t i = 0; i < result.front.size(); ++i) {
    const HierPlan &p = result.front[i];
    const PlanTotals t = plan_totals(result, p);
    out << leading << i << "," << csv_number(p.objectives.latency_s) << ","
        << csv_number(p.objectives.energy_pj) << "," << csv_number(p.objectives.edp) << ","
        << csv_number(t.dram_reads) << "," << csv_number(t.dram_updates) << ","
        << csv_number(p.objectives.buffer_words) << "," << csv_number(t.latency_cycles) << ","
        << csv_number(t.macs) << "," << csv_number(plan_utilisation(t, hw)) << ","
        << csv_field(hier_plan_mapping(result, p, workload, hw)) << "\n";
  }
  return out.str();
}

std::string hier_front_csv(const HierExploreResult &result, const Workload &workload,
                           const Hardware &hw) {
  return hier_front_table_header({&hw}) + hier_front_table_rows("", result, workload, hw);
}

std::string hier_front_json(const HierExploreResult &result, const Workload &workload,
                            const Hardware &hw) {
  nlohmann::ordered_json doc;
  doc["workload"] = workload.name;
  doc["hardware"] = hw.name;
  doc["front"] = nlohmann::ordered_json::array();
  for (const HierPlan &p : result.front) {
    const PlanTotals t = plan_totals(result, p);
    nlohmann::ordered_json point = {
        {"latency_s", p.objectives.latency_s},   {"energy_pj", p.objectives.energy_pj},
        {"edp_pj_s", p.objectives.edp},          {"dram_read_words", t.dram_reads},
        {"dram_update_words", t.dram_updates},   {"buffer_words", p.objectives.buffer_words},
        {"latency_cycles", t.latency_cycles},    {"macs", t.macs},
        {"utilisation", plan_utilisation(t, hw)}};
    for (const HierPlanPart &part : p.parts)
      point["operators"].push_back(part_json(result, part, workload, hw));
    doc["front"].push_back(point);
  }
  return doc.dump(2) + "\n";
}

std::string hier_search_statistics(const HierExploreResult &result, const Workload &workload) {
  std::ostringstream out;
  for (const HierSegmentFront &segment : result.segments) {
    out << segment_label(workload, segment) << ": ";
    if (segment.pass) {
      out << describe_vector_pass(*segment.pass) << "\n";
    } else if (segment.renamed_from) {
      out << "the front of " << segment_label(workload, result.segments[*segment.renamed_from])
          << " renamed (the same einsum up to its dimensions' names); front "
          << segment.search.front.size() << " points\n";
    } else if (segment.pair) {
      const FusedHierSearchStatistics &s = segment.fused.statistics;
      out << s.loop_trees << " loop trees; " << s.tilings << " tilings fit level 1, "
          << s.tilings_skipped << " skipped by the bound; " << s.nest_fronts << " nest fronts from "
          << s.nests << " nests; " << s.mappings << " mappings evaluated; front "
          << segment.fused.front.size() << " points\n";
    } else {
      const HierSearchStatistics &s = segment.search.statistics;
      out << s.spatial_rows << " spatial rows x " << s.keep_vectors << " keep vectors; "
          << s.tilings << " tilings fit, " << s.tilings_kept << " searched; " << s.mappings
          << " mappings evaluated; front " << segment.search.front.size() << " points\n";
    }
  }
  out << "workload front: " << result.front.size() << " points\n";
  return out.str();
}

} // namespace dse
