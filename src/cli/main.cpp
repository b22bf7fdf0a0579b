// Entry point of the `dse` command: subcommand parsing and the single place where user errors
// are printed and turned into an exit code.
#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string>
#include <vector>

#include "dse/cli/command_suggestion.hpp"
#include "dse/cli/commands.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/support/error.hpp"
#include "dse/support/escape.hpp"

namespace {

/// --max-input-mib: the largest YAML input file read (a guard against endless devices).
void add_input_limit(CLI::App *cmd, std::uint64_t &max_input_mib) {
  cmd->add_option("--max-input-mib", max_input_mib, "largest YAML input file read, in MiB")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 20))
      ->capture_default_str();
}

/// --max-tilings and --max-loop-nests: how large a problem's spaces may be (1e9 is accepted).
void add_space_limits(CLI::App *cmd, dse::SpaceLimits &limits) {
  const CLI::Validator whole(
      [](std::string &text) {
        char *end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        const bool ok = end != text.c_str() && *end == '\0' && v >= 1 && v <= 1e15 &&
                        v == static_cast<double>(static_cast<std::uint64_t>(v));
        return ok ? std::string{} : "expected a whole number from 1 to 1e15, got '" + text + "'";
      },
      "1..1e15");
  cmd->add_option_function<double>(
         "--max-tilings",
         [&limits](double v) { limits.max_tilings = static_cast<std::uint64_t>(v); },
         "largest tiling space searched per problem (default " +
             dse::count_text(static_cast<double>(limits.max_tilings)) + ")")
      ->check(whole);
  cmd->add_option_function<double>(
         "--max-loop-nests",
         [&limits](double v) { limits.max_loop_nests = static_cast<std::uint64_t>(v); },
         "largest number of loop nests enumerated per problem (default " +
             dse::count_text(static_cast<double>(limits.max_loop_nests)) + ")")
      ->check(whole);
}

/// Which search flags a command takes beyond the tile menu, latency model, threads and limits.
struct SearchFlagSet {
  bool objectives = false; // --objectives
  bool space = false; // --no-fusion, --no-recompute, --no-window-fusion, --every-column (ablations)
  bool hier_fusion = false; // --hier-fusion (on general hierarchies)
  bool max_fused = false;   // --max-fused (commands that search chains with explore)
  bool stacking = false;    // --no-stacking (commands that search workload files)
};

/// The flags that become the command's SearchOptions (see dse::search_options).
void add_search_flags(CLI::App *cmd, dse::SearchFlags &f, SearchFlagSet set) {
  cmd->add_option("--tiles", f.tiles, "tile menu: divisors, pow2, array or all")
      ->capture_default_str();
  if (set.objectives)
    cmd->add_option("--objectives", f.objectives,
                    "comma-separated objectives: latency, energy, edp, dram, buffer")
        ->capture_default_str();
  cmd->add_option("--latency-model", f.latency_model, "roofline or sequential")
      ->capture_default_str();
  cmd->add_option("--threads", f.threads, "worker threads (default: every core)")
      ->check(CLI::Range(0, 4096));
  if (set.space) {
    cmd->add_flag("--no-fusion", f.no_fusion, "search chains one operator at a time");
    cmd->add_flag("--no-recompute", f.no_recompute,
                  "leave out fused dataflows that recompute the producer");
    cmd->add_flag("--no-window-fusion", f.no_window_fusion,
                  "fuse only pairs whose consumer reads the intermediate with bare indices (not "
                  "through a window or stride)");
    cmd->add_flag("--every-column", f.every_column,
                  "evaluate every tiling column instead of skipping the boxes of tilings the "
                  "front rejects (the same front, slower: the boxes' baseline)");
  }
  if (set.stacking)
    cmd->add_flag("--no-stacking", f.no_stacking,
                  "never stack sibling einsums that read one input (the Q, K and V projections) "
                  "into one einsum that may read it once");
  if (set.max_fused)
    cmd->add_option("--max-fused", f.max_fused,
                    "longest run of consecutive operators of a chain searched fused (1: none; "
                    "default " +
                        std::to_string(dse::SearchOptions{}.max_fused) + ", network 2)")
        ->check(CLI::Range(1, 8));
  if (set.hier_fusion) {
    CLI::Option *hier_fusion = cmd->add_flag(
        "--hier-fusion", f.hier_fusion,
        "general hierarchies: also search each fusible pair fused (exact, and slower: about ten "
        "seconds for the shipped FFN on a16-timeloop)");
    if (set.space)
      hier_fusion->excludes("--no-fusion");
  }
  add_space_limits(cmd, f.limits);
  cmd->add_option("--cache-dir", f.cache_dir,
                  "directory keeping pruned candidate spaces across runs (default: "
                  "$DSE_CACHE_DIR; none when unset)")
      ->envname("DSE_CACHE_DIR");
}

