// The front as CSV: one row per point (`dse explore`), and the same columns after a sweep's
// configuration columns.
#include <sstream>

#include "dse/cli/front_report.hpp"
#include "dse/support/csv.hpp"

namespace dse {

namespace {

/// Einsum op names in workload order: the per-operator columns.
std::vector<std::string> einsum_names(const Workload &w) {
  std::vector<std::string> out;
  for (const Operator &op : w.ops)
    if (op.kind == OpKind::Einsum)
      out.push_back(op.name);
  return out;
}

} // namespace

std::string front_table_header(const std::optional<std::vector<std::string>> &buffer_ops) {
  std::string out = "point,latency_s,energy_pj,edp_pj_s,dram_read_words,dram_write_words";
  if (buffer_ops)
    for (const std::string &op : *buffer_ops)
      out += "," + csv_field("gb_words_" + op);
  else
    out += ",gb_words";
  return out + ",macs,pe_utilisation,fused,dataflow\n";
}

std::string front_table_rows(const std::string &leading, const ExploreResult &result,
                             const Hardware &hw,
                             const std::optional<std::vector<std::string>> &buffer_ops) {
  std::ostringstream out;
  for (size_t i = 0; i < result.front.size(); ++i) {
    const FrontPoint &p = result.front[i];
    const PointDetail d = point_detail(result, p, hw);
    out << leading << i << "," << csv_number(p.objectives.latency_s) << ","
        << csv_number(p.objectives.energy_pj) << "," << csv_number(p.objectives.edp) << ","
        << csv_number(p.totals.dram_reads) << "," << csv_number(p.totals.dram_writes);
    if (buffer_ops)
      for (const std::string &op : *buffer_ops)
        out << "," << csv_number(d.buffer_words.count(op) ? d.buffer_words.at(op) : 0.0);
    else
      out << "," << csv_number(p.totals.buffer_words);
    out << "," << csv_number(p.totals.macs) << "," << csv_number(d.utilisation) << ","
        << (d.fused ? "yes" : "no") << "," << csv_field(d.dataflow) << "\n";
  }
  return out.str();
}

std::string front_csv(const ExploreResult &result, const Workload &workload, const Hardware &hw) {
  const std::vector<std::string> ops = einsum_names(workload);
  return front_table_header(ops) + front_table_rows("", result, hw, ops);
}

} // namespace dse
