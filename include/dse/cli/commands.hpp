// The `dse` subcommands. Each takes its parsed options and returns the process exit code;
// user errors propagate as UserError to main, which prints them.
#pragma once

#include <string>
#include <vector>

#include "dse/model/cost.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

struct ExploreArgs {
  std::string hw_path;
  std::string workload_path;
  std::string output_path; // empty: stdout
  bool json = false;
  int threads = 0;
  std::string tiles = "divisors";
  std::string objectives = "latency,energy";
  std::string latency_model = "roofline";
  bool verbose = false;
  bool progress = false; // show progress even when stderr is not a terminal
  int emit_mapping = -1; // front point to print as a mapping file, or -1
};

struct EvalArgs {
  std::string hw_path;
  std::string workload_path;
  std::string mapping_path;
  std::string latency_model = "roofline";
  bool json = false;
  std::string output_path;
};

struct SweepArgs {
  std::vector<std::string> hw_paths;
  std::vector<std::string> workload_paths;
  std::vector<std::string> settings; // --set path=values
  std::string output_path;
  bool buffer_curve = false;
  std::string within;                   // e.g. "5%"
  std::string within_objective = "latency";
  int threads = 0;
  std::string tiles = "divisors";
  std::string latency_model = "roofline";
  bool verbose = false;
  bool progress = false;
};

struct PlotArgs {
  std::vector<std::string> inputs; // CSV files written by explore or sweep
  std::string output_path;         // .svg or .png
};

int run_explore(const ExploreArgs &args);
int run_plot(const PlotArgs &args);
int run_sweep_command(const SweepArgs &args);
int run_eval(const EvalArgs &args);

LatencyModel parse_latency_model(const std::string &name); // throws UserError

} // namespace dse