void add_explore(CLI::App &app, dse::ExploreArgs &a) {
  CLI::App *cmd = app.add_subcommand("explore", "find the exact Pareto front of a workload");
  cmd->add_option("--hw", a.hw_path, "hardware YAML file")->required();
  cmd->add_option("--workload", a.workload_path, "workload YAML file")->required();
  cmd->add_option("-o,--output", a.output_path, "front output file (default: stdout)");
  cmd->add_flag("--json", a.json, "write JSON instead of CSV");
  add_search_flags(cmd, a.search,
                   {.objectives = true,
                    .space = true,
                    .hier_fusion = true,
                    .max_fused = true,
                    .stacking = true});
  cmd->add_flag("-v,--verbose", a.verbose, "print pruning and search statistics on stderr");
  cmd->add_flag("--progress", a.progress,
                "show a progress bar on stderr even when it is not a terminal");
  cmd->add_option("--emit-mapping", a.emit_mapping,
                  "print front point N as a mapping file (dse eval --mapping) on stdout")
      ->check(CLI::NonNegativeNumber);
  add_input_limit(cmd, a.max_input_mib);
}

void add_eval(CLI::App &app, dse::EvalArgs &a) {
  CLI::App *cmd = app.add_subcommand("eval", "evaluate one fully specified mapping");
  cmd->add_option("--hw", a.hw_path, "hardware YAML file (or a Timeloop architecture)")->required();
  cmd->add_option("--workload", a.workload_path, "workload YAML file (or a Timeloop problem)")
      ->required();
  cmd->add_option("--mapping", a.mapping_path, "mapping YAML file (or a Timeloop mapping)")
      ->required();
  cmd->add_option("--ert", a.ert_path,
                  "Timeloop energy reference table (with a Timeloop architecture)");
  cmd->add_flag("--no-first-read-elision", a.no_first_read_elision,
                "general hierarchies: count the first read of every partial sum");
  cmd->add_option("--latency-model", a.latency_model, "roofline or sequential")
      ->capture_default_str();
  cmd->add_flag("--json", a.json, "print JSON instead of text");
  cmd->add_option("-o,--output", a.output_path, "output file (default: stdout)");
  add_input_limit(cmd, a.max_input_mib);
}

void add_sweep(CLI::App &app, dse::SweepArgs &a) {
  CLI::App *cmd = app.add_subcommand("sweep", "explore a grid of hardware configurations");
  cmd->add_option("--hw", a.hw_paths, "hardware YAML file (repeat to compare several)")->required();
  cmd->add_option("--workload", a.workload_paths, "workload YAML file (repeatable)")->required();
  cmd->add_option("--set", a.settings,
                  "swept parameter: path=a,b,c | path=a..b:xF | path=a..b:+S "
                  "(e.g. GlobalBuffer.capacity_kib=32..16384:x2, pe_array.rows=16,32)");
  cmd->add_option("-o,--output", a.output_path,
                  "fronts CSV; FILE-summary.csv and FILE-buffer-curve.csv are written beside it")
      ->required();
  cmd->add_flag("--buffer-curve", a.buffer_curve,
                "also write the lowest DRAM traffic per global-buffer capacity");
  cmd->add_option("--within", a.within,
                  "with --buffer-curve: print the smallest capacity within this percentage of "
                  "the best (e.g. 5%)");
  cmd->add_option("--within-objective", a.within_objective, "latency, energy or edp")
      ->capture_default_str();
  add_search_flags(cmd, a.search,
                   {.objectives = false,
                    .space = true,
                    .hier_fusion = true,
                    .max_fused = true,
                    .stacking = true});
  cmd->add_flag("-v,--verbose", a.verbose, "print the sweep time on stderr");
  cmd->add_flag("--progress", a.progress,
                "show a progress bar on stderr even when it is not a terminal");
  add_input_limit(cmd, a.max_input_mib);
}

