// `dse sweep`: explores every hardware configuration of a grid (and every --hw file) for every
// workload, across MPI ranks if launched so; writes the fronts, a per-configuration summary and,
// on request, the buffer-size curve (their rows: front_report.hpp, or hier_front_report.hpp for
// general hierarchies, and sweep_report.hpp). One sweep takes hardware of one model.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>

#include "dse/cli/commands.hpp"
#include "dse/cli/front_report.hpp"
#include "dse/cli/hier_front_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/process_group.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/cli/sweep_report.hpp"
#include "dse/config/hardware_parameters.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/sweep.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

struct Configuration {
  std::string hw_file;
  std::vector<ParameterSetting> settings;
  Hardware hw;
};

std::string model_text(const Hardware &hw) {
  return hw.is_legacy() ? "in today's model (counting: legacy)"
                        : "a general hierarchy (counting: timeloop)";
}

/// Throws a UserError naming the first file whose model differs from the first file's: their
/// fronts have different columns.
void require_one_model(const std::vector<Configuration> &configs) {
  const Configuration &first = configs.front();
  for (const Configuration &c : configs)
    if (c.hw.is_legacy() != first.hw.is_legacy())
      throw UserError(SourceLocation{c.hw_file, 0, 0},
                      "'" + c.hw.name + "' is " + model_text(c.hw) + " but '" + first.hw.name +
                          "' (" + first.hw_file + ") is " + model_text(first.hw) +
                          "; one sweep takes hardware of one model, so sweep them separately");
}

std::vector<Configuration> load_configurations(const SweepArgs &args,
                                               const std::vector<SweepAxis> &axes) {
  std::vector<Configuration> out;
  for (const std::string &file : args.hw_paths)
    for (const std::vector<ParameterSetting> &settings : sweep_grid(axes))
      out.push_back({file, settings, load_hardware_with(file, settings, args.max_input_mib)});
  require_one_model(out);
  return out;
}

/// The level whose capacity a buffer curve sweeps: the global buffer, level 1 of a hierarchy.
const std::string &buffer_level(const Hardware &hw) { return hw.hierarchy.levels[1].name; }

/// How --within answers name that level.
std::string buffer_text(const Hardware &hw) {
  return hw.is_legacy() ? "global buffer" : buffer_level(hw);
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
    out += "," + csv_number(s.value);
  return out;
}

/// "hw 'accel' with GlobalBuffer.capacity_kib=32": a configuration in messages.
std::string config_label(const Configuration &c) {
  std::string out = "hw '" + c.hw.name + "'";
  for (size_t i = 0; i < c.settings.size(); ++i)
    out += (i ? ", " : " with ") + c.settings[i].path + "=" + csv_number(c.settings[i].value);
  return out;
}

/// "sim-1g with DRAM.bandwidth_gbps=30": the configuration of a buffer curve, every swept
/// setting but the capacity along the curve.
std::string curve_configuration(const Configuration &c, int cap_axis) {
  std::string out = c.hw.name;
  const char *joint = " with ";
  for (size_t i = 0; i < c.settings.size(); ++i)
    if (static_cast<int>(i) != cap_axis) {
      out += joint + c.settings[i].path + "=" + csv_number(c.settings[i].value);
      joint = ", ";
    }
  return out;
}

/// Index of the global-buffer capacity axis, or -1.
int capacity_axis(const std::vector<SweepAxis> &axes, const std::vector<Configuration> &configs) {
  for (size_t i = 0; i < axes.size(); ++i)
    for (const Configuration &c : configs)
      if (axes[i].path == buffer_level(c.hw) + ".capacity_kib" ||
          axes[i].path == buffer_level(c.hw) + ".capacity_words")
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

/// What one case contributes to the output files; exchanged between ranks as text.
struct CaseOutput {
  std::string fronts;
  std::string summary;
  BufferCurvePoint curve;
  std::optional<UserError> no_fit; // the hardware fits no mapping: the case is infeasible
};

constexpr char kField = '\x1f';
constexpr char kRecord = '\x1e';

std::vector<std::string> split(const std::string &s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s)
    if (c == sep)
      out.emplace_back();
    else
      out.back() += c;
  return out;
}

/// A user error as fields: file, line, column, message (control bytes, the separators among
/// them, escaped: they would be escaped on the terminal anyway).
std::string encode_error(const UserError &e) {
  const SourceLocation &at = e.where();
  return escape_control(at.file) + kField + std::to_string(at.line) + kField +
         std::to_string(at.column) + kField + escape_control(e.message());
}

