// Hierarchical search benchmark: the exact front of GEMMs on the Timeloop reference architecture
// a16 (hw_configs/a16-timeloop.yaml: one on-chip level above the PEs' register files) and of
// GEMMs and GPT-3 6.7B attention at sequence length 131072 on a three-level design
// (hw_configs/quad-core-4level.yaml), as `dse explore` finds it (every einsum searched, the
// softmax as a vector pass, the fronts summed), with the size of the space and the mappings
// evaluated per second; each case runs on one thread (the baseline) and on every thread, and the
// summary prints the ratio. Then fronts over energy and DRAM words on a16, on every thread, with
// the DRAM floor of the bounds (dse/search/hier_dram_floor.hpp) and without it (the baseline).
// bench/run_hier_search_benchmark.sh prints both tables.
#include <benchmark/benchmark.h>
#include <chrono>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/hier_explore.hpp"
#include "dse/search/hier_space.hpp"
#include "single_run.hpp"

namespace {

struct Gemm {
  std::int64_t m, k, n;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n);
  }
};

/// A hardware file and the GEMMs and workload files searched on it.
struct Case {
  std::string hardware; // file stem in hw_configs/
  std::vector<Gemm> gemms;
  std::vector<std::string> workloads; // file stems in workloads/
};

const std::vector<Case> kCases = {
    {"a16-timeloop", {{96, 384, 192}, {256, 256, 256}, {1024, 1024, 1024}}, {}},
    {"quad-core-4level", {{256, 256, 256}}, {"gpt3-6.7b-attention-s131072"}}};

/// C[m,n] += A[m,k] * B[k,n].
dse::Workload gemm_workload(const Gemm &g) {
  const std::string yaml = "name: gemm-" + g.name() + "\ndims: {m: " + std::to_string(g.m) +
                           ", k: " + std::to_string(g.k) + ", n: " + std::to_string(g.n) +
                           "}\nops:\n  - {name: mm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
  return dse::parse_workload(yaml, "gemm-" + g.name() + ".yaml");
}

/// Per level, how many of the operator's dimensions loop there (factor above 1).
using PresentCounts = std::vector<int>;

/// The ways to split `extent` into temporal factors of levels 1..L (divisors, in any
/// combination) with level 0 taking the rest, by which levels get a factor above 1: per
/// presence mask (bit l: level l loops), how many factor chains.
std::map<unsigned, double> factor_chains(std::int64_t extent, int levels) {
  std::map<unsigned, double> out;
  const auto split = [&](auto &&self, int level, std::int64_t left, unsigned mask) -> void {
    if (level == 0) {
      out[mask | (left > 1 ? 1U : 0U)] += 1;
      return;
    }
    for (std::int64_t f : dse::divisors(left))
      self(self, level - 1, left / f, mask | (f > 1 ? 1U << level : 0U));
  };
  split(split, levels - 1, extent, 0);
  return out;
}

/// The size of einsum `op`'s searched space before any pruning or capacity filter: every spatial
/// row, keep vector, divisor tiling and loop order of every level (a level's loops in any order).
double mappings_in_space(const dse::Hardware &hw, const dse::Workload &w, const dse::Operator &op) {
  const int levels = hw.hierarchy.depth();
  double total = 0;
  for (const auto &row : dse::spatial_rows(hw.hierarchy, w, op)) {
    std::map<PresentCounts, double> combos{{PresentCounts(static_cast<size_t>(levels), 0), 1}};
    for (int d : op.dims()) {
      std::int64_t extent = w.dim_size(d);
      for (const auto &gap : row)
        for (const dse::FanoutMapping &f : gap)
          extent /= f.factor(d);
      std::map<PresentCounts, double> next;
      for (const auto &[counts, ways] : combos)
        for (const auto &[mask, chains] : factor_chains(extent, levels)) {
          PresentCounts c = counts;
          for (int l = 0; l < levels; ++l)
            c[static_cast<size_t>(l)] += (mask >> l & 1U) != 0 ? 1 : 0;
          next[c] += ways * chains;
        }
      combos = std::move(next);
    }
    for (const auto &[counts, ways] : combos) {
      double orders = 1;
      for (int present : counts)
        for (int i = 2; i <= present; ++i)
          orders *= i;
      total += ways * orders;
    }
  }
  return total * static_cast<double>(dse::keep_vectors(hw.hierarchy, w, op).size());
}

