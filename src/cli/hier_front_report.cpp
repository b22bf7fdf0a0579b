// The front of a general hierarchy as CSV (its rows shared with `dse sweep`) and JSON, one
// mapping line per operator, and the search statistics.
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

const HierFrontPoint &part(const HierExploreResult &r, const HierPlan &plan, size_t i) {
  return r.operators[i].search.front[plan.parts[i]];
}

void add_pass(PlanTotals &t, const HierVectorPass &pass) {
  t.dram_reads += pass.dram_reads;
  t.dram_updates += pass.dram_updates;
  t.latency_cycles += pass.latency_cycles;
}

PlanTotals plan_totals(const HierExploreResult &r, const HierPlan &plan) {
  PlanTotals t;
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    if (const std::optional<HierVectorPass> &pass = r.operators[i].pass) {
      add_pass(t, *pass);
      continue;
    }
    const HierCost &c = part(r, plan, i).cost;
    for (const std::optional<HierTensorCounts> &tensor : c.levels[0].tensors)
      if (tensor) {
        t.dram_reads += tensor->reads;
        t.dram_updates += tensor->updates;
      }
    t.macs += c.macs;
    t.compute_cycles += c.compute_cycles;
    t.latency_cycles += c.latency_cycles;
  }
  return t;
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
  const std::vector<const TensorAccess *> tensors = operator_tensors(op);
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
  const std::vector<const TensorAccess *> tensors = operator_tensors(op);
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
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    const Operator &op = workload.ops[static_cast<size_t>(result.operators[i].op)];
    const std::optional<HierVectorPass> &pass = result.operators[i].pass;
    out += (i == 0 ? "" : " ; ") + op.name + ": " +
           (pass ? describe_vector_pass(*pass)
                 : describe_hier_mapping(hw, workload, op, part(result, plan, i).mapping));
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
    for (size_t i = 0; i < p.parts.size(); ++i) {
      const Operator &op = workload.ops[static_cast<size_t>(result.operators[i].op)];
      if (const std::optional<HierVectorPass> &pass = result.operators[i].pass) {
        point["operators"].push_back({{"operator", op.name},
                                      {"latency_cycles", pass->latency_cycles},
                                      {"energy_pj", pass->energy_pj},
                                      {"vector_pass", vector_pass_json(*pass)}});
        continue;
      }
      const HierFrontPoint &fp = part(result, p, i);
      point["operators"].push_back({{"operator", op.name},
                                    {"latency_cycles", fp.cost.latency_cycles},
                                    {"energy_pj", fp.cost.energy_pj},
                                    {"mapping", mapping_json(hw, workload, op, fp.mapping)}});
    }
    doc["front"].push_back(point);
  }
  return doc.dump(2) + "\n";
}

std::string hier_search_statistics(const HierExploreResult &result, const Workload &workload) {
  std::ostringstream out;
  for (const HierOperatorFront &o : result.operators) {
    const HierSearchStatistics &s = o.search.statistics;
    out << workload.ops[static_cast<size_t>(o.op)].name << ": ";
    if (o.pass) {
      out << describe_vector_pass(*o.pass) << "\n";
      continue;
    }
    out << s.spatial_rows << " spatial rows x " << s.keep_vectors << " keep vectors; " << s.tilings
        << " tilings fit, " << s.tilings_kept << " searched; " << s.mappings
        << " mappings evaluated; front " << o.search.front.size() << " points\n";
  }
  out << "workload front: " << result.front.size() << " points\n";
  return out.str();
}

} // namespace dse