void add_plot(CLI::App &app, dse::PlotArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "plot", "render fronts, buffer-size curves or sweep summaries (CSV) with gnuplot");
  cmd->add_option("inputs", a.inputs, "CSV files written by dse explore or dse sweep")->required();
  cmd->add_option("-o,--output", a.output_path, "image file (.svg or .png) or gnuplot script (.gp)")
      ->required();
  cmd->add_option("--objectives", a.objectives,
                  "objectives the fronts were explored for; the first two are the axes "
                  "(default: read from the order of the rows)");
}

void add_emit_options(CLI::App *cmd, dse::EmitArgs &a) {
  cmd->add_option("--hw", a.hw_path, "hardware YAML file (or a Timeloop architecture)")->required();
  cmd->add_option("--ert", a.ert_path,
                  "Timeloop energy reference table (with a Timeloop architecture)");
  cmd->add_option("--workload", a.workload_path, "workload YAML file (or a Timeloop problem)")
      ->required();
  cmd->add_option("--mapping", a.mapping_path,
                  "mapping YAML file, or a Timeloop mapping (instead of --point)");
  cmd->add_option("--point", a.point, "front point N of the workload's exploration")
      ->check(CLI::NonNegativeNumber);
  // With --point: the search that finds the front, as explore's.
  add_search_flags(cmd, a.search,
                   {.objectives = true,
                    .space = false,
                    .hier_fusion = true,
                    .max_fused = true,
                    .stacking = true});
  cmd->add_flag("--progress", a.progress,
                "show a progress bar on stderr even when it is not a terminal");
  add_input_limit(cmd, a.max_input_mib);
}

void add_emit(CLI::App &app, dse::EmitArgs &a) {
  CLI::App *cmd = app.add_subcommand("emit", "write a front point or mapping as C++ kernel source");
  add_emit_options(cmd, a);
  cmd->add_option("-o,--output", a.output_path, "source file (default: stdout)");
}

void add_run(CLI::App &app, dse::EmitArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "run", "emit, compile and run a kernel; compare its counts with the model");
  add_emit_options(cmd, a);
  cmd->add_option("-o,--output", a.output_path, "also keep the source in this file");
  cmd->add_option("--cxx", a.cxx, "host compiler (default: $CXX, else c++)");
  cmd->add_option("--repeat", a.repeat, "timed runs; the fastest is reported")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_flag("--no-check", a.no_check, "skip the reference check (large workloads)");
}

void add_network(CLI::App &app, dse::NetworkArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "network", "plan a whole network: hotspots, splitting, fusion, layout and parallelism");
  cmd->add_option("--hw", a.hw_path, "hardware YAML file")->required();
  cmd->add_option("--model", a.model_path, "network: ONNX file or YAML graph")->required();
  cmd->add_option("-o,--output", a.output_dir,
                  "report directory: summary.txt, hotspots.txt and memory, splits, segments "
                  "and layout CSV files");
  cmd->add_flag("--report", a.report, "print the memory hotspots and split decisions");
  cmd->add_option("--objective", a.objective, "latency or energy")->capture_default_str();
  add_search_flags(cmd, a.search,
                   {.objectives = false, .space = true, .hier_fusion = true, .max_fused = true});
  cmd->get_option("--tiles")->each([&a](const std::string &) { a.tiles_given = true; });
  cmd->add_flag("--no-search", a.no_search, "skip the per-segment searches (memory planning only)");
  cmd->add_flag("--progress", a.progress,
                "show a progress bar on stderr even when it is not a terminal");
  add_input_limit(cmd, a.max_input_mib);
}