struct Measured {
  double space = 0; // mappings in the space before pruning
  dse::HierSearchStatistics statistics;
  double seconds = 0;
  size_t front_points = 0;
};

/// Every einsum's statistics added up (spatial rows and keep vectors too).
dse::HierSearchStatistics total_statistics(const dse::HierExploreResult &r) {
  dse::HierSearchStatistics total;
  for (const dse::HierSegmentFront &segment : r.segments) {
    if (segment.pass)
      continue;
    const dse::HierSearchStatistics &s = segment.search.statistics;
    total.spatial_rows += s.spatial_rows;
    total.keep_vectors += s.keep_vectors;
    total.tilings += s.tilings;
    total.tilings_kept += s.tilings_kept;
    total.mappings += s.mappings;
  }
  return total;
}

void hier_front_benchmark(benchmark::State &state, const std::string &hardware,
                          const dse::Workload &w, const dse::HierSearchOptions &options,
                          Measured &m) {
  const dse::Hardware hw =
      dse::load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/" + hardware + ".yaml");
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    const dse::HierExploreResult r = dse::explore_hier(hw, w, options);
    m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    m.statistics = total_statistics(r);
    m.front_points = r.front.size();
    benchmark::DoNotOptimize(m);
  }
  m.space = 0;
  for (const dse::Operator &op : w.ops)
    if (op.kind == dse::OpKind::Einsum)
      m.space += mappings_in_space(hw, w, op);
  const dse::HierSearchStatistics &s = m.statistics;
  state.counters["space"] = m.space;
  state.counters["decided_per_s"] = m.space / m.seconds;
  state.counters["spatial_rows"] = static_cast<double>(s.spatial_rows);
  state.counters["keep_vectors"] = static_cast<double>(s.keep_vectors);
  state.counters["tilings"] = static_cast<double>(s.tilings);
  state.counters["tilings_kept"] = static_cast<double>(s.tilings_kept);
  state.counters["mappings"] = static_cast<double>(s.mappings);
  state.counters["mappings_per_s"] = static_cast<double>(s.mappings) / m.seconds;
  state.counters["front_points"] = static_cast<double>(m.front_points);
}

/// Per case, the baseline run (one thread; or the DRAM floor off) and the run measured against it.
struct Pair {
  Measured one_thread, all_threads;
};

/// The fronts over energy and DRAM words: a 3x3 convolution whose input does not fit a16's global
/// buffer (its halo and its partial sums trade DRAM words against energy), and a GEMM.
const std::vector<std::pair<std::string, std::string>> kDramCases = {
    {"conv3x3-32x32-56x56", "name: conv\ndims: {k: 32, c: 32, p: 56, q: 56, r: 3, s: 3}\nops:\n"
                            "  - {name: conv, einsum: \"Y[k,p,q] += W[k,c,r,s] * "
                            "X[c,p+r-1,q+s-1]\"}\n"},
    {"gemm-1024x1024x1024", "name: gemm\ndims: {m: 1024, k: 1024, n: 1024}\nops:\n"
                            "  - {name: mm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"}};

