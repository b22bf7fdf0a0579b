// The `dse` subcommands. Each takes its parsed options and returns the process exit code;
// user errors propagate as UserError to main, which prints them.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/limits.hpp"
#include "dse/model/cost.hpp"
#include "dse/model/tiling.hpp"
#include "dse/search/hier_search.hpp"
#include "dse/search/pareto_front.hpp"
#include "dse/search/problem_search.hpp"
#include "dse/search/space_limits.hpp"

namespace dse {

/// The command-line flags that shape a search: the one place they become SearchOptions, for
/// explore, sweep, emit/run and network.
struct SearchFlags {
  std::string tiles = "divisors";
  std::string objectives = "latency,energy";
  std::string latency_model = "roofline";
  int threads = 0;
  bool no_fusion = false;        // search chains one operator at a time
  bool no_recompute = false;     // leave out fused dataflows that recompute the producer
  bool no_window_fusion = false; // fuse only pairs read with bare indices
  bool no_stacking = false;      // never stack sibling einsums that share an input
  std::size_t max_fused = 0;     // longest run of operators searched fused (0: the default)
  bool hier_fusion = false;      // general hierarchies: also search fusible pairs fused
  bool every_column = false;     // evaluate every tiling column: no box of tilings skipped
  SpaceLimits limits;            // --max-tilings, --max-loop-nests
  std::string cache_dir;         // --cache-dir: candidate spaces kept across runs (empty: none)
};

/// The search options the flags ask for, with the command's one candidate cache; throws
/// UserError on a value it does not know.
SearchOptions search_options(const SearchFlags &flags);
/// The same for a general hierarchy, whose search takes the objectives and the latency model.
HierSearchOptions hier_search_options(const SearchFlags &flags, const Hardware &hw);
/// The workload file as the flags search it on `hw`: its sibling einsums also stacked
/// (with_sibling_stacks) unless --no-stacking, on a general hierarchy only with --hier-fusion
/// (as fused pairs are: each stack is one more einsum to search there, with one more dimension).
Workload load_searched_workload(const std::string &path, const SearchFlags &flags,
                                const Hardware &hw, std::uint64_t max_input_mib);

struct ExploreArgs {
  std::string hw_path;
  std::string workload_path;
  std::string output_path; // empty: stdout
  bool json = false;
  SearchFlags search;
  bool verbose = false;
  bool progress = false; // show progress even when stderr is not a terminal
  int emit_mapping = -1; // front point to print as a mapping file, or -1
  std::uint64_t max_input_mib = kDefaultMaxInputMib; // largest YAML input read
};

struct EvalArgs {
  std::string hw_path;
  std::string workload_path;
  std::string mapping_path;
  std::string ert_path; // energies of a Timeloop architecture
  bool no_first_read_elision = false;
  std::string latency_model = "roofline";
  bool json = false;
  std::string output_path;
  std::uint64_t max_input_mib = kDefaultMaxInputMib;
};

struct SweepArgs {
  std::vector<std::string> hw_paths;
  std::vector<std::string> workload_paths;
  std::vector<std::string> settings; // --set path=values
  std::string output_path;
  bool buffer_curve = false;
  std::string within; // e.g. "5%"
  std::string within_objective = "latency";
  SearchFlags search; // objectives: latency,energy (and dram with --buffer-curve)
  bool verbose = false;
  bool progress = false;
  std::uint64_t max_input_mib = kDefaultMaxInputMib;
};

struct PlotArgs {
  std::vector<std::string> inputs; // CSV files written by explore or sweep
  std::string output_path;         // .svg, .png, or .gp for the gnuplot script
  std::string objectives;          // of the fronts, as given to explore; empty: detected
};

/// `dse emit` and `dse run`: a front point (searched like explore) or a mapping file as kernel
/// source.
struct EmitArgs {
  std::string hw_path;
  std::string ert_path; // with a Timeloop architecture: its energy reference table
  std::string workload_path;
  std::string mapping_path; // or:
  int point = -1;           // a front point, searched with the options below
  SearchFlags search;
  bool progress = false;
  std::string output_path; // emit: the source (default stdout); run: also keep the source there
  std::string cxx;         // run: host compiler (default $CXX, else c++)
  int repeat = 3;          // run: runs timed, the fastest reported
  bool no_check = false;   // run: skip the reference check
  std::uint64_t max_input_mib = kDefaultMaxInputMib;
};

/// `dse network`: plan a whole network (ONNX or YAML graph) on one accelerator.
struct NetworkArgs {
  std::string hw_path;
  std::string model_path;
  std::string output_dir;            // empty: print the summary only
  bool report = false;               // print the hotspot report on stdout
  std::string objective = "latency"; // latency or energy
  SearchFlags search = [] {          // segment searches default to power-of-two tiles
    SearchFlags flags;
    flags.tiles = "pow2";
    return flags;
  }();
  bool tiles_given = false; // --tiles given (general hierarchies search divisors only)
  bool no_search = false;   // skip the per-segment matrix-engine searches
  bool progress = false;
  std::uint64_t max_input_mib = kDefaultMaxInputMib;
};

/// `dse import`: Timeloop's architecture, energy table, problem and mapping written as dse's
/// hardware, workload and mapping files in one directory.
struct ImportArgs {
  std::string hw_path;       // a Timeloop architecture
  std::string ert_path;      // its energy reference table; empty: an ERT section beside it
  std::string workload_path; // a Timeloop problem
  std::string mapping_path;  // a Timeloop mapping; empty: no mapping.yaml
  std::string output_dir;
  std::uint64_t max_input_mib = kDefaultMaxInputMib;
};

int run_explore(const ExploreArgs &args);
int run_network(const NetworkArgs &args);
int run_emit(const EmitArgs &args);
/// Exit code 2 when a count differs from the model or the numeric check fails.
int run_kernel(const EmitArgs &args);
int run_plot(const PlotArgs &args);
int run_sweep_command(const SweepArgs &args);
int run_eval(const EvalArgs &args);
int run_import(const ImportArgs &args);
/// `dse explore` on a general hierarchy (`hw` already loaded).
int run_hier_explore(const ExploreArgs &args, const Hardware &hw);

LatencyModel parse_latency_model(const std::string &name); // throws UserError

/// Comma-separated objectives, one to three, no repeats; throws UserError.
std::vector<Objective> parse_objective_list(const std::string &list);

} // namespace dse
