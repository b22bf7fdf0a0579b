// `dse sweep`: explores every hardware configuration of a grid (and every --hw file) for every
// workload; writes the fronts, a per-configuration summary and, on request, the buffer-size curve.
#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/front_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/config/hardware_parameters.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/sweep.hpp"

namespace dse {

namespace {

struct Configuration {
  std::string hw_file;
  std::vector<ParameterSetting> settings;
  Hardware hw;
};

std::vector<Configuration> load_configurations(const SweepArgs &args,
                                               const std::vector<SweepAxis> &axes) {
  std::vector<Configuration> out;
  for (const std::string &file : args.hw_paths)
    for (const std::vector<ParameterSetting> &settings : sweep_grid(axes))
      out.push_back({file, settings, load_hardware_with(file, settings)});
  return out;
}

std::string config_header(const std::vector<SweepAxis> &axes) {
  std::string out = "hw";
  for (const SweepAxis &a : axes)
    out += "," + csv_field(a.path);
  return out;
}

std::string config_values(const Configuration &c) {
  std::string out = csv_field(c.hw.name);
  for (const ParameterSetting &s : c.settings)
    out += "," + number(s.value);
  return out;
}

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

std::string summary_row(const ExploreResult &r, const Hardware &hw, LatencyModel model) {
  const Best b = best_points(r);
  auto flow = [&](const FrontPoint *p) { return csv_field(point_detail(r, *p, hw, model).dataflow); };
  return number(b.latency->objectives.latency_s) + "," + number(b.latency->objectives.energy_pj) +
         "," + flow(b.latency) + "," + number(b.energy->objectives.energy_pj) + "," +
         number(b.energy->objectives.latency_s) + "," + flow(b.energy) + "," +
         number(b.edp->objectives.edp) + "," + flow(b.edp);
}

std::string front_rows(const std::string &prefix, const ExploreResult &r, const Hardware &hw,
                       LatencyModel model) {
  std::string out;
  for (size_t i = 0; i < r.front.size(); ++i) {
    const FrontPoint &p = r.front[i];
    const PointDetail d = point_detail(r, p, hw, model);
    out += prefix + "," + std::to_string(i) + "," + number(p.objectives.latency_s) + "," +
           number(p.objectives.energy_pj) + "," + number(p.objectives.edp) + "," +
           number(p.totals.dram_reads) + "," + number(p.totals.dram_writes) + "," +
           number(p.totals.buffer_words) + "," + number(p.totals.macs) + "," +
           number(d.utilisation) + "," + (d.fused ? "yes" : "no") + "," + csv_field(d.dataflow) +
           "\n";
  }
  return out;
}

/// Index of the global-buffer capacity axis, or -1.
int capacity_axis(const std::vector<SweepAxis> &axes, const std::vector<Configuration> &configs) {
  for (size_t i = 0; i < axes.size(); ++i)
    for (const Configuration &c : configs)
      if (axes[i].path == c.hw.global_buffer().name + ".capacity_kib" ||
          axes[i].path == c.hw.global_buffer().name + ".capacity_words")
        return static_cast<int>(i);
  return -1;
}

std::string output_beside(const std::string &path, const std::string &suffix) {
  const size_t dot = path.rfind('.');
  const size_t slash = path.rfind('/');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_ext ? path.substr(0, dot) : path) + suffix;
}

double parse_percentage(const std::string &text) {
  std::string digits = text;
  if (!digits.empty() && digits.back() == '%')
    digits.pop_back();
  try {
    size_t used = 0;
    const double v = std::stod(digits, &used);
    if (used == digits.size() && v >= 0 && std::isfinite(v))
      return v;
  } catch (const std::exception &) {
  }
  throw UserError("--within takes a non-negative percentage such as 5%, got '" + text + "'");
}

double curve_objective(const BufferCurvePoint &p, const std::string &objective) {
  if (objective == "latency")
    return p.best_latency_s;
  if (objective == "energy")
    return p.best_energy_pj;
  if (objective == "edp")
    return p.best_edp;
  throw UserError("--within-objective takes latency, energy or edp, got '" + objective + "'");
}

/// Curve CSV rows and the answer to "smallest capacity within X% of the best", per group of
/// configurations that differ only in capacity.
std::string buffer_curves(const SweepArgs &args, const std::vector<SweepAxis> &axes,
                          const std::vector<Configuration> &configs,
                          const std::vector<Workload> &workloads, const SweepOutcome &outcome,
                          int cap_axis, std::string &answers) {
  // Curves: cases with the same hw file, workload and non-capacity settings, by capacity.
  std::map<std::string, std::vector<std::pair<BufferCurvePoint, size_t>>> by_curve;
  for (size_t c = 0; c < configs.size(); ++c)
    for (size_t w = 0; w < workloads.size(); ++w) {
      std::string key = configs[c].hw_file + "|" + std::to_string(w);
      for (size_t a = 0; a < axes.size(); ++a)
        if (static_cast<int>(a) != cap_axis)
          key += "|" + number(configs[c].settings[a].value);
      const size_t index = c * workloads.size() + w;
      const double capacity = static_cast<double>(configs[c].hw.gb_capacity_words());
      by_curve[key].push_back(
          {buffer_curve_point(outcome.results[index], workloads[w], capacity), index});
    }
  const double within = args.within.empty() ? -1 : parse_percentage(args.within);
  std::string rows;
  for (auto &[key, points] : by_curve) {
    std::sort(points.begin(), points.end(), [](const auto &a, const auto &b) {
      return a.first.capacity_words < b.first.capacity_words;
    });
    const size_t first_case = points.front().second;
    const Workload &w = workloads[first_case % workloads.size()];
    double best = std::numeric_limits<double>::infinity();
    for (const auto &[p, index] : points) {
      const Configuration &c = configs[index / workloads.size()];
      rows += config_values(c) + "," + csv_field(w.name) + "," + number(p.capacity_words) + "," +
              number(p.min_dram_words) + "," + number(p.latency_s) + "," + number(p.energy_pj) +
              "," + number(p.best_latency_s) + "," + number(p.best_energy_pj) + "," +
              number(p.best_edp) + "," + (p.io_lower_bound ? number(*p.io_lower_bound) : "") + "," +
              (p.io_lower_bound ? number(p.min_dram_words / *p.io_lower_bound) : "") + "\n";
      best = std::min(best, curve_objective(p, args.within_objective));
    }
    if (within < 0)
      continue;
    for (const auto &[p, index] : points)
      if (curve_objective(p, args.within_objective) <= best * (1 + within / 100)) {
        answers += "workload " + w.name + " on " + configs[index / workloads.size()].hw.name +
                   ": smallest global buffer within " + number(within) + "% of the best " +
                   args.within_objective + " is " + number(p.capacity_words) + " words (" +
                   number(p.capacity_words * static_cast<double>(configs[index / workloads.size()].hw.word_bytes) / 1024) +
                   " KiB)\n";
        break;
      }
  }
  return rows;
}

} // namespace