void print_dram_summary(const std::map<std::string, Pair> &results) {
  std::printf("\nfronts over energy and DRAM words, every thread: bounds with the DRAM floor vs "
              "without (baseline)\n%-30s %12s %12s %10s %10s %8s %5s\n",
              "a16-timeloop / workload", "tilings", "baseline", "baseline s", "floor s", "ratio",
              "front");
  for (const auto &[name, p] : results) {
    const Measured &base = p.one_thread, &floor = p.all_threads;
    if (base.seconds == 0 || floor.seconds == 0)
      continue;
    std::printf("%-30s %12llu %12llu %10.2f %10.2f %8.1f %5zu\n", name.c_str(),
                static_cast<unsigned long long>(floor.statistics.tilings),
                static_cast<unsigned long long>(base.statistics.tilings), base.seconds,
                floor.seconds, base.seconds / floor.seconds, floor.front_points);
  }
}

/// Registers the energy-and-DRAM runs, with and without the floor.
void register_dram_cases(std::map<std::string, Pair> &results) {
  for (const auto &[name, yaml] : kDramCases) {
    Pair &p = results[name];
    for (const bool floor : {false, true}) {
      dse::HierSearchOptions options;
      options.objectives = {dse::Objective::Energy, dse::Objective::Dram};
      options.dram_floor = floor;
      Measured &m = floor ? p.all_threads : p.one_thread;
      dse_bench::register_single_run(
          "hier_front_dram/a16-timeloop/" + name + (floor ? "/floor" : "/no-floor"),
          [&m, w = dse::parse_workload(yaml, name + ".yaml"), options](benchmark::State &s) {
            hier_front_benchmark(s, "a16-timeloop", w, options, m);
          });
    }
  }
}

void print_summary(const std::map<std::string, Pair> &results) {
  std::printf("\n%-44s %10s %10s %5s %5s %10s %8s %9s %10s %7s %7s %6s %5s\n",
              "hardware / workload (gemm: m x k x n)", "space", "decided/s", "rows", "keeps",
              "tilings", "kept", "mappings", "mappings/s", "1 thr s", "all s", "ratio", "front");
  for (const auto &[name, p] : results) {
    const Measured &m = p.all_threads;
    const dse::HierSearchStatistics &s = m.statistics;
    if (m.seconds == 0 || p.one_thread.seconds == 0)
      continue;
    std::printf(
        "%-44s %10.3e %10.3e %5llu %5llu %10llu %8llu %9llu %10.3e %7.3f %7.3f %6.2f %5zu\n",
        name.c_str(), m.space, m.space / m.seconds, static_cast<unsigned long long>(s.spatial_rows),
        static_cast<unsigned long long>(s.keep_vectors), static_cast<unsigned long long>(s.tilings),
        static_cast<unsigned long long>(s.tilings_kept),
        static_cast<unsigned long long>(s.mappings), static_cast<double>(s.mappings) / m.seconds,
        p.one_thread.seconds, m.seconds, p.one_thread.seconds / m.seconds, m.front_points);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::map<std::string, Pair> results;
  for (const Case &c : kCases) {
    std::vector<std::pair<std::string, dse::Workload>> problems;
    for (const Gemm &g : c.gemms)
      problems.emplace_back(g.name(), gemm_workload(g));
    for (const std::string &stem : c.workloads)
      problems.emplace_back(
          stem, dse::load_workload(std::string(DSE_SOURCE_DIR) + "/workloads/" + stem + ".yaml"));
    for (auto &[problem, workload] : problems) {
      const std::string name = c.hardware + "/" + problem;
      Pair &p = results[name];
      for (int threads : {1, 0}) {
        Measured &m = threads == 1 ? p.one_thread : p.all_threads;
        dse::HierSearchOptions options;
        options.threads = threads;
        dse_bench::register_single_run(
            "hier_front/" + name + (threads == 1 ? "/threads:1" : "/threads:all"),
            [&m, hw = c.hardware, w = workload, options](benchmark::State &s) {
              hier_front_benchmark(s, hw, w, options, m);
            });
      }
    }
  }
  std::map<std::string, Pair> dram_results;
  register_dram_cases(dram_results);
  dse_bench::run_registered(argc, argv);
  print_summary(results);
  print_dram_summary(dram_results);
  return 0;
}
