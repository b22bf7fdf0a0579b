// Fused-pair search benchmark on a general hierarchy (docs/HIERARCHY.md §8.3): the exact front of
// an FFN pair (H = A * W1, then O = H * W2) fused at the reference architecture a16's global
// buffer, at growing sizes, beside two baselines measured in the same run: the same search on one
// thread (its nest fronts are built on every thread), and `dse explore`'s search of the same two
// operators unfused (each einsum alone on one thread, the fronts summed). Prints the search
// statistics (loop trees, level-1 tilings, those skipped by the bound, nest fronts, nests and
// whole mappings evaluated), the three times, the ratios of the fused search to both, and the
// least energy of each front (what fusing saves). bench/run_fused_hier_search_benchmark.sh prints
// the table.
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/search/fused_hier_search.hpp"
#include "dse/search/hier_explore.hpp"
#include "single_run.hpp"

namespace {

struct Ffn {
  std::int64_t m, k, n, l;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + "x" +
           std::to_string(l);
  }
};

/// Growing sizes, then the shipped FFN (workloads/ffn-2048x768x3072x768.yaml: about ten seconds
/// fused on two threads).
const std::vector<Ffn> kSizes = {
    {16, 8, 16, 8}, {32, 16, 32, 16}, {64, 32, 64, 32}, {2048, 768, 3072, 768}};

dse::Workload ffn_workload(const Ffn &f) {
  const std::string yaml = "name: ffn-" + f.name() + "\ndims: {m: " + std::to_string(f.m) +
                           ", k: " + std::to_string(f.k) + ", n: " + std::to_string(f.n) +
                           ", l: " + std::to_string(f.l) +
                           "}\nops:\n  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                           "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n";
  return dse::parse_workload(yaml, "ffn-" + f.name() + ".yaml");
}

dse::Hardware a16() {
  return dse::load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/a16-timeloop.yaml");
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Measured {
  dse::FusedHierSearchStatistics fused;
  double fused_s = 0, fused_one_thread_s = 0, unfused_s = 0;
  double fused_least_pj = 0, unfused_least_pj = 0;
  size_t fused_points = 0, unfused_points = 0;
};

double least_energy(const std::vector<dse::Objectives> &front) {
  double least = front.empty() ? 0 : front.front().energy_pj;
  for (const dse::Objectives &o : front)
    least = std::min(least, o.energy_pj);
  return least;
}

/// The fused search on `threads` threads (0: all), its time into `seconds`.
void fused_benchmark(benchmark::State &state, const Ffn &size, int threads, double &seconds,
                     Measured &m) {
  const dse::Hardware hw = a16();
  const dse::Workload w = ffn_workload(size);
  const std::vector<dse::Chain> chains = dse::chain_splits(w).front();
  const dse::Problem problem = dse::make_fused_problem(w, chains[0].links[0], chains[0].links[1]);
  dse::HierSearchOptions options;
  options.threads = threads;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const dse::FusedHierSearchResult r = dse::search_fused_hier_front(hw, problem, options);
    seconds = seconds_since(start);
    m.fused = r.statistics;
    std::vector<dse::Objectives> front;
    for (const dse::FusedHierFrontPoint &p : r.front)
      front.push_back(p.objectives);
    m.fused_points = front.size();
    m.fused_least_pj = least_energy(front);
  }
  state.counters["loop_trees"] = static_cast<double>(m.fused.loop_trees);
  state.counters["tilings"] = static_cast<double>(m.fused.tilings);
  state.counters["tilings_skipped"] = static_cast<double>(m.fused.tilings_skipped);
  state.counters["nest_fronts"] = static_cast<double>(m.fused.nest_fronts);
  state.counters["nests"] = static_cast<double>(m.fused.nests);
  state.counters["mappings"] = static_cast<double>(m.fused.mappings);
}

void unfused_benchmark(benchmark::State &state, const Ffn &size, Measured &m) {
  const dse::Hardware hw = a16();
  const dse::Workload w = ffn_workload(size);
  dse::HierSearchOptions options;
  options.threads = 1;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const dse::HierExploreResult r = dse::explore_hier(hw, w, options);
    m.unfused_s = seconds_since(start);
    std::vector<dse::Objectives> front;
    for (const dse::HierPlan &p : r.front)
      front.push_back(p.objectives);
    m.unfused_points = front.size();
    m.unfused_least_pj = least_energy(front);
  }
}

void print_summary(const std::map<std::string, Measured> &results) {
  std::printf("\n%-18s %6s %9s %9s %7s %9s %9s %8s %8s %6s %9s %7s %10s %10s %6s\n",
              "ffn m x k x n x l", "trees", "tilings", "skipped", "fronts", "nests", "mappings",
              "fused s", "1-thr s", "gain", "unfused s", "ratio", "fused pJ", "unfused pJ",
              "points");
  for (const auto &[name, m] : results) {
    if (m.fused_s == 0 || m.fused_one_thread_s == 0 || m.unfused_s == 0)
      continue;
    std::printf("%-18s %6llu %9llu %9llu %7llu %9llu %9llu %8.3f %8.3f %6.2f %9.3f %7.1f %10.4e "
                "%10.4e %3zu/%zu\n",
                name.c_str(), static_cast<unsigned long long>(m.fused.loop_trees),
                static_cast<unsigned long long>(m.fused.tilings),
                static_cast<unsigned long long>(m.fused.tilings_skipped),
                static_cast<unsigned long long>(m.fused.nest_fronts),
                static_cast<unsigned long long>(m.fused.nests),
                static_cast<unsigned long long>(m.fused.mappings), m.fused_s, m.fused_one_thread_s,
                m.fused_one_thread_s / m.fused_s, m.unfused_s, m.fused_s / m.unfused_s,
                m.fused_least_pj, m.unfused_least_pj, m.fused_points, m.unfused_points);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, Measured> results;
  for (const Ffn &size : kSizes) {
    Measured &m = results[size.name()];
    dse_bench::register_single_run(
        "unfused/a16/ffn-" + size.name(),
        [&m, size](benchmark::State &s) { unfused_benchmark(s, size, m); });
    dse_bench::register_single_run("fused/a16/ffn-" + size.name(), [&m, size](benchmark::State &s) {
      fused_benchmark(s, size, 0, m.fused_s, m);
    });
    dse_bench::register_single_run(
        "fused-one-thread/a16/ffn-" + size.name(),
        [&m, size](benchmark::State &s) { fused_benchmark(s, size, 1, m.fused_one_thread_s, m); });
  }
  dse_bench::run_registered(argc, argv);
  print_summary(results);
  return 0;
}
