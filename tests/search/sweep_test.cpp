// Sweeps: results equal separate explorations; the buffer curve never rises with capacity and
// never goes below the GEMM I/O lower bound.
#include <gtest/gtest.h>

#include "dse/config/hardware_parameters.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/sweep.hpp"

namespace dse {
namespace {

const std::string kHw = std::string(DSE_SOURCE_DIR) + "/hw_configs/sim-1g-1mb-60gbps.yaml";

Workload gemm() {
  return parse_workload("name: g\ndims: {m: 256, k: 128, n: 192}\n"
                        "ops: [{name: g, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}]\n",
                        "g.yaml");
}

Workload pair() {
  return parse_workload("name: p\ndims: {m: 128, k: 64, n: 96, l: 64}\nops:\n"
                        "  - {name: up, einsum: \"H[m,n] += A[m,k] * W[k,n]\"}\n"
                        "  - {name: down, einsum: \"O[m,l] += H[m,n] * V[n,l]\"}\n",
                        "p.yaml");
}

std::vector<Hardware> capacities(const std::vector<double> &kib) {
  std::vector<Hardware> out;
  for (double k : kib)
    out.push_back(load_hardware_with(kHw, {{"GlobalBuffer.capacity_kib", k}}));
  return out;
}

TEST(SweepTest, SweepEqualsSeparateExplorations) {
  const std::vector<Hardware> hws = capacities({8, 32, 128});
  const std::vector<Workload> workloads = {gemm(), pair()};
  std::vector<SweepCase> cases;
  for (const Hardware &hw : hws)
    for (const Workload &w : workloads)
      cases.push_back({&hw, &w});
  SearchOptions options;
  options.objectives = {Objective::Latency, Objective::Energy, Objective::Dram};
  const SweepOutcome sweep = run_sweep(cases, options);
  ASSERT_EQ(sweep.results.size(), cases.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const ExploreResult alone = explore(*cases[i].workload, *cases[i].hw, options);
    const ExploreResult &swept = sweep.results[i];
    ASSERT_EQ(alone.front.size(), swept.front.size()) << "case " << i;
    for (size_t p = 0; p < alone.front.size(); ++p) {
      EXPECT_EQ(alone.front[p].objectives.latency_s, swept.front[p].objectives.latency_s);
      EXPECT_EQ(alone.front[p].objectives.energy_pj, swept.front[p].objectives.energy_pj);
      EXPECT_EQ(alone.front[p].objectives.dram_words, swept.front[p].objectives.dram_words);
    }
  }
}

TEST(SweepTest, BufferCurveIsNonIncreasingAndAboveTheLowerBound) {
  const std::vector<Hardware> hws = capacities({2, 4, 8, 16, 32, 64, 128, 256, 512});
  const Workload w = gemm();
  SearchOptions options;
  options.objectives = {Objective::Latency, Objective::Energy, Objective::Dram};
  double previous = std::numeric_limits<double>::infinity();
  for (const Hardware &hw : hws) {
    const double capacity = static_cast<double>(hw.gb_capacity_words());
    const BufferCurvePoint p = buffer_curve_point(explore(w, hw, options), w, capacity);
    EXPECT_LE(p.min_dram_words, previous) << "capacity " << capacity;
    ASSERT_TRUE(p.io_lower_bound.has_value());
    EXPECT_GE(p.min_dram_words, *p.io_lower_bound) << "capacity " << capacity;
    previous = p.min_dram_words;
  }
  // With the whole problem on chip, traffic is compulsory: each matrix moves once.
  EXPECT_EQ(previous, 256.0 * 128 + 128 * 192 + 256 * 192);
}

TEST(SweepTest, LowerBoundOnlyForGemms) {
  EXPECT_TRUE(gemm_io_lower_bound(gemm(), 1024).has_value());
  EXPECT_FALSE(gemm_io_lower_bound(pair(), 1024).has_value());
}

} // namespace
} // namespace dse
