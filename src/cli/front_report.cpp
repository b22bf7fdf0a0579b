// Front output: CSV (one row per point), JSON (points with per-segment detail), mapping YAML.
#include "dse/cli/front_report.hpp"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dse/model/mapping_evaluation.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

std::string tiles_text(const Problem &p, const Tiling &t) {
  std::string out;
  for (int d : p.dims)
    if (!p.is_window[static_cast<size_t>(d)])
      out += (out.empty() ? "" : " ") + p.dim_name(d) + "=" +
             std::to_string(t.tile[static_cast<size_t>(d)]);
  return out;
}

/// Einsum op names in workload order: the per-operator columns.
std::vector<std::string> einsum_names(const Workload &w) {
  std::vector<std::string> out;
  for (const Operator &op : w.ops)
    if (op.kind == OpKind::Einsum)
      out.push_back(op.name);
  return out;
}

} // namespace

PointDetail point_detail(const ExploreResult &r, const FrontPoint &point, const Hardware &hw,
                         LatencyModel model) {
  PointDetail d;
  for (const MappingPart &part : point.parts) {
    const Problem &p = r.problems[part.problem];
    const MappingReport rep = evaluate_mapping(p, part.candidate, part.tiling, hw, model);
    for (const OperatorReport &op : rep.operators)
      d.buffer_words[op.name] = op.buffer_words;
    d.fused = d.fused || p.fused();
    d.dataflow += (d.dataflow.empty() ? "" : " ; ") + describe(p, part.candidate) + " | tiles " +
                  tiles_text(p, part.tiling);
  }
  const double array = static_cast<double>(hw.effective_rows() * hw.effective_cols());
  d.utilisation = point.totals.cycles > 0 ? point.totals.macs / (point.totals.cycles * array) : 0;
  return d;
}

std::string front_csv(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                      LatencyModel model) {
  const std::vector<std::string> ops = einsum_names(workload);
  std::ostringstream out;
  out << "point,latency_s,energy_pj,edp_pj_s,dram_read_words,dram_write_words";
  for (const std::string &op : ops)
    out << "," << csv_field("gb_words_" + op);
  out << ",macs,pe_utilisation,fused,dataflow\n";
  for (size_t i = 0; i < result.front.size(); ++i) {
    const FrontPoint &p = result.front[i];
    const PointDetail d = point_detail(result, p, hw, model);
    out << i << "," << csv_number(p.objectives.latency_s) << ","
        << csv_number(p.objectives.energy_pj) << "," << csv_number(p.objectives.edp) << ","
        << csv_number(p.totals.dram_reads) << "," << csv_number(p.totals.dram_writes);
    for (const std::string &op : ops)
      out << "," << csv_number(d.buffer_words.count(op) ? d.buffer_words.at(op) : 0.0);
    out << "," << csv_number(p.totals.macs) << "," << csv_number(d.utilisation) << ","
        << (d.fused ? "yes" : "no") << "," << csv_field(d.dataflow) << "\n";
  }
  return out.str();
}

std::string front_json(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                       LatencyModel model) {
  nlohmann::ordered_json doc;
  doc["workload"] = workload.name;
  doc["hardware"] = hw.name;
  for (const ProblemSummary &s : result.summaries) {
    const SearchStats &st = s.stats;
    doc["search"].push_back({{"problem", s.label},
                             {"candidates_before_pruning", st.pruning.candidates_before()},
                             {"candidates_after_pruning", st.pruning.candidates_after()},
                             {"tilings", st.tilings},
                             {"mappings_evaluated", st.mappings},
                             {"mappings_fitting_buffer", st.feasible_mappings}});
  }
  doc["points"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < result.front.size(); ++i) {
    const FrontPoint &p = result.front[i];
    const PointDetail d = point_detail(result, p, hw, model);
    nlohmann::ordered_json j;
    j["point"] = i;
    j["latency_s"] = p.objectives.latency_s;
    j["energy_pj"] = p.objectives.energy_pj;
    j["edp_pj_s"] = p.objectives.edp;
    j["dram_read_words"] = p.totals.dram_reads;
    j["dram_write_words"] = p.totals.dram_writes;
    j["gb_words"] = d.buffer_words;
    j["macs"] = p.totals.macs;
    j["pe_utilisation"] = d.utilisation;
    j["fused"] = d.fused;
    j["dataflow"] = d.dataflow;
    doc["points"].push_back(j);
  }
  return doc.dump(2) + "\n";
}