void add_import(CLI::App &app, dse::ImportArgs &a) {
  CLI::App *cmd = app.add_subcommand(
      "import", "write Timeloop's architecture, problem and mapping as dse files");
  cmd->add_option("--hw", a.hw_path, "Timeloop architecture")->required();
  cmd->add_option("--ert", a.ert_path,
                  "Timeloop energy reference table (default: an ERT section in the --hw file)");
  cmd->add_option("--workload", a.workload_path, "Timeloop problem")->required();
  cmd->add_option("--mapping", a.mapping_path, "Timeloop mapping (written as mapping.yaml)");
  cmd->add_option("-o,--output", a.output_dir,
                  "output directory: hardware.yaml, workload.yaml and mapping.yaml")
      ->required();
  add_input_limit(cmd, a.max_input_mib);
}

/// The first argument when it is not an option: where the subcommand goes (the only top-level
/// options, --help and --version, take no value).
std::string first_word(int argc, char **argv) {
  if (argc < 2 || argv[1][0] == '-')
    return {};
  return argv[1];
}

std::vector<std::string> subcommand_names(CLI::App &app) {
  std::vector<std::string> names;
  for (const CLI::App *sub : app.get_subcommands([](const CLI::App *) { return true; }))
    names.push_back(sub->get_name());
  return names;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App app{"dse: design-space exploration of dataflows for DNN accelerators"};
  app.require_subcommand(0, 1); // bare `dse` prints the help
  app.set_version_flag("--version", std::string("dse ") + DSE_VERSION,
                       "print the version and exit");
  dse::ExploreArgs explore;
  dse::EvalArgs eval;
  dse::SweepArgs sweep;
  dse::PlotArgs plot;
  dse::EmitArgs emit;
  dse::EmitArgs run;
  dse::NetworkArgs network;
  dse::ImportArgs import_args;
  add_explore(app, explore);
  add_plot(app, plot);
  add_eval(app, eval);
  add_sweep(app, sweep);
  add_emit(app, emit);
  add_run(app, run);
  add_network(app, network);
  add_import(app, import_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ExtrasError &e) {
    const std::string word = first_word(argc, argv);
    if (!app.get_subcommands().empty() || word.empty())
      return app.exit(e);
    // A word where the subcommand goes: name the nearest one.
    std::cerr << dse::escape_control(dse::unknown_command_message(word, subcommand_names(app)))
              << "\nRun with --help for more information.\n";
    return static_cast<int>(CLI::ExitCodes::ExtrasError);
  } catch (const CLI::ParseError &e) {
    return app.exit(e);
  }
  try {
    if (app.get_subcommands().empty()) {
      dse::write_stdout(app.help());
      dse::flush_stdout();
      return 0;
    }
    const int code = [&] {
      if (app.got_subcommand("explore"))
        return dse::run_explore(explore);
      if (app.got_subcommand("plot"))
        return dse::run_plot(plot);
      if (app.got_subcommand("sweep"))
        return dse::run_sweep_command(sweep);
      if (app.got_subcommand("emit"))
        return dse::run_emit(emit);
      if (app.got_subcommand("run"))
        return dse::run_kernel(run);
      if (app.got_subcommand("network"))
        return dse::run_network(network);
      if (app.got_subcommand("import"))
        return dse::run_import(import_args);
      return dse::run_eval(eval);
    }();
    dse::flush_stdout(); // what was printed must have arrived, or the run failed
    return code;
  } catch (const dse::UserError &e) {
    std::cerr << dse::escape_control_in_text(e.what()) << "\n";
    return 1;
  } catch (const std::bad_alloc &) {
    std::cerr << "out of memory: the search needs more memory than this machine has; try a "
                 "smaller --tiles menu or lower --max-tilings / --max-loop-nests\n";
    return 1;
  } catch (const std::exception &e) { // a bug: report it rather than abort
    std::cerr << "internal error: " << e.what() << "\n";
    return 1;
  }
}
