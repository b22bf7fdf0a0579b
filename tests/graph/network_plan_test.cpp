// Every shipped network imports and plans without error on the vector DSP (8 MiB GSM) and on
// the 512 KiB academic design, with the pipeline's invariants; and the report renderings.
#include "dse/graph/network_plan.hpp"

#include <gtest/gtest.h>

#include "dse/graph/network_report.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

NetworkOptions cheap_options() {
  NetworkOptions o;
  o.search.menu = TileMenu::PowersOfTwo;
  o.search.threads = 1;
  return o;
}

void check_plan(const Graph &g, const Hardware &hw, const NetworkPlan &p) {
  EXPECT_LE(p.memory_after.peak_words[0], p.memory_before.peak_words[0]) << g.name;
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
  EXPECT_LE(p.layout.latency_s, p.layout.baseline_s * (1 + 1e-12));
  EXPECT_LE(p.banks.global.copies, p.banks.local.copies);
  EXPECT_FALSE(network_summary(p, g, hw, cheap_options()).empty());
}

TEST(NetworkPlan, EveryShippedNetworkOnBothTargets) {
  for (const char *hw_file :
       {"hw_configs/vector-dsp-4core-8m.yaml", "hw_configs/academic-32x32-512k.yaml"}) {
    const Hardware hw = load_hardware(testing::repo_file(hw_file));
    for (const std::string &name : testing::shipped_networks()) {
      const Graph g = load_network(testing::repo_file(name));
      check_plan(g, hw, plan_network(g, hw, cheap_options()));
    }
  }
}

TEST(NetworkPlan, ReportsOfTheTinyNetwork) {
  const Graph g = load_network(testing::repo_file("networks/tiny-cnn.yaml"));
  const Hardware hw = testing::tiny_hardware(20000);
  const NetworkPlan p = plan_network(g, hw, cheap_options());
  const std::string summary = network_summary(p, g, hw, cheap_options());
  EXPECT_NE(summary.find("network tiny-cnn"), std::string::npos) << summary;
  EXPECT_NE(summary.find("memory compression (GB)"), std::string::npos) << summary;
  const std::string hotspots = hotspot_report(p, g);
  EXPECT_EQ(hotspots.rfind("hotspots before splitting:\n  GB: steps", 0), 0u) << hotspots;
  const std::string segments = segments_csv(p, g, hw);
  EXPECT_EQ(segments.rfind("segment,kind,nodes,first_node,fused,", 0), 0u);
  EXPECT_NE(segments.find("\ntotal,"), std::string::npos);
  // One line per segment plus the header and the total.
  EXPECT_EQ(std::count(segments.begin(), segments.end(), '\n'),
            static_cast<long>(p.fusion.segments.size()) + 2);
  const std::string layout = layout_csv(p, g);
  EXPECT_EQ(std::count(layout.begin(), layout.end(), '\n'), static_cast<long>(g.nodes.size()) + 1);
  const std::string memory = memory_csv(p, g);
  EXPECT_EQ(memory.rfind("plan,step,node,part,region,GB_live_words,resident_words,", 0), 0u);
}

TEST(NetworkPlan, DspSegmentsBalanceTheirDramWordsOverTheDmaUnits) {
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  ASSERT_EQ(hw.dma_units.size(), 4u);
  const Graph g = load_network(testing::repo_file("networks/resnet18.onnx"));
  const NetworkPlan p = plan_network(g, hw, cheap_options());
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
  const NetworkPlan q = plan_network(g, unbalanced, cheap_options());
  EXPECT_TRUE(q.fusion.total.dma_units.empty());
  EXPECT_GE(p.fusion.total.latency_s, q.fusion.total.latency_s);
  EXPECT_GE(p.split.before.latency_s, q.split.before.latency_s);
  const std::string csv = segments_csv(p, g, hw);
  EXPECT_NE(csv.find(",restreamed,dma0_words,dma0_cycles,dma1_words,"), std::string::npos);
  EXPECT_NE(network_summary(p, g, hw, cheap_options())
                .find("DMA units (balanced load, summed over segments):\n    dma0: "),
            std::string::npos);
}

} // namespace
} // namespace dse
