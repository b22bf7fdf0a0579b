// Hierarchical search benchmark: the exact front of GEMMs on the Timeloop reference architecture
// a16 (hw_configs/a16-timeloop.yaml), with the size of the space at each stage and the mappings
// evaluated per second. bench/run_hier_search_benchmark.sh prints the summary table.
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/hier_search.hpp"

namespace {

const std::string kHardware = std::string(DSE_SOURCE_DIR) + "/hw_configs/a16-timeloop.yaml";

struct Gemm {
  std::int64_t m, k, n;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
  }
};

const std::vector<Gemm> kGemms = {{96, 384, 192}, {256, 256, 256}, {1024, 1024, 1024}};

/// C[m,n] += A[m,k] * B[k,n].
dse::Workload gemm_workload(const Gemm &g) {
  const std::string yaml = "name: gemm-" + g.name() + "\ndims: {m: " + std::to_string(g.m) +
                           ", k: " + std::to_string(g.k) + ", n: " + std::to_string(g.n) +
                           "}\nops:\n  - {name: mm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
  return dse::parse_workload(yaml, "gemm-" + g.name() + ".yaml");
}

struct Measured {
  dse::HierSearchStatistics statistics;
  double seconds = 0;
  size_t front_points = 0;
};

void hier_front_benchmark(benchmark::State &state, const Gemm &g, Measured &m) {
  const dse::Hardware hw = dse::load_hardware(kHardware);
  const dse::Workload w = gemm_workload(g);
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const dse::HierSearchResult r = dse::search_hier_front(hw, w, w.ops[0], {});
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.statistics = r.statistics;
    m.front_points = r.front.size();
    benchmark::DoNotOptimize(m);
  }
  const dse::HierSearchStatistics &s = m.statistics;
  state.counters["spatial_rows"] = static_cast<double>(s.spatial_rows);
  state.counters["keep_vectors"] = static_cast<double>(s.keep_vectors);
  state.counters["tilings"] = static_cast<double>(s.tilings);
  state.counters["tilings_kept"] = static_cast<double>(s.tilings_kept);
  state.counters["mappings"] = static_cast<double>(s.mappings);
  state.counters["mappings_per_s"] = static_cast<double>(s.mappings) / m.seconds;
  state.counters["front_points"] = static_cast<double>(m.front_points);
}

void print_summary(const std::map<std::string, Measured> &results) {
  std::printf("\n%-16s %8s %6s %12s %12s %14s %12s %10s %6s\n", "gemm (m x k x n)", "rows", "keeps",
              "tilings", "kept", "mappings", "mappings/s", "seconds", "front");
  for (const auto &[name, m] : results) {
    const dse::HierSearchStatistics &s = m.statistics;
    if (m.seconds == 0)
      continue;
    std::printf("%-16s %8llu %6llu %12llu %12llu %14llu %12.3e %10.3f %6zu\n", name.c_str(),
                static_cast<unsigned long long>(s.spatial_rows),
                static_cast<unsigned long long>(s.keep_vectors),
                static_cast<unsigned long long>(s.tilings),
                static_cast<unsigned long long>(s.tilings_kept),
                static_cast<unsigned long long>(s.mappings),
                static_cast<double>(s.mappings) / m.seconds, m.seconds, m.front_points);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, Measured> results;
  for (const Gemm &g : kGemms) {
    Measured &m = results[g.name()];
    benchmark::RegisterBenchmark(("hier_front/a16/" + g.name()).c_str(),
                                 [&m, g](benchmark::State &s) { hier_front_benchmark(s, g, m); })
        ->Iterations(1)
        ->Unit(benchmark::kSecond)
        ->UseRealTime();
  }
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  print_summary(results);
  return 0;
}
