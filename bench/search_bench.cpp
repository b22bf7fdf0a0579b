// Search benchmarks: the full exploration of the reference workloads with the matrix path
// (once building the candidate spaces, once more with them cached), and the brute-force evaluator
// on the same pruned candidates, so that their throughput ratio is measured in one run; the same
// exploration evaluating every tiling column (no boxes of tilings dropped), as the baseline of
// the boxes; beside the mappings decided, the tiling boxes and columns visited, the mappings
// whose objectives were computed and the rate of the Q x B products against the machine's
// nominal peak.
// bench/run_benchmarks.sh runs one workload per process (for peak memory).
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>
#include <string>
#include <sys/resource.h>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/search/explore.hpp"
#include "dse/support/machine_peak.hpp"
#include "single_run.hpp"

namespace {

const std::string kHardware = std::string(DSE_SOURCE_DIR) + "/hw_configs/sim-1g-1mb-60gbps.yaml";
const std::vector<std::string> kWorkloads = {"gpt3-6.7b-attention-s2048",
                                             "gpt3-6.7b-attention-s131072", "ffn-2048x768x3072x768",
                                             "conv-chain-112"};
constexpr std::uint64_t kBruteForceTilings = 64;

struct Measured {
  std::uint64_t candidates_before = 0, candidates_after = 0, mappings = 0;
  std::uint64_t boxes = 0, columns = 0, objectives = 0; // tiling boxes and columns visited,
                                                        // objectives computed
  double flops = 0;                                     // of the Q x B products
  double seconds = 0, warm_seconds = 0, matrix_rate = 0, brute_rate = 0;
  double every_column_seconds = 0; // the same exploration without boxes
  size_t front_points = 0;
};

dse::Workload load(const std::string &name) {
  return dse::load_workload(std::string(DSE_SOURCE_DIR) + "/workloads/" + name + ".yaml");
}

/// The largest problem of a workload: its fused pair if it has one, else its first operator.
dse::Problem largest_problem(const dse::Workload &w) {
  const dse::Chain chain = dse::chain_splits(w).front().front();
  if (chain.links.size() > 1 && dse::can_fuse(w, chain.links[0], chain.links[1]))
    return dse::make_fused_problem(w, chain.links[0], chain.links[1]);
  return dse::make_single_problem(w, chain.links[0]);
}

void explore_benchmark(benchmark::State &state, const std::string &name, Measured &m) {
  const dse::Hardware hw = dse::load_hardware(kHardware);
  const dse::Workload w = load(name);
  dse::SearchOptions options;
  options.cache = std::make_shared<dse::CandidateCache>();
  for (auto _ : state) {
    const dse::ExploreResult r = dse::explore(w, hw, options);
    m = Measured{};
    for (const dse::ProblemSummary &s : r.summaries) {
      m.candidates_before += s.stats.pruning.candidates_before();
      m.candidates_after += s.stats.pruning.candidates_after();
      m.mappings += s.stats.mappings;
      m.boxes += s.stats.boxes;
      m.columns += s.stats.columns;
      m.objectives += s.stats.objectives_computed;
      m.flops += s.stats.matrix_flops;
    }
    m.seconds = r.seconds;
    m.front_points = r.front.size();
    benchmark::DoNotOptimize(m);
  }
  // Again with every candidate space already in the cache, as a warm --cache-dir serves them.
  m.warm_seconds = dse::explore(w, hw, options).seconds;
  dse::SearchOptions every_column;
  every_column.prune_boxes = false;
  m.every_column_seconds = dse::explore(w, hw, every_column).seconds;
  m.matrix_rate = static_cast<double>(m.mappings) / m.seconds;
  state.counters["mappings"] = static_cast<double>(m.mappings);
  state.counters["mappings_per_s"] = m.matrix_rate;
  state.counters["candidates_after_pruning"] = static_cast<double>(m.candidates_after);
}

void brute_force_benchmark(benchmark::State &state, const std::string &name, Measured &m) {
  const dse::Hardware hw = dse::load_hardware(kHardware);
  const dse::Workload w = load(name);
  const dse::Problem problem = largest_problem(w);
  double rate = 0;
  for (auto _ : state) {
    const dse::ProblemFront f = dse::brute_force_problem(
        problem, hw, dse::SearchOptions{}, dse::Pruning::Symbolic, kBruteForceTilings);
    rate = static_cast<double>(f.stats.mappings) / f.stats.seconds;
    benchmark::DoNotOptimize(f);
  }
  m.brute_rate = rate;
  state.counters["mappings_per_s"] = rate;
}

double peak_memory_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

void print_summary(const std::map<std::string, Measured> &results) {
  const double peak = dse::nominal_peak_flops(0);
  std::printf("\n%-28s %14s %12s %16s %14s %10s %10s %10s %10s %10s %12s %10s %10s %10s %12s "
              "%10s %8s\n",
              "workload", "candidates", "after prune", "mappings", "mappings/s", "front s",
              "warm s", "columns s", "box gain", "peak MiB", "brute map/s", "speed-up", "boxes",
              "columns", "objectives", "flop/s", "% peak");
  for (const auto &[name, m] : results) {
    if (m.mappings == 0)
      continue;
    const double flop_rate = m.flops / m.seconds;
    std::printf(
        "%-28s %14llu %12llu %16llu %14.3e %10.3f %10.3f %10.3f %10.1f %10.1f %12.3e %10.1f "
        "%10llu %10llu %12llu %10.3e %8.3f\n",
        name.c_str(), static_cast<unsigned long long>(m.candidates_before),
        static_cast<unsigned long long>(m.candidates_after),
        static_cast<unsigned long long>(m.mappings), m.matrix_rate, m.seconds, m.warm_seconds,
        m.every_column_seconds, m.every_column_seconds / m.seconds, peak_memory_mib(), m.brute_rate,
        m.brute_rate > 0 ? m.matrix_rate / m.brute_rate : 0.0,
        static_cast<unsigned long long>(m.boxes), static_cast<unsigned long long>(m.columns),
        static_cast<unsigned long long>(m.objectives), flop_rate,
        peak > 0 ? 100 * flop_rate / peak : 0.0);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, Measured> results;
  for (const std::string &name : kWorkloads) {
    Measured &m = results[name];
    dse_bench::register_single_run(
        "explore/" + name, [&m, name](benchmark::State &s) { explore_benchmark(s, name, m); });
    dse_bench::register_single_run("brute_force/" + name, [&m, name](benchmark::State &s) {
      brute_force_benchmark(s, name, m);
    });
  }
  dse_bench::run_registered(argc, argv);
  print_summary(results);
  return 0;
}
