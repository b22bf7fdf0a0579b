// `dse explore`: load, search, write the front (CSV or JSON), optionally one point as a mapping.
#include <iostream>
#include <sstream>

#include "dse/cli/candidate_directory.hpp"
#include "dse/cli/commands.hpp"
#include "dse/cli/front_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/search/explore.hpp"
#include "dse/support/escape.hpp"

namespace dse {

LatencyModel parse_latency_model(const std::string &name) {
  if (name == "roofline")
    return LatencyModel::Roofline;
  if (name == "sequential")
    return LatencyModel::Sequential;
  throw UserError("unknown latency model '" + name + "'; expected roofline or sequential");
}

std::vector<Objective> parse_objective_list(const std::string &list) {
  std::vector<Objective> out;
  std::istringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    const Objective o = parse_objective(item);
    if (std::find(out.begin(), out.end(), o) != out.end())
      throw UserError("objective '" + item + "' is listed twice");
    out.push_back(o);
  }
  if (out.empty() || out.size() > 3)
    throw UserError("--objectives takes one to three objectives, got '" + list + "'");
  return out;
}

SearchOptions search_options(const SearchFlags &flags) {
  if (flags.hier_fusion)
    throw UserError("--hier-fusion applies to general hierarchies; on this hardware fused pairs "
                    "are searched unless --no-fusion");
  SearchOptions options;
  options.menu = parse_tile_menu(flags.tiles);
  options.objectives = parse_objective_list(flags.objectives);
  options.latency_model = parse_latency_model(flags.latency_model);
  options.threads = flags.threads;
  options.fusion = !flags.no_fusion;
  options.recompute = !flags.no_recompute;
  options.window_fusion = !flags.no_window_fusion;
  if (flags.max_fused > 0)
    options.max_fused = flags.max_fused;
  options.prune_boxes = !flags.every_column;
  options.limits = flags.limits;
  options.cache = make_candidate_cache(flags.cache_dir);
  return options;
}

Workload load_searched_workload(const std::string &path, const SearchFlags &flags,
                                const Hardware &hw, std::uint64_t max_input_mib) {
  Workload workload = load_workload(path, max_input_mib);
  const bool stacking = !flags.no_stacking && (hw.is_legacy() || flags.hier_fusion);
  return stacking ? with_sibling_stacks(workload) : workload;
}

namespace {

/// With -v, before a problem's tilings are evaluated: what it will decide and how long that
/// should take.
std::string estimate_line(const std::string &label, const SearchEstimate &e) {
  std::ostringstream out;
  out.precision(2);
  out << escape_control(label) << ": " << e.candidates << " candidates x " << e.tilings
      << " tilings = " << count_text(e.mappings) << " mappings to decide, expected time about "
      << e.expected_seconds << " s";
  return out.str();
}

} // namespace

int run_explore(const ExploreArgs &args) {
  const Hardware hw = load_hardware(args.hw_path, args.max_input_mib);
  if (!hw.is_legacy())
    return run_hier_explore(args, hw);
  const SearchOptions options = search_options(args.search);
  const Workload workload =
      load_searched_workload(args.workload_path, args.search, hw, args.max_input_mib);

  ExploreResult result;
  {
    ProgressBar bar(args.progress || ProgressBar::stderr_is_terminal());
    EstimateReporter estimate;
    if (args.verbose)
      estimate = [&bar](const std::string &label, const SearchEstimate &e) {
        bar.note(estimate_line(label, e));
      };
    result = explore(
        workload, hw, options,
        [&bar](const std::string &label, std::uint64_t done, std::uint64_t total) {
          bar.update(label, done, total);
        },
        estimate);
  }
  for (const std::string &note : result.notes)
    std::cerr << "note: " << escape_control(note) << "\n";
  if (args.verbose)
    std::cerr << search_statistics(result, args.search.threads)
              << candidate_cache_report(args.search.cache_dir, *options.cache);
  if (args.emit_mapping >= 0 && static_cast<size_t>(args.emit_mapping) >= result.front.size())
    throw UserError("--emit-mapping " + std::to_string(args.emit_mapping) + ": the front has " +
                    std::to_string(result.front.size()) + " points");

  const std::string front =
      args.json ? front_json(result, workload, hw) : front_csv(result, workload, hw);
  if (args.emit_mapping >= 0) {
    if (!args.output_path.empty())
      write_output(args.output_path, front);
    write_output("", mapping_yaml(result, workload, static_cast<size_t>(args.emit_mapping)));
    return 0;
  }
  write_output(args.output_path, front);
  return 0;
}

} // namespace dse
