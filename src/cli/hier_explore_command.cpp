// `dse explore` on a hierarchy of any depth: the exact front of the workload (per-operator
// fronts summed in sequence), as CSV or JSON, with the search statistics under --verbose, and
// one front point as a mapping file (--emit-mapping).
#include <iostream>

#include "dse/cli/commands.hpp"
#include "dse/cli/hier_front_report.hpp"
#include "dse/cli/hier_mapping_yaml.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {

namespace {

/// The mapping file of one front point: a segment per einsum or fused pair (vector passes need
/// none).
std::string plan_mapping_yaml(const HierExploreResult &result, const HierPlan &plan,
                              const Workload &workload, const Hardware &hw) {
  std::string out = hier_mapping_header(workload);
  for (const HierPlanPart &part : plan.parts) {
    const HierSegmentFront &s = result.segments[part.segment];
    if (s.pair)
      out += hier_fused_segment_yaml(hw, *s.pair, s.fused.front[part.point].mapping);
    else if (!s.pass)
      out += hier_segment_yaml(hw, workload, s.ops.front(), s.search.front[part.point].mapping);
  }
  return out;
}

} // namespace

HierSearchOptions hier_search_options(const SearchFlags &flags, const Hardware &hw) {
  if (flags.tiles != "divisors")
    throw UserError("--tiles " + flags.tiles +
                    ": general hierarchies search divisor factors at "
                    "every level (--tiles divisors)");
  if (flags.max_fused > 2)
    throw UserError("--max-fused " + std::to_string(flags.max_fused) +
                    ": general hierarchies fuse pairs (--hier-fusion), not longer chains");
  if (flags.every_column)
    throw UserError("--every-column applies to single-level hardware, whose search skips boxes "
                    "of tilings; general hierarchies are searched level by level");
  HierSearchOptions options;
  options.objectives = parse_objective_list(flags.objectives);
  options.latency_model = parse_latency_model(flags.latency_model);
  options.first_read_elision = hw.hierarchy.first_read_elision;
  options.threads = flags.threads;
  options.fusion = flags.hier_fusion;
  return options;
}

int run_hier_explore(const ExploreArgs &args, const Hardware &hw) {
  const HierSearchOptions options = hier_search_options(args.search, hw);
  const Workload workload =
      load_searched_workload(args.workload_path, args.search, hw, args.max_input_mib);
  const HierExploreResult result = explore_hier(hw, workload, options);
  if (args.verbose)
    std::cerr << hier_search_statistics(result, workload);
  const std::string front =
      args.json ? hier_front_json(result, workload, hw) : hier_front_csv(result, workload, hw);
  if (args.emit_mapping < 0) {
    write_output(args.output_path, front);
    return 0;
  }
  if (static_cast<size_t>(args.emit_mapping) >= result.front.size())
    throw UserError("--emit-mapping " + std::to_string(args.emit_mapping) + ": the front has " +
                    std::to_string(result.front.size()) + " points");
  if (!args.output_path.empty())
    write_output(args.output_path, front);
  write_output("", plan_mapping_yaml(result, result.front[static_cast<size_t>(args.emit_mapping)],
                                     workload, hw));
  return 0;
}

} // namespace dse