/// A name as a YAML flow scalar: bare when it is an identifier, else double-quoted.
std::string yaml_name(const std::string &name) {
  const bool bare =
      !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
      std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
      });
  return bare ? name : yaml_double_quoted(name);
}

std::string mapping_yaml(const ExploreResult &result, const Workload &workload, size_t index) {
  const FrontPoint &point = result.front.at(index);
  std::ostringstream out;
  out << "# front point " << index << " of workload '" << escape_control(workload.name) << "'\n";
  out << "workload: " << yaml_name(workload.name) << "\nsegments:\n";
  auto names = [](const Problem &p, const std::vector<int> &dims) {
    std::string s;
    for (int d : dims)
      s += (s.empty() ? "" : ", ") + p.dim_name(d);
    return "[" + s + "]";
  };
  for (const MappingPart &part : point.parts) {
    const Problem &p = result.problems[part.problem];
    const Dataflow &df = part.candidate.dataflow;
    out << "  - ops: [";
    for (size_t o = 0; o < p.ops.size(); ++o)
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name);
    out << "]\n";
    if (p.fused())
      out << "    prefix: " << names(p, df.prefix) << "\n";
    out << "    loops: {";
    for (size_t o = 0; o < p.ops.size(); ++o)
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name) << ": "
          << names(p, df.subnests[o]);
    out << "}\n    retention: {";
    for (size_t t = 0; t < p.tensors.size(); ++t)
      out << (t ? ", " : "") << p.tensors[t].name << ": " << df.retention[t];
    out << "}\n    spatial: {";
    for (size_t o = 0; o < p.ops.size(); ++o) {
      const SpatialMapping &s = part.candidate.spatial[o];
      out << (o ? ", " : "") << yaml_name(p.op(static_cast<int>(o)).name) << ": ["
          << (s.row_dim < 0 ? "'-'" : p.dim_name(s.row_dim)) << ", "
          << (s.col_dim < 0 ? "'-'" : p.dim_name(s.col_dim)) << "]";
    }
    out << "}\n    tiles: {";
    bool first = true;
    for (int d : p.dims)
      if (!p.is_window[static_cast<size_t>(d)]) {
        out << (first ? "" : ", ") << p.dim_name(d) << ": "
            << part.tiling.tile[static_cast<size_t>(d)];
        first = false;
      }
    out << "}\n";
  }
  return out.str();
}

std::string search_statistics(const ExploreResult &result) {
  std::ostringstream out;
  for (const ProblemSummary &s : result.summaries) {
    const SearchStats &st = s.stats;
    out << escape_control(s.label) << ": dataflows " << st.pruning.dataflows_enumerated << " -> "
        << st.pruning.dataflows_after_local << " (per-operator pruning) -> "
        << st.pruning.dataflows_kept << " (group pruning); spatial combinations "
        << st.pruning.spatial_combinations << "; candidates " << st.pruning.candidates_before()
        << " -> " << st.pruning.candidates_after() << "; tilings " << st.tilings
        << "; mappings evaluated " << st.mappings << " (" << st.feasible_mappings
        << " fit the buffer); basis functions " << st.basis_functions << "; "
        << csv_number(st.seconds) << " s";
    if (st.seconds > 0)
      out << " (" << csv_number(static_cast<double>(st.mappings) / st.seconds) << " mappings/s)";
    out << "\n";
  }
  out << "total: " << csv_number(result.seconds) << " s, " << result.front.size()
      << " front points\n";
  return out.str();
}

} // namespace dse
