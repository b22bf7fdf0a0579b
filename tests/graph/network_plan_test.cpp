// Every shipped network imports and plans without error on the vector DSP (8 MiB GSM) and on
// the 512 KiB academic design, with the pipeline's invariants (the report renderings are tested in
// tests/cli/network_report_test.cpp).
#include "dse/graph/network_plan.hpp"

#include <gtest/gtest.h>

#include "common/suite_scale.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

void check_plan(const Graph &g, const NetworkPlan &p) {
  EXPECT_LE(p.memory_after.peak_words, p.memory_before.peak_words) << g.name;
  EXPECT_GE(p.compression(), 0);
  EXPECT_LE(p.split.after.energy_pj, p.split.before.energy_pj * (1 + 1e-12)) << g.name;
  for (const Segment &s : p.fusion.segments)
    EXPECT_TRUE(s.feasible()) << g.name << " segment " << s.label;
  std::vector<int> covered(g.nodes.size(), 0);
  for (const Segment &s : p.fusion.segments)
    for (int v : s.nodes)
      ++covered[static_cast<size_t>(v)];
  for (size_t v = 0; v < covered.size(); ++v)
    EXPECT_EQ(covered[v], 1) << g.name << " node " << g.nodes[v].name;
  EXPECT_GT(p.fusion.total.latency_s, 0);
  // Every vector pass laid out, and no faster in the graph's own layout.
  for (size_t i = 0; i < p.schedule.segments.size(); ++i)
    EXPECT_EQ(p.schedule.layouts[i].has_value(),
              p.schedule.segments[i].kind == SegmentKind::Vector &&
                  !p.schedule.segments[i].eliminated)
        << g.name << " segment " << p.schedule.segments[i].label;
  for (const PassContribution &c : p.schedule.contributions)
    EXPECT_LE(p.schedule.total.latency_s, c.without.latency_s * (1 + 1e-12)) << c.pass;
  EXPECT_LE(p.banks.global.copies, p.banks.local.copies);
}

TEST(NetworkPlan, EveryShippedNetworkOnBothTargets) {
  // The sanitizer suite plans four of them (convolutions, depthwise convolutions, attention and a
  // YAML graph), on one target each in turn.
  const std::vector<std::string> networks = test_common::per_suite<std::vector<std::string>>(
      testing::shipped_networks(),
      {"networks/resnet18.onnx", "networks/mobilenet_v2.onnx", "networks/bert_base_layer_s512.onnx",
       "networks/tiny-cnn.yaml"});
  const std::vector<std::string> targets = {"hw_configs/vector-dsp-4core-8m.yaml",
                                            "hw_configs/academic-32x32-512k.yaml"};
  for (size_t t = 0; t < targets.size(); ++t) {
    const Hardware hw = load_hardware(testing::repo_file(targets[t]));
    for (size_t n = 0; n < networks.size(); ++n) {
      if (test_common::kSanitizedSuite && n % targets.size() != t)
        continue;
      const Graph g = load_network(testing::repo_file(networks[n]));
      check_plan(g, plan_network(g, hw, testing::cheap_network_options()));
    }
  }
}

TEST(NetworkPlan, DspSegmentsBalanceTheirDramWordsOverTheDmaUnits) {
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  ASSERT_EQ(hw.dma_units.size(), 4u);
  const Graph g = load_network(testing::repo_file("networks/resnet18.onnx"));
  const NetworkPlan p = plan_network(g, hw, testing::cheap_network_options());
  const auto words = [](const SegmentCost &c) {
    double sum = 0;
    for (const DmaUnitLoad &u : c.dma_units)
      sum += u.words();
    return sum;
  };
  for (const Segment &s : p.fusion.segments) {
    SCOPED_TRACE(s.label);
    if (s.cost.dram_words == 0)
      continue; // eliminated movement: no transfer
    ASSERT_EQ(s.cost.dma_units.size(), 4u);
    EXPECT_NEAR(words(s.cost), s.cost.dram_words, 1e-9 * s.cost.dram_words);
    // Four equal bidirectional units: equal shares, each busy for a quarter of the words.
    EXPECT_DOUBLE_EQ(s.cost.dma_units[0].words(), s.cost.dma_units[3].words());
    const double busy = s.cost.dram_words / 4 / hw.dma_words_per_cycle(hw.dma_units[0]);
    EXPECT_NEAR(s.cost.dma_units[0].cycles, busy, 1e-12 * busy);
    // The segment latency covers the balanced transfer.
    EXPECT_GE(s.cost.latency_s * hw.clock_ghz * 1e9, s.cost.dma_units[0].cycles * (1 - 1e-12));
  }
  EXPECT_NEAR(words(p.fusion.total), p.fusion.total.dram_words, 1e-9 * p.fusion.total.dram_words);
  // The units only add constraints: the plan is no faster than on the same DSP without them.
  Hardware unbalanced = hw;
  unbalanced.dma_units.clear();
  const NetworkPlan q = plan_network(g, unbalanced, testing::cheap_network_options());
  EXPECT_TRUE(q.fusion.total.dma_units.empty());
  EXPECT_GE(p.fusion.total.latency_s, q.fusion.total.latency_s);
  EXPECT_GE(p.split.before.latency_s, q.split.before.latency_s);
}

} // namespace
} // namespace dse
