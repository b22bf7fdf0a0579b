// `dse network`: load a network and an accelerator, run the graph-level pipeline, print the
// summary (and with --report the hotspots), and write the report directory. On a general
// hierarchy the plan is its segments' searches and their schedule through DRAM.
#include "dse/cli/commands.hpp"
#include "dse/cli/network_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"

namespace dse {

namespace {

PlanObjective parse_plan_objective(const std::string &name) {
  if (name == "latency")
    return PlanObjective::Latency;
  if (name == "energy")
    return PlanObjective::Energy;
  throw UserError("unknown objective '" + name + "'; expected latency or energy");
}

/// Refuses the options that plan the global buffer of today's model, or fuse runs longer than
/// pairs, on a general hierarchy (docs/HIERARCHY.md §8.5).
void require_hierarchy_options(const NetworkArgs &args, const Hardware &hw) {
  const auto refuse = [&](const std::string &option, const std::string &why) {
    throw UserError(SourceLocation{hw.source_file, 0, 0},
                    option + ": '" + hw.name + "' is a general hierarchy (counting: timeloop), " +
                        why);
  };
  if (args.report || args.no_search)
    refuse(args.report ? "--report" : "--no-search",
           "whose network plan has no memory planning of whole tensors (its levels hold tiles)");
  if (args.search.every_column)
    refuse("--every-column", "searched level by level, not by boxes of tilings");
  if (args.search.max_fused > 1)
    refuse("--max-fused " + std::to_string(args.search.max_fused),
           "whose network plan searches each compute node alone, and with --hier-fusion each "
           "linked pair fused too");
  if (args.tiles_given && args.search.tiles != "divisors")
    refuse("--tiles " + args.search.tiles, "searched with divisor factors at every level");
}

void write_report_directory(const std::string &dir, const NetworkPlan &plan, const Graph &graph,
                            const Hardware &hw, const std::string &summary, bool searched) {
  OutputDirectory report(dir);
  report.write("summary.txt", summary);
  if (!hw.is_legacy()) {
    report.write("segments.csv", segments_csv(plan, graph, hw));
    report.write("network_front.csv", network_front_csv(plan));
    report.commit();
    return;
  }
  report.write("hotspots.txt", hotspot_report(plan, graph));
  report.write("memory.csv", memory_csv(plan, graph));
  report.write("splits.csv", splits_csv(plan, graph));
  report.write("layout.csv", layout_csv(plan, graph));
  if (searched) {
    report.write("segments.csv", segments_csv(plan, graph, hw));
    report.write("network_front.csv", network_front_csv(plan));
  }
  report.commit();
}

} // namespace

int run_network(const NetworkArgs &args) {
  NetworkOptions options;
  options.objective = parse_plan_objective(args.objective);
  const Hardware hw = load_hardware(args.hw_path, args.max_input_mib);
  SearchFlags flags = args.search;
  if (!hw.is_legacy()) {
    require_hierarchy_options(args, hw);
    options.hier_fusion = flags.hier_fusion;
    flags.hier_fusion = false; // read above; search_options refuses it for today's model
  }
  options.search = search_options(flags);
  if (args.search.max_fused == 0)
    options.search.max_fused = kNetworkMaxFused;
  options.search_segments = !args.no_search;
  const Graph graph = load_network(args.model_path, args.max_input_mib);
  NetworkPlan plan;
  {
    ProgressBar bar(args.progress || ProgressBar::stderr_is_terminal(), "compute nodes");
    options.progress = [&bar](const std::string &label, std::uint64_t done, std::uint64_t total) {
      bar.update(label, done, total);
    };
    plan = plan_network(graph, hw, options);
  }
  const std::string summary = network_summary(plan, graph, hw, options);
  if (!args.output_dir.empty())
    write_report_directory(args.output_dir, plan, graph, hw, summary, options.search_segments);
  write_output("", args.report ? summary + "\n" + hotspot_report(plan, graph) : summary);
  return 0;
}

} // namespace dse
