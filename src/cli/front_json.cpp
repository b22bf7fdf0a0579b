// The front as JSON: the search statistics per problem, then the points with their detail.
#include <nlohmann/json.hpp>

#include "dse/cli/front_report.hpp"

namespace dse {

std::string front_json(const ExploreResult &result, const Workload &workload, const Hardware &hw) {
  nlohmann::ordered_json doc;
  doc["workload"] = workload.name;
  doc["hardware"] = hw.name;
  for (const ProblemSummary &s : result.summaries) {
    const SearchStats &st = s.stats;
    doc["search"].push_back({{"problem", s.label},
                             {"candidates_before_pruning", st.pruning.candidates_before()},
                             {"candidates_after_pruning", st.pruning.candidates_after()},
                             {"tilings", st.tilings},
                             {"mappings_evaluated", st.mappings}});
  }
  doc["points"] = nlohmann::ordered_json::array();
  for (size_t i = 0; i < result.front.size(); ++i) {
    const FrontPoint &p = result.front[i];
    const PointDetail d = point_detail(result, p, hw);
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

} // namespace dse