int run_sweep_command(const SweepArgs &args) {
  if (args.output_path.empty())
    throw UserError("dse sweep needs -o FILE.csv (the summary and curve files are written beside it)");
  SearchOptions options;
  options.menu = parse_tile_menu(args.tiles);
  options.latency_model = parse_latency_model(args.latency_model);
  options.threads = args.threads;
  if (args.buffer_curve)
    options.objectives = {Objective::Latency, Objective::Energy, Objective::Dram};
  std::vector<SweepAxis> axes;
  for (const std::string &spec : args.settings)
    axes.push_back(parse_sweep_axis(spec));
  const std::vector<Configuration> configs = load_configurations(args, axes);
  std::vector<Workload> workloads;
  for (const std::string &path : args.workload_paths)
    workloads.push_back(load_workload(path));
  const int cap_axis = capacity_axis(axes, configs);
  if (args.buffer_curve && cap_axis < 0)
    throw UserError("--buffer-curve needs a swept global-buffer capacity, e.g. --set "
                    "GlobalBuffer.capacity_kib=32..16384:x2");
  if (!args.within.empty() && !args.buffer_curve)
    throw UserError("--within applies to --buffer-curve");

  std::vector<SweepCase> cases;
  for (const Configuration &c : configs)
    for (const Workload &w : workloads)
      cases.push_back({&c.hw, &w});
  SweepOutcome outcome;
  {
    ProgressBar bar(args.progress || ProgressBar::stderr_is_terminal());
    outcome = run_sweep(cases, options, [&bar](const std::string &label, std::uint64_t done,
                                               std::uint64_t total) { bar.update(label, done, total); });
  }
  const std::string header = config_header(axes) + ",workload";
  std::string fronts = header + ",point,latency_s,energy_pj,edp_pj_s,dram_read_words,"
                                "dram_write_words,gb_words,macs,pe_utilisation,fused,dataflow\n";
  std::string summary = header + ",best_latency_s,best_latency_energy_pj,best_latency_dataflow,"
                                 "best_energy_pj,best_energy_latency_s,best_energy_dataflow,"
                                 "best_edp_pj_s,best_edp_dataflow\n";
  for (size_t c = 0; c < configs.size(); ++c)
    for (size_t w = 0; w < workloads.size(); ++w) {
      const ExploreResult &r = outcome.results[c * workloads.size() + w];
      const std::string prefix = config_values(configs[c]) + "," + csv_field(workloads[w].name);
      fronts += front_rows(prefix, r, configs[c].hw, options.latency_model);
      summary += prefix + "," + summary_row(r, configs[c].hw, options.latency_model) + "\n";
    }
  std::string answers;
  std::string curve;
  if (args.buffer_curve)
    curve = header + ",capacity_words,min_dram_words,latency_s,energy_pj,best_latency_s,"
                     "best_energy_pj,best_edp_pj_s,io_lower_bound_words,ratio_to_bound\n" +
            buffer_curves(args, axes, configs, workloads, outcome, cap_axis, answers);
  write_output(args.output_path, fronts);
  write_output(output_beside(args.output_path, "-summary.csv"), summary);
  if (args.buffer_curve)
    write_output(output_beside(args.output_path, "-buffer-curve.csv"), curve);
  if (args.verbose)
    std::cerr << cases.size() << " cases (" << configs.size() << " configurations x "
              << workloads.size() << " workloads) in " << number(outcome.seconds) << " s\n";
  std::cout << answers;
  return 0;
}

} // namespace dse