UserError decode_error(const std::vector<std::string> &f, size_t first) {
  return UserError(
      SourceLocation{f.at(first), std::stoi(f.at(first + 1)), std::stoi(f.at(first + 2))},
      f.at(first + 3));
}

std::string encode(size_t index, const CaseOutput &o) {
  const BufferCurvePoint &p = o.curve;
  std::string out = std::to_string(index) + kField + o.fronts + kField + o.summary;
  for (double v : {p.capacity_words, p.min_dram_words, p.latency_s, p.energy_pj, p.best_latency_s,
                   p.best_energy_pj, p.best_edp})
    out += kField + csv_number(v);
  out += kField + (p.io_lower_bound ? csv_number(*p.io_lower_bound) : "");
  return out + kField + (o.no_fit ? "1" + std::string(1, kField) + encode_error(*o.no_fit) : "0") +
         kRecord;
}

void decode(const std::string &record, std::vector<CaseOutput> &outputs) {
  const std::vector<std::string> f = split(record, kField);
  CaseOutput &o = outputs.at(std::stoul(f.at(0)));
  o.fronts = f.at(1);
  o.summary = f.at(2);
  double *values[] = {&o.curve.capacity_words, &o.curve.min_dram_words, &o.curve.latency_s,
                      &o.curve.energy_pj,      &o.curve.best_latency_s, &o.curve.best_energy_pj,
                      &o.curve.best_edp};
  for (size_t i = 0; i < 7; ++i)
    *values[i] = std::stod(f.at(3 + i));
  if (!f.at(10).empty())
    o.curve.io_lower_bound = std::stod(f.at(10));
  if (f.at(11) == "1")
    o.no_fit = decode_error(f, 12);
}

/// Curve CSV rows and the answer to "smallest capacity within X% of the best", per curve: the
/// cases with the same hw file, workload and non-capacity settings, by capacity.
std::string buffer_curves(const SweepArgs &args, const std::vector<SweepAxis> &axes,
                          const std::vector<Configuration> &configs,
                          const std::vector<Workload> &workloads,
                          const std::vector<CaseOutput> &outputs, int cap_axis,
                          std::string &answers) {
  std::map<std::string, std::vector<size_t>> curves;
  for (size_t c = 0; c < configs.size(); ++c)
    for (size_t w = 0; w < workloads.size(); ++w) {
      std::string key = configs[c].hw_file + "|" + std::to_string(w);
      for (size_t a = 0; a < axes.size(); ++a)
        if (static_cast<int>(a) != cap_axis)
          key += "|" + csv_number(configs[c].settings[a].value);
      curves[key].push_back(c * workloads.size() + w);
    }
  const double within = args.within.empty() ? -1 : parse_percentage(args.within);
  std::string rows;
  for (auto &[key, cases] : curves) {
    std::stable_sort(cases.begin(), cases.end(), [&](size_t a, size_t b) {
      return outputs[a].curve.capacity_words < outputs[b].curve.capacity_words;
    });
    const Workload &w = workloads[cases.front() % workloads.size()];
    double best = std::numeric_limits<double>::infinity();
    for (size_t index : cases) {
      const BufferCurvePoint &p = outputs[index].curve;
      rows += config_values(configs[index / workloads.size()]) + "," + csv_field(w.name) + "," +
              csv_number(p.capacity_words);
      if (outputs[index].no_fit) {
        rows += infeasible_fields(curve_header(), 1);
        continue;
      }
      rows += curve_fields(p);
      best = std::min(best, curve_objective(p, args.within_objective));
    }
    if (within < 0)
      continue;
    for (size_t index : cases) {
      const BufferCurvePoint &p = outputs[index].curve;
      if (outputs[index].no_fit ||
          curve_objective(p, args.within_objective) > best * (1 + within / 100))
        continue;
      const Configuration &config = configs[index / workloads.size()];
      answers +=
          within_answer(w.name, curve_configuration(config, cap_axis), buffer_text(config.hw),
                        within, args.within_objective, p.capacity_words, config.hw.word_bytes);
      break;
    }
  }
  return rows;
}

/// The searches of a sweep: today's, or a general hierarchy's (the first configuration's
/// hardware checks the flags; run_hier_sweep takes each case's first-read elision).
struct SweepSearch {
  SearchOptions legacy;
  HierSearchOptions general;
  bool is_general = false;
};

SweepSearch sweep_search(const SweepArgs &args, const Hardware &first) {
  SweepSearch search;
  search.is_general = !first.is_legacy();
  const std::vector<Objective> curve{Objective::Latency, Objective::Energy, Objective::Dram};
  if (!search.is_general) {
    search.legacy = search_options(args.search);
    if (args.buffer_curve)
      search.legacy.objectives = curve;
    return search;
  }
  search.general = hier_search_options(args.search, first);
  if (args.buffer_curve)
    search.general.objectives = curve;
  return search;
}

