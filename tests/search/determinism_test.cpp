// Determinism (docs/DESIGN.md §4.5): explore gives bit-identical fronts (objectives, candidates,
// tilings) for any thread count and any Q*B block size.
#include "dse/search/explore.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <tbb/global_control.h>
#include <vector>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

struct Run {
  int threads;
  std::size_t block_tilings;
};

const std::vector<Run> kRuns{{1, 0}, {2, 7}, {3, 64}, {3, 7}, {2, 0}, {1, 64}};

std::string tiling_text(const Tiling &t) {
  std::string s;
  for (std::int64_t x : t.tile)
    s += std::to_string(x) + " ";
  return s;
}

/// Everything a front point says, with doubles printed exactly (hex floats).
std::string fingerprint(const ExploreResult &r) {
  std::ostringstream out;
  out << std::hexfloat;
  for (const ProblemSummary &s : r.summaries)
    out << s.label << " tilings " << s.stats.tilings << " mappings " << s.stats.mappings << "\n";
  for (const FrontPoint &p : r.front) {
    const Objectives &o = p.objectives;
    out << o.latency_s << " " << o.energy_pj << " " << o.edp << " " << o.dram_words << " "
        << o.buffer_words << " | " << p.totals.macs << " " << p.totals.cycles << " "
        << p.totals.gb_reads << " " << p.totals.gb_writes << "\n";
    for (const MappingPart &part : p.parts)
      out << "  " << part.problem << ": " << describe(r.problems.at(part.problem), part.candidate)
          << " | tiles " << tiling_text(part.tiling) << "| " << part.objectives.latency_s << " "
          << part.objectives.energy_pj << "\n";
  }
  return out.str();
}

void expect_deterministic(const Workload &w, const Hardware &hw, SearchOptions options,
                          size_t min_points) {
  // Let three threads run even on a machine with fewer cores.
  const tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, 3);
  std::string first;
  for (const Run &run : kRuns) {
    options.threads = run.threads;
    options.block_tilings = run.block_tilings;
    const ExploreResult r = explore(w, hw, options);
    const std::string f = fingerprint(r);
    if (first.empty()) {
      first = f;
      EXPECT_GE(r.front.size(), min_points) << f;
      continue;
    }
    EXPECT_EQ(f, first) << "threads " << run.threads << ", block " << run.block_tilings;
  }
}

TEST(Determinism, FfnPairReducedSizes) {
  const Workload w = parse_workload(test::gemm_pair_yaml(96, 64, 192, 48), "ffn-small.yaml");
  test::HardwareSpec spec;
  spec.gb_words = 2048;
  spec.rows = spec.cols = 8;
  spec.dram_gbps = 16;
  SearchOptions options;
  expect_deterministic(w, test::tiny_hardware(spec), options, 3);
  options.objectives = {Objective::Latency, Objective::Energy, Objective::Buffer};
  expect_deterministic(w, test::tiny_hardware(spec), options, 3);
}

TEST(Determinism, ShippedGpt3AttentionOnSimulatedAccelerator) {
  const Workload w =
      load_workload(std::string(DSE_SOURCE_DIR) + "/workloads/gpt3-6.7b-attention-s2048.yaml");
  const Hardware hw =
      load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/sim-1g-1mb-60gbps.yaml");
  expect_deterministic(w, hw, SearchOptions{}, 2);
}

} // namespace
} // namespace dse
