// The front of a general hierarchy as CSV and JSON, one mapping line per operator, and the
// search statistics.
#include "dse/cli/hier_front_report.hpp"

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

PlanTotals plan_totals(const HierExploreResult &r, const HierPlan &plan) {
  PlanTotals t;
  for (size_t i = 0; i < plan.parts.size(); ++i) {
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

std::string plan_mapping(const HierExploreResult &r, const HierPlan &plan, const Workload &w,
                         const Hardware &hw) {
  std::string out;
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    const Operator &op = w.ops[static_cast<size_t>(r.operators[i].op)];
    out += (i == 0 ? "" : " ; ") + op.name + ": " +
           describe_hier_mapping(hw, w, op, part(r, plan, i).mapping);
  }
  return out;
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

std::string hier_front_csv(const HierExploreResult &result, const Workload &workload,
                           const Hardware &hw) {
  const std::string buffer =
      hw.hierarchy.levels.size() > 1 ? hw.hierarchy.levels[1].name + "_words" : "buffer_words";
  std::ostringstream out;
  out << "point,latency_s,energy_pj,edp_pj_s,dram_read_words,dram_update_words,"
      << csv_field(buffer) << ",latency_cycles,macs,utilisation,mapping\n";
  for (size_t i = 0; i < result.front.size(); ++i) {
    const HierPlan &p = result.front[i];
    const PlanTotals t = plan_totals(result, p);
    out << i << "," << csv_number(p.objectives.latency_s) << ","
        << csv_number(p.objectives.energy_pj) << "," << csv_number(p.objectives.edp) << ","
        << csv_number(t.dram_reads) << "," << csv_number(t.dram_updates) << ","
        << csv_number(p.objectives.buffer_words) << "," << csv_number(t.latency_cycles) << ","
        << csv_number(t.macs) << "," << csv_number(plan_utilisation(t, hw)) << ","
        << csv_field(plan_mapping(result, p, workload, hw)) << "\n";
  }
  return out.str();
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
    out << workload.ops[static_cast<size_t>(o.op)].name << ": " << s.spatial_rows
        << " spatial rows x " << s.keep_vectors << " keep vectors; " << s.tilings
        << " tilings fit, " << s.tilings_kept << " searched; " << s.mappings
        << " mappings evaluated; front " << o.search.front.size() << " points\n";
  }
  out << "workload front: " << result.front.size() << " points\n";
  return out.str();
}

} // namespace dse
