// `dse explore` on a hierarchy of any depth: the exact front of the workload (per-operator
// fronts summed in sequence), as CSV or JSON, with the search statistics under --verbose.
#include <iostream>

#include "dse/cli/commands.hpp"
#include "dse/cli/hier_front_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {

HierSearchOptions hier_search_options(const SearchFlags &flags, const Hardware &hw) {
  if (flags.tiles != "divisors")
    throw UserError("--tiles " + flags.tiles +
                    ": general hierarchies search divisor factors at "
                    "every level (--tiles divisors)");
  HierSearchOptions options;
  options.objectives = parse_objective_list(flags.objectives);
  options.latency_model = parse_latency_model(flags.latency_model);
  options.first_read_elision = hw.hierarchy.first_read_elision;
  return options;
}

int run_hier_explore(const ExploreArgs &args, const Hardware &hw) {
  const HierSearchOptions options = hier_search_options(args.search, hw);
  if (args.emit_mapping >= 0)
    throw UserError("--emit-mapping is not available on general hierarchies yet");
  const Workload workload = load_workload(args.workload_path, args.max_input_mib);
  const HierExploreResult result = explore_hier(hw, workload, options);
  if (args.verbose)
    std::cerr << hier_search_statistics(result, workload);
  write_output(args.output_path, args.json ? hier_front_json(result, workload, hw)
                                           : hier_front_csv(result, workload, hw));
  return 0;
}

} // namespace dse