/// The outputs of `cases` on today's model; case k belongs to configuration `config_of[k]`.
std::vector<CaseOutput> legacy_case_outputs(const std::vector<SweepCase> &cases,
                                            const std::vector<const Configuration *> &config_of,
                                            const SearchOptions &options,
                                            const ProgressReporter &progress) {
  const SweepOutcome outcome = run_sweep(cases, options, progress);
  std::vector<CaseOutput> outputs;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Configuration &c = *config_of[k];
    const ExploreResult &r = outcome.results[k];
    const std::string prefix = config_values(c) + "," + csv_field(cases[k].workload->name);
    const double capacity = static_cast<double>(c.hw.gb_capacity_words());
    CaseOutput &o = outputs.emplace_back();
    if (outcome.no_fit[k]) {
      o.summary = prefix + infeasible_fields(summary_header(), 0);
      o.curve.capacity_words = capacity;
      o.no_fit = outcome.no_fit[k];
    } else {
      o.fronts = front_table_rows(prefix + ",", r, c.hw, std::nullopt);
      o.summary = prefix + "," + summary_fields(r, c.hw);
      o.curve = buffer_curve_point(r, *cases[k].workload, capacity);
    }
  }
  return outputs;
}

/// The outputs of `cases` on general hierarchies (each has a front).
std::vector<CaseOutput> general_case_outputs(const std::vector<SweepCase> &cases,
                                             const std::vector<const Configuration *> &config_of,
                                             const HierSearchOptions &options,
                                             const ProgressReporter &progress) {
  const std::vector<HierExploreResult> results = run_hier_sweep(cases, options, progress);
  std::vector<CaseOutput> outputs;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Hardware &hw = config_of[k]->hw;
    const Workload &w = *cases[k].workload;
    const std::string prefix = config_values(*config_of[k]) + "," + csv_field(w.name);
    CaseOutput &o = outputs.emplace_back();
    o.fronts = hier_front_table_rows(prefix + ",", results[k], w, hw);
    o.summary = prefix + "," + summary_fields(results[k], w, hw);
    o.curve = buffer_curve_point(results[k], w, hw.hierarchy);
  }
  return outputs;
}

/// Runs the cases this rank owns (every size-th, from its rank) and encodes their outputs; a
/// user error is encoded as the index of this rank's first case and the message.
std::string run_own_cases(const std::vector<SweepCase> &cases,
                          const std::vector<Configuration> &configs, const SweepSearch &search,
                          const ProcessGroup &group, bool show_progress) {
  std::vector<SweepCase> mine;
  std::vector<size_t> index;
  std::vector<const Configuration *> config_of;
  const size_t per_config = cases.size() / configs.size();
  for (size_t i = static_cast<size_t>(group.rank()); i < cases.size();
       i += static_cast<size_t>(group.size())) {
    mine.push_back(cases[i]);
    index.push_back(i);
    config_of.push_back(&configs[i / per_config]);
  }
  std::vector<CaseOutput> outputs;
  try {
    ProgressBar bar(show_progress && group.rank() == 0);
    const ProgressReporter progress = [&bar](const std::string &label, std::uint64_t done,
                                             std::uint64_t total) {
      bar.update(label, done, total);
    };
    outputs = search.is_general ? general_case_outputs(mine, config_of, search.general, progress)
                                : legacy_case_outputs(mine, config_of, search.legacy, progress);
  } catch (const UserError &e) {
    return "E" + std::to_string(index.front()) + kField + encode_error(e);
  }
  std::string out;
  for (size_t k = 0; k < mine.size(); ++k)
    out += encode(index[k], outputs[k]);
  return out;
}

/// Rank 0: every case's output in case order, or the error of the lowest failing case.
std::vector<CaseOutput> collect(const std::vector<std::string> &payloads, size_t cases) {
  std::vector<CaseOutput> outputs(cases);
  std::vector<std::string> error;
  size_t error_case = cases;
  for (const std::string &payload : payloads) {
    if (!payload.empty() && payload[0] == 'E') {
      std::vector<std::string> f = split(payload.substr(1), kField);
      if (std::stoul(f[0]) < error_case) {
        error_case = std::stoul(f[0]);
        error = std::move(f);
      }
      continue;
    }
    for (const std::string &record : split(payload, kRecord))
      if (!record.empty())
        decode(record, outputs);
  }
  if (error_case < cases)
    throw decode_error(error, 1);
  return outputs;
}

