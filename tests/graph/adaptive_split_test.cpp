// Tests of src/graph/memory_simulation.cpp, hotspots.cpp and adaptive_split.cpp: hand-computed
// live words and spills, splitting never raises the peak, and the chosen number of parts is
// the smallest that fits with a positive benefit (checked by brute force over smaller ones).
#include "dse/graph/adaptive_split.hpp"

#include <gtest/gtest.h>

#include "dse/graph/hotspots.hpp"
#include "random_graphs.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

const char *kReluChain = R"(name: relus
inputs:
  - {name: x, shape: [1, 1, 4, 4]}
nodes:
  - {name: a, op: Relu, inputs: [x], output: y}
  - {name: b, op: Relu, inputs: [y], output: z}
outputs: [z]
)";

TEST(MemorySimulation, LiveWordsAndCompulsoryTraffic) {
  const Graph g = parse_graph_yaml(kReluChain, "r.yaml");
  const ExecPlan plan = whole_node_plan(g);
  const SimulationResult s = simulate_plan(plan, testing::tiny_hardware(1000), 1000);
  ASSERT_EQ(s.steps.size(), 2u);
  EXPECT_EQ(s.steps[0].demand_words, 32); // x and y
  EXPECT_EQ(s.steps[1].demand_words, 32); // y and z
  EXPECT_EQ(s.dram_reads, 16);            // x loaded once
  EXPECT_EQ(s.dram_writes, 16);           // z stored once
  EXPECT_EQ(s.spill_words, 0);
}

TEST(MemorySimulation, SpillsLargestUntouchedFirst) {
  const Graph g = parse_graph_yaml(kReluChain, "r.yaml");
  const SimulationResult s = simulate_plan(whole_node_plan(g), testing::tiny_hardware(1000), 20);
  // Step 0 needs 32 > 20 words: x and y are both touched; x (lower index, same size) is spilled
  // first, so x streams in from DRAM, y stays. Step 1: y + z = 32 again, y is spilled (written
  // out and read back) ... then z fits.
  EXPECT_TRUE(s.spilled[static_cast<size_t>(g.tensor_index("x"))]);
  EXPECT_TRUE(s.spilled[static_cast<size_t>(g.tensor_index("y"))]);
  EXPECT_FALSE(s.spilled[static_cast<size_t>(g.tensor_index("z"))]);
  EXPECT_EQ(s.spill_words, 16 + 16 + 16); // x read; y written out and read back
}

TEST(Hotspots, RunsAndTheTensorsSettingThePeak) {
  const Graph g = parse_graph_yaml(testing::kConvChain, "c.yaml");
  const Hardware hw = testing::tiny_hardware(3000);
  const ExecPlan plan = whole_node_plan(g);
  const MemoryReport r = memory_report(plan, simulate_plan(plan, hw, 3000), hw);
  EXPECT_EQ(r.capacity_words, 3000);
  // c1 step: x (768) + y1 (2048) + weights (8*3*9 + 8 = 224) = 3040 > 3000.
  EXPECT_EQ(r.live_words[0], 768 + 2048 + 224);
  ASSERT_FALSE(r.hotspots.empty());
  const Hotspot &h = r.hotspots[0];
  EXPECT_EQ(h.peak_step, 1); // r1: y1 and a1, 4096 words
  EXPECT_EQ(h.peak_words, 4096);
  ASSERT_EQ(h.tensors.size(), 1u); // y1 alone covers the 1096-word excess
  EXPECT_EQ(h.tensors[0].first, "y1");
}

/// Checks every accepted split against all smaller divisors of the same window.
void expect_smallest_parts(const Graph &g, const Hardware &hw, const SplitOptions &options) {
  const SplitResult result = plan_splits(g, hw, options);
  const double capacity = static_cast<double>(hw.gb_capacity_words());
  std::vector<SplitRegion> accepted;
  SimulationResult current = result.before;
  for (const SplitDecision &d : result.decisions) {
    if (!d.split)
      continue;
    const SplitRegion &r = d.region;
    for (int m = 2; m < r.parts; ++m) {
      const std::optional<SplitRegion> smaller =
          make_region(g, r.nodes.front(), r.nodes.back(), r.axis, m, r.offset);
      if (!smaller)
        continue;
      std::vector<SplitRegion> regions = accepted;
      regions.push_back(*smaller);
      const ExecPlan plan = split_plan(g, regions);
      const SimulationResult s = simulate_plan(plan, hw, capacity);
      const double now = objective_value(current, options.objective);
      const bool fits = region_fits(plan, s, static_cast<int>(regions.size()) - 1, capacity);
      EXPECT_FALSE(fits && now - objective_value(s, options.objective) > kMinRelativeBenefit * now)
          << g.name << ": " << m << " parts would do for the region chosen with " << r.parts;
    }
    accepted.push_back(r);
    current = simulate_plan(split_plan(g, accepted), hw, capacity);
  }
}

TEST(AdaptiveSplit, NeverRaisesThePeakAndPicksTheSmallestParts) {
  int splits = 0;
  for (unsigned seed = 0; seed < 16; ++seed) {
    const Graph g = testing::random_cnn(seed, 8);
    for (long capacity : {200L, 400L, 800L}) {
      const Hardware hw = testing::tiny_hardware(capacity);
      for (PlanObjective objective : {PlanObjective::Energy, PlanObjective::Latency}) {
        SplitOptions options;
        options.objective = objective;
        const SplitResult r = plan_splits(g, hw, options);
        EXPECT_LE(r.after.peak_demand(), r.before.peak_demand()) << g.name;
        EXPECT_LE(objective_value(r.after, objective), objective_value(r.before, objective));
        for (const SplitDecision &d : r.decisions)
          splits += d.split ? 1 : 0;
        expect_smallest_parts(g, hw, options);
      }
    }
  }
  EXPECT_GT(splits, 10);
}

TEST(AdaptiveSplit, RegionsBecomeSuperNodes) {
  const Graph g = parse_graph_yaml(testing::kConvChain, "c.yaml");
  const Hardware hw = testing::tiny_hardware(3000);
  const SplitResult r = plan_splits(g, hw, {});
  ASSERT_FALSE(r.regions.empty());
  const std::vector<ScheduleUnit> units = super_node_schedule(r);
  size_t nodes = 0, super = 0;
  for (const ScheduleUnit &u : units) {
    nodes += u.nodes.size();
    if (u.region < 0)
      continue;
    ++super;
    EXPECT_EQ(u.nodes, r.regions[static_cast<size_t>(u.region)].nodes);
    EXPECT_LE(u.peak_words, 3000);
  }
  EXPECT_EQ(nodes, g.nodes.size());
  EXPECT_EQ(super, r.regions.size());
}

TEST(AdaptiveSplit, LeavesAHotspotThatNoSplitFits) {
  // One huge weight-bound layer: no split of the activations helps it fit.
  const Graph g = parse_graph_yaml(R"(name: wide
inputs:
  - {name: x, shape: [1, 64]}
nodes:
  - {name: fc, op: Gemm, inputs: [x], output: y, features: 7, bias: false}
outputs: [y]
)",
                                   "wide.yaml");
  const SplitResult r = plan_splits(g, testing::tiny_hardware(100), {});
  ASSERT_EQ(r.decisions.size(), 1u);
  EXPECT_FALSE(r.decisions[0].split);
  EXPECT_NE(r.decisions[0].reason.find("splits into at most"), std::string::npos)
      << r.decisions[0].reason;
}

} // namespace
} // namespace dse
