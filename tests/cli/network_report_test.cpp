// The renderings of a network plan: the text summary, the hotspot report and the CSV tables, with
// quantities printed exactly, so that the summary agrees digit for digit with the CSVs.
#include "dse/cli/network_report.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"
#include "graph/test_graphs.hpp"

namespace dse::testing {
namespace {

/// How `v` printed before quantities were exact: 6 significant digits.
std::string six_digits(double v) {
  std::ostringstream out;
  out << std::setprecision(6) << v;
  return out.str();
}

TEST(NetworkReport, ReportsOfTheTinyNetwork) {
  const Graph g = load_network(repo_file("networks/tiny-cnn.yaml"));
  const Hardware hw = tiny_hardware(20000);
  const NetworkPlan p = plan_network(g, hw, cheap_network_options());
  const std::string summary = network_summary(p, g, hw, cheap_network_options());
  EXPECT_NE(summary.find("network tiny-cnn"), std::string::npos) << summary;
  EXPECT_NE(summary.find("GB peak (capacity 20000): "), std::string::npos) << summary;
  EXPECT_NE(summary.find("; memory compression "), std::string::npos) << summary;
  for (const char *pass :
       {"fusion", "on-chip residency", "movement elimination", "layout planning"})
    EXPECT_NE(summary.find("\n  without " + std::string(pass) + ": latency "), std::string::npos)
        << summary;
  const std::string hotspots = hotspot_report(p, g);
  EXPECT_EQ(hotspots.rfind("hotspots before splitting:\n  GB: steps", 0), 0u) << hotspots;
  const std::string segments = segments_csv(p, g, hw);
  EXPECT_EQ(segments.rfind("segment,step,kind,nodes,first_node,fused,", 0), 0u);
  EXPECT_NE(segments.find("\ntotal,"), std::string::npos);
  // One line per segment plus the header and the total.
  EXPECT_EQ(std::count(segments.begin(), segments.end(), '\n'),
            static_cast<long>(p.schedule.segments.size()) + 2);
  const std::string layout = layout_csv(p, g);
  const auto passes = std::count_if(p.schedule.layouts.begin(), p.schedule.layouts.end(),
                                    [](const auto &o) { return o.has_value(); });
  EXPECT_GT(passes, 0);
  EXPECT_EQ(std::count(layout.begin(), layout.end(), '\n'), passes + 1);
  const std::string memory = memory_csv(p, g);
  EXPECT_EQ(memory.rfind("plan,step,node,part,region,GB_live_words,resident_words,", 0), 0u);
}

TEST(NetworkReport, DspReportsNameEachDmaUnit) {
  const Hardware hw = load_hardware(repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  ASSERT_EQ(hw.dma_units.size(), 4u);
  const Graph g = load_network(repo_file("networks/tiny-cnn.yaml"));
  const NetworkPlan p = plan_network(g, hw, cheap_network_options());
  const std::string csv = segments_csv(p, g, hw);
  EXPECT_NE(csv.find(",kept_on_chip,dma0_words,dma0_cycles,dma1_words,"), std::string::npos);
  EXPECT_NE(network_summary(p, g, hw, cheap_network_options())
                .find("DMA units (balanced load, summed over segments):\n    dma0: "),
            std::string::npos);
}

// The summary's totals are the schedule's, the segments.csv total row, all digits, where 6
// significant digits would have rounded them.
TEST(NetworkReport, SummaryPrintsExactTotals) {
  const Graph g = load_network(repo_file("networks/tiny-cnn.yaml"));
  const Hardware hw = tiny_hardware(20000);
  const NetworkPlan p = plan_network(g, hw, cheap_network_options());
  const std::string summary = network_summary(p, g, hw, cheap_network_options());
  const Csv segments = parse_csv(segments_csv(p, g, hw));
  ASSERT_FALSE(segments.rows.empty());
  const size_t total = segments.rows.size() - 1;
  ASSERT_EQ(segments.text(total, "segment"), "total");
  const std::string macs = segments.text(total, "macs");
  const std::string energy = segments.text(total, "energy_pj");
  const std::string dram = segments.text(total, "dram_words");
  const ScheduleTotals &t = p.schedule.total;
  EXPECT_EQ(macs, std::to_string(static_cast<long long>(t.macs)));
  EXPECT_EQ(std::stod(energy), t.energy_pj);
  EXPECT_EQ(std::stod(dram), t.dram_words);
  double through = 0;
  for (const Segment &s : p.schedule.segments)
    through += s.cost.dram_words;
  EXPECT_EQ(std::stod(segments.text(total, "dram_words_through")), through);
  // Above 999999 MACs and pJ: 6 significant digits lose the last ones.
  EXPECT_NE(six_digits(t.macs), macs);
  EXPECT_NE(six_digits(t.energy_pj), energy);
  EXPECT_NE(summary.find(" pJ, DRAM " + dram + " words, MACs " + macs + "\n"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("energy " + energy + " pJ, DRAM "), std::string::npos) << summary;
}

} // namespace
} // namespace dse::testing