/// Warns of each case whose hardware fits no mapping; fails when no case fits.
void report_infeasible_cases(const std::vector<CaseOutput> &outputs,
                             const std::vector<Configuration> &configs,
                             const std::vector<Workload> &workloads) {
  if (std::all_of(outputs.begin(), outputs.end(),
                  [](const CaseOutput &o) { return o.no_fit.has_value(); }))
    throw UserError(outputs.front().no_fit->where(),
                    "no configuration of the sweep fits any mapping; the first: " +
                        outputs.front().no_fit->message());
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].no_fit)
      continue;
    std::cerr << escape_control_in_text(
        "warning: " + config_label(configs[i / workloads.size()]) + ", workload '" +
        workloads[i % workloads.size()].name +
        "': no mapping fits (marked infeasible): " + outputs[i].no_fit->what() + "\n");
  }
}

/// The error of --buffer-curve without a swept capacity.
std::string missing_capacity_axis(const Hardware &hw) {
  if (hw.is_legacy())
    return "--buffer-curve needs a swept global-buffer capacity, e.g. --set "
           "GlobalBuffer.capacity_kib=32..16384:x2";
  return "--buffer-curve needs a swept capacity of the first on-chip level, e.g. --set " +
         buffer_level(hw) + ".capacity_words=8..65536:x2";
}

/// The fronts file's columns after the workload column.
std::string fronts_header(const std::vector<Configuration> &configs) {
  if (configs.front().hw.is_legacy())
    return front_table_header(std::nullopt);
  std::vector<const Hardware *> hws;
  for (const Configuration &c : configs)
    hws.push_back(&c.hw);
  return hier_front_table_header(hws);
}

int run_sweep_on(const SweepArgs &args, const ProcessGroup &group) {
  if (args.output_path.empty() || args.output_path == "-")
    throw UserError(
        "dse sweep needs -o FILE.csv (the summary and curve files are written beside it)");
  std::vector<SweepAxis> axes;
  for (const std::string &spec : args.settings)
    axes.push_back(parse_sweep_axis(spec));
  const std::vector<Configuration> configs = load_configurations(args, axes);
  const SweepSearch search = sweep_search(args, configs.front().hw);
  std::vector<Workload> workloads;
  for (const std::string &path : args.workload_paths)
    workloads.push_back(
        load_searched_workload(path, args.search, configs.front().hw, args.max_input_mib));
  const int cap_axis = capacity_axis(axes, configs);
  if (args.buffer_curve && cap_axis < 0)
    throw UserError(missing_capacity_axis(configs.front().hw));
  if (!args.within.empty() && !args.buffer_curve)
    throw UserError("--within applies to --buffer-curve");

  std::vector<SweepCase> cases;
  for (const Configuration &c : configs)
    for (const Workload &w : workloads)
      cases.push_back({&c.hw, &w});
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::string> payloads = group.gather(run_own_cases(
      cases, configs, search, group, args.progress || ProgressBar::stderr_is_terminal()));
  if (group.rank() != 0)
    return 0;
  const std::vector<CaseOutput> outputs = collect(payloads, cases.size());
  report_infeasible_cases(outputs, configs, workloads);

  const std::string header = config_header(axes) + ",workload";
  std::string fronts = header + "," + fronts_header(configs);
  std::string summary = header + "," + summary_header();
  for (const CaseOutput &o : outputs) {
    fronts += o.fronts;
    summary += o.summary;
  }
  std::string answers;
  const std::string curve = args.buffer_curve ? header + "," + curve_header() +
                                                    buffer_curves(args, axes, configs, workloads,
                                                                  outputs, cap_axis, answers)
                                              : "";
  OutputSet files;
  files.stage(args.output_path, fronts);
  files.stage(output_beside(args.output_path, "-summary.csv"), summary);
  if (args.buffer_curve)
    files.stage(output_beside(args.output_path, "-buffer-curve.csv"), curve);
  else
    files.stage_removal(output_beside(args.output_path, "-buffer-curve.csv"));
  files.commit();
  if (args.verbose)
    std::cerr << cases.size() << " cases (" << configs.size() << " configurations x "
              << workloads.size() << " workloads) on " << group.size() << " process(es) in "
              << csv_number(std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                                .count())
              << " s\n";
  std::cout << answers;
  return 0;
}

} // namespace

int run_sweep_command(const SweepArgs &args) {
  ProcessGroup group;
  try {
    return run_sweep_on(args, group);
  } catch (const UserError &) {
    if (group.rank() != 0)
      return 1; // rank 0 reports it
    throw;
  }
}

} // namespace dse
