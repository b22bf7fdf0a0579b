// `dse sweep`'s summary and buffer-curve rows and its --within answers, from what the
// explorations returned (on today's model or on a general hierarchy).
#include "dse/cli/sweep_report.hpp"

#include <algorithm>

#include "dse/cli/front_report.hpp"
#include "dse/cli/hier_front_report.hpp"
#include "dse/support/csv.hpp"

namespace dse {

namespace {

/// Indices of the first points of `front` with the least latency, energy and EDP.
struct Best {
  size_t latency = 0, energy = 0, edp = 0;
};

template <class Point> Best best_points(const std::vector<Point> &front) {
  Best b;
  for (size_t i = 1; i < front.size(); ++i) {
    const Objectives &o = front[i].objectives;
    if (o.latency_s < front[b.latency].objectives.latency_s)
      b.latency = i;
    if (o.energy_pj < front[b.energy].objectives.energy_pj)
      b.energy = i;
    if (o.edp < front[b.edp].objectives.edp)
      b.edp = i;
  }
  return b;
}

/// The summary fields of a non-empty front; `dataflow(point)` describes a point.
template <class Point, class Dataflow>
std::string best_fields(const std::vector<Point> &front, const Dataflow &dataflow) {
  const Best b = best_points(front);
  const Objectives &latency = front[b.latency].objectives;
  const Objectives &energy = front[b.energy].objectives;
  auto flow = [&](size_t i) { return csv_field(dataflow(front[i])); };
  return csv_number(latency.latency_s) + "," + csv_number(latency.energy_pj) + "," +
         flow(b.latency) + "," + csv_number(energy.energy_pj) + "," + csv_number(energy.latency_s) +
         "," + flow(b.energy) + "," + csv_number(front[b.edp].objectives.edp) + "," + flow(b.edp) +
         ",yes\n";
}

} // namespace

std::string summary_header() {
  return "best_latency_s,best_latency_energy_pj,best_latency_dataflow,best_energy_pj,"
         "best_energy_latency_s,best_energy_dataflow,best_edp_pj_s,best_edp_dataflow,feasible\n";
}

std::string summary_fields(const ExploreResult &r, const Hardware &hw) {
  return best_fields(r.front, [&](const FrontPoint &p) { return point_detail(r, p, hw).dataflow; });
}

std::string summary_fields(const HierExploreResult &r, const Workload &workload,
                           const Hardware &hw) {
  return best_fields(r.front,
                     [&](const HierPlan &p) { return hier_plan_mapping(r, p, workload, hw); });
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
                          const std::string &buffer, double percent, const std::string &objective,
                          double capacity_words, int word_bytes) {
  return "workload " + workload + " on " + configuration + ": smallest " + buffer + " within " +
         csv_number(percent) + "% of the best " + objective + " is " + csv_number(capacity_words) +
         " words (" + csv_number(capacity_words * static_cast<double>(word_bytes) / 1024) +
         " KiB)\n";
}

} // namespace dse
