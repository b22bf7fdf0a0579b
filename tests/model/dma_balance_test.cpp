// The balanced DMA latency (dram_transfer_cycles in cost.hpp) and its per-unit split
// (src/model/dma_balance.cpp) against hand-computed values. Every hardware here runs at 1 GHz with
// 2-byte words, so a unit of B GB/s moves B / 2 words per cycle.
#include "dse/model/dma_balance.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "dse/config/hardware_loader.hpp"
#include "dse/model/cost.hpp"

namespace dse {
namespace {

Hardware hardware(double dram_gbps, const std::string &dma_units) {
  return parse_hardware("name: dma-test\nclock_ghz: 1.0\nword_bytes: 2\n"
                        "pe_array: {rows: 4, cols: 4, mac_energy_pj: 1}\nlevels:\n"
                        "  - {name: DRAM, bandwidth_gbps: " +
                            std::to_string(dram_gbps) +
                            ", read_energy_pj: 100, write_energy_pj: 100}\n"
                            "  - {name: GB, capacity_words: 1024, read_energy_pj: 1, "
                            "write_energy_pj: 1}\n" +
                            dma_units,
                        "dma-test.yaml");
}

// Load-only 4 words/cycle, store-only 2, bidirectional 2; the DRAM (32 words/cycle) is never
// the limit.
const std::string kThreeUnits = "dma_units:\n"
                                "  - {name: ld, direction: load, bandwidth_gbps: 8}\n"
                                "  - {name: st, direction: store, bandwidth_gbps: 4}\n"
                                "  - {name: io, direction: both, bandwidth_gbps: 4}\n";

double cycles(const Hardware &hw, double reads, double writes) {
  return dram_transfer_cycles(reads, writes, cost_weights(hw, LatencyModel::Roofline));
}

void expect_load(const DmaUnitLoad &l, const std::string &name, double reads, double writes,
                 double busy) {
  SCOPED_TRACE(name);
  EXPECT_EQ(l.name, name);
  EXPECT_DOUBLE_EQ(l.read_words, reads);
  EXPECT_DOUBLE_EQ(l.write_words, writes);
  EXPECT_DOUBLE_EQ(l.cycles, busy);
}

TEST(DmaBalance, WithoutUnitsTheDramBandwidthAloneAsBefore) {
  const Hardware hw = hardware(64, "");
  const CostWeights w = cost_weights(hw, LatencyModel::Roofline);
  EXPECT_FALSE(w.dma_balanced);
  // Bit for bit the expression used before DMA units existed.
  EXPECT_EQ(dram_transfer_cycles(400, 100, w), (400.0 + 100.0) * w.cycles_per_dram_word);
  EXPECT_DOUBLE_EQ(dram_transfer_cycles(400, 100, w), 500.0 / 32);
  EXPECT_TRUE(dma_unit_loads(400, 100, hw).empty());
}

TEST(DmaBalance, DirectionBoundUnitsOnly) {
  // Load 4 and store 2 words/cycle: max(400 / 4, 100 / 2, 500 / 6) = 100 cycles.
  const Hardware hw = hardware(64, "dma_units:\n"
                                   "  - {name: ld, direction: load, bandwidth_gbps: 8}\n"
                                   "  - {name: st, direction: store, bandwidth_gbps: 4}\n");
  EXPECT_DOUBLE_EQ(cycles(hw, 400, 100), 100);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(400, 100, hw);
  ASSERT_EQ(loads.size(), 2u);
  expect_load(loads[0], "ld", 400, 0, 100);
  expect_load(loads[1], "st", 0, 100, 50);
}

TEST(DmaBalance, BidirectionalUnitTakesTheReadsOverflow) {
  // max(600 / (4 + 2), 100 / (2 + 2), 700 / 8) = 100: the reads bind. The load unit carries
  // 4 * 100 reads, the store unit all 100 writes, the bidirectional unit the other 200 reads.
  const Hardware hw = hardware(64, kThreeUnits);
  EXPECT_DOUBLE_EQ(cycles(hw, 600, 100), 100);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(600, 100, hw);
  ASSERT_EQ(loads.size(), 3u);
  expect_load(loads[0], "ld", 400, 0, 100);
  expect_load(loads[1], "st", 0, 100, 50);
  expect_load(loads[2], "io", 200, 0, 100);
}

TEST(DmaBalance, BidirectionalUnitTakesTheWritesOverflow) {
  // max(100 / 6, 500 / 4, 600 / 8) = 125: the writes bind.
  const Hardware hw = hardware(64, kThreeUnits);
  EXPECT_DOUBLE_EQ(cycles(hw, 100, 500), 125);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(100, 500, hw);
  expect_load(loads[0], "ld", 100, 0, 25);
  expect_load(loads[1], "st", 0, 250, 125);
  expect_load(loads[2], "io", 0, 250, 125);
}

TEST(DmaBalance, TotalBandwidthBindsAndEveryUnitIsBusy) {
  // max(300 / 6, 300 / 4, 600 / 8) = 75; every unit busy all 75 cycles.
  const Hardware hw = hardware(64, kThreeUnits);
  EXPECT_DOUBLE_EQ(cycles(hw, 300, 300), 75);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(300, 300, hw);
  expect_load(loads[0], "ld", 300, 0, 75);
  expect_load(loads[1], "st", 0, 150, 75);
  expect_load(loads[2], "io", 0, 150, 75);
}

TEST(DmaBalance, UnitsOfOneGroupShareInProportionToBandwidth) {
  // Two bidirectional units of 3 and 1 words/cycle: 400 reads take 100 cycles, split 300 / 100.
  const Hardware hw = hardware(64, "dma_units:\n"
                                   "  - {name: a, direction: both, bandwidth_gbps: 6}\n"
                                   "  - {name: b, direction: both, bandwidth_gbps: 2}\n");
  EXPECT_DOUBLE_EQ(cycles(hw, 400, 0), 100);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(400, 0, hw);
  expect_load(loads[0], "a", 300, 0, 100);
  expect_load(loads[1], "b", 100, 0, 100);
}

TEST(DmaBalance, NeverFasterThanTheDram) {
  // One 8 words/cycle unit behind a 2 words/cycle DRAM: the fluid optimum 400 / 8 = 50 cycles,
  // the DRAM 400 / 2 = 200. The unit is busy 50 of them.
  const Hardware hw =
      hardware(4, "dma_units:\n  - {name: io, direction: both, bandwidth_gbps: 16}\n");
  EXPECT_DOUBLE_EQ(cycles(hw, 300, 100), 200);
  const std::vector<DmaUnitLoad> loads = dma_unit_loads(300, 100, hw);
  ASSERT_EQ(loads.size(), 1u);
  expect_load(loads[0], "io", 300, 100, 50);
}

TEST(DmaBalance, LatencyObjectiveUsesTheBalancedTime) {
  const Hardware hw = hardware(64, kThreeUnits);
  MetricTotals m;
  m.dram_reads = 600;
  m.dram_writes = 100;
  m.cycles = 80; // compute below the 100 transfer cycles
  const CostWeights roofline = cost_weights(hw, LatencyModel::Roofline);
  EXPECT_DOUBLE_EQ(latency_parts(m, roofline).dram_cycles, 100);
  EXPECT_DOUBLE_EQ(objectives(m, roofline).latency_s, 100e-9);
  EXPECT_DOUBLE_EQ(objectives(m, cost_weights(hw, LatencyModel::Sequential)).latency_s, 180e-9);
}

TEST(DmaBalance, SharesAddUpAndNoUnitOutlastsTheBalancedTime) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> words(0, 1e6);
  const char *directions[] = {"load", "store", "both"};
  for (int trial = 0; trial < 200; ++trial) {
    std::string units = "dma_units:\n";
    const int n = 1 + trial % 4;
    for (int i = 0; i < n; ++i)
      units += "  - {name: u" + std::to_string(i) + ", direction: " + directions[(i + trial) % 3] +
               ", bandwidth_gbps: " + std::to_string(1 + i * 3) + "}\n";
    if (n < 3 && trial % 3 != 2) // a lone load or store unit needs a partner
      units += "  - {name: io, direction: both, bandwidth_gbps: 2}\n";
    const Hardware hw = hardware(1e5, units);
    const double reads = words(rng), writes = words(rng);
    const std::vector<DmaUnitLoad> loads = dma_unit_loads(reads, writes, hw);
    double r = 0, w = 0, longest = 0;
    for (const DmaUnitLoad &l : loads) {
      EXPECT_GE(l.read_words, 0);
      EXPECT_GE(l.write_words, 0);
      r += l.read_words;
      w += l.write_words;
      longest = std::max(longest, l.cycles);
    }
    EXPECT_NEAR(r, reads, 1e-9 * reads);
    EXPECT_NEAR(w, writes, 1e-9 * writes);
    const double t = cycles(hw, reads, writes);
    EXPECT_LE(longest, t * (1 + 1e-12));
    // Monotone in both counts (the symbolic pruning relies on it).
    EXPECT_GE(cycles(hw, reads + 1, writes), t);
    EXPECT_GE(cycles(hw, reads, writes + 1), t);
  }
}

} // namespace
} // namespace dse
