// `dse sweep`'s summary and buffer-curve rows and its --within answers, from what the
// explorations returned.
#include "dse/cli/sweep_report.hpp"

#include <algorithm>

#include "dse/cli/front_report.hpp"
#include "dse/support/csv.hpp"

namespace dse {

namespace {

struct Best {
  const FrontPoint *latency = nullptr, *energy = nullptr, *edp = nullptr;
};

Best best_points(const ExploreResult &r) {
  Best b;
  for (const FrontPoint &p : r.front) {
    if (!b.latency || p.objectives.latency_s < b.latency->objectives.latency_s)
      b.latency = &p;
    if (!b.energy || p.objectives.energy_pj < b.energy->objectives.energy_pj)
      b.energy = &p;
    if (!b.edp || p.objectives.edp < b.edp->objectives.edp)
      b.edp = &p;
  }
  return b;
}

} // namespace

std::string summary_header() {
  return "best_latency_s,best_latency_energy_pj,best_latency_dataflow,best_energy_pj,"
         "best_energy_latency_s,best_energy_dataflow,best_edp_pj_s,best_edp_dataflow,feasible\n";
}

std::string summary_fields(const ExploreResult &r, const Hardware &hw) {
  const Best b = best_points(r);
  auto flow = [&](const FrontPoint *p) { return csv_field(point_detail(r, *p, hw).dataflow); };
  return csv_number(b.latency->objectives.latency_s) + "," +
         csv_number(b.latency->objectives.energy_pj) + "," + flow(b.latency) + "," +
         csv_number(b.energy->objectives.energy_pj) + "," +
         csv_number(b.energy->objectives.latency_s) + "," + flow(b.energy) + "," +
         csv_number(b.edp->objectives.edp) + "," + flow(b.edp) + ",yes\n";
}

std::string curve_header() {
  return "capacity_words,min_dram_words,latency_s,energy_pj,best_latency_s,best_energy_pj,"
         "best_edp_pj_s,io_lower_bound_words,ratio_to_bound,feasible\n";
}

std::string curve_fields(const BufferCurvePoint &p) {
  return "," + csv_number(p.min_dram_words) + "," + csv_number(p.latency_s) + "," +
         csv_number(p.energy_pj) + "," + csv_number(p.best_latency_s) + "," +
         csv_number(p.best_energy_pj) + "," + csv_number(p.best_edp) + "," +
         (p.io_lower_bound ? csv_number(*p.io_lower_bound) : "") + "," +
         (p.io_lower_bound ? csv_number(p.min_dram_words / *p.io_lower_bound) : "") + ",yes\n";
}

std::string infeasible_fields(const std::string &header, size_t shared) {
  const auto columns = static_cast<size_t>(std::count(header.begin(), header.end(), ',') + 1);
  return std::string(columns - shared, ',') + "no\n";
}

std::string within_answer(const std::string &workload, const std::string &configuration,
                          double percent, const std::string &objective, double capacity_words,
                          int word_bytes) {
  return "workload " + workload + " on " + configuration + ": smallest global buffer within " +
         csv_number(percent) + "% of the best " + objective + " is " + csv_number(capacity_words) +
         " words (" + csv_number(capacity_words * static_cast<double>(word_bytes) / 1024) +
         " KiB)\n";
}

} // namespace dse
