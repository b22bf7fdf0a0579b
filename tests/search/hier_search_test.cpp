// The hierarchical search's rungs: the pruned search (order dominance, maximal tilings) finds
// the same front as the brute force over every mapping, on small problems over hierarchies of two
// to four levels with fan-outs, bypass, double buffering, `holds`, and fan-outs without multicast
// or reduction; every front point is a legal mapping whose re-evaluation gives its objectives.
#include <gtest/gtest.h>
#include <tuple>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_search.hpp"
#include "dse/search/hier_space.hpp"

namespace dse {
namespace {

StorageLevel level(const char *name, std::optional<std::int64_t> capacity,
                   std::optional<double> words_per_cycle, double pj) {
  StorageLevel s;
  s.name = name;
  s.capacity_words = capacity;
  s.shared_words_per_cycle = words_per_cycle;
  s.read_pj = pj;
  s.fill_pj = pj * 1.25;
  s.update_pj = pj * 1.5;
  return s;
}

/// DRAM -> GB -> mesh -> RF.
Hardware two_on_chip_levels(std::int64_t gb_words, std::int64_t mesh_x, std::int64_t mesh_y,
                            std::int64_t rf_words) {
  Hardware hw;
  hw.name = "two-levels";
  hw.hierarchy.levels = {level("DRAM", std::nullopt, 2.0, 100), level("GB", gb_words, 8.0, 6),
                         level("RF", rf_words, std::nullopt, 0.5)};
  hw.hierarchy.fanouts = {{}, {Fanout{"mesh", mesh_x, mesh_y, true, true}}, {}};
  hw.hierarchy.mac_pj = 1;
  return hw;
}

/// DRAM -> L2 -> 2 cores -> L1 (double-buffered) -> 2x1 lanes -> RF.
Hardware three_on_chip_levels() {
  Hardware hw;
  hw.name = "three-levels";
  hw.hierarchy.levels = {level("DRAM", std::nullopt, 1.0, 200), level("L2", 48, 4.0, 20),
                         level("L1", 12, 2.0, 4), level("RF", 3, std::nullopt, 0.25)};
  hw.hierarchy.levels[2].double_buffering = true;
  hw.hierarchy.fanouts = {
      {}, {Fanout{"cores", 2, 1, true, true}}, {Fanout{"lanes", 2, 1, true, true}}, {}};
  hw.hierarchy.mac_pj = 1;
  return hw;
}

std::vector<std::pair<double, double>> front_values(const HierSearchResult &r) {
  std::vector<std::pair<double, double>> values;
  for (const HierFrontPoint &p : r.front)
    values.emplace_back(p.objectives.latency_s, p.objectives.energy_pj);
  return values;
}

/// Pruned == brute force, and every pruned front point is legal and re-evaluates to itself.
void expect_exact_pruned_front(const Hardware &hw, const Workload &w, HierSearchOptions options) {
  const Operator &op = w.ops[0];
  options.prune = false;
  const HierSearchResult brute = search_hier_front(hw, w, op, options);
  options.prune = true;
  const HierSearchResult pruned = search_hier_front(hw, w, op, options);
  ASSERT_FALSE(brute.front.empty());
  EXPECT_EQ(front_values(pruned), front_values(brute));
  EXPECT_LT(pruned.statistics.mappings, brute.statistics.mappings);
  for (const HierFrontPoint &p : pruned.front) {
    EXPECT_EQ(hier_mapping_violation(hw, w, op, p.mapping), std::nullopt);
    const HierCost again = evaluate_hier_mapping(hw, w, op, p.mapping, options.first_read_elision,
                                                 options.latency_model);
    EXPECT_EQ(again.energy_pj, p.objectives.energy_pj);
    EXPECT_EQ(again.latency_cycles, p.cost.latency_cycles);
  }
}

Workload gemm(std::int64_t m, std::int64_t k, std::int64_t n) {
  return parse_workload(test_common::gemm_workload("gemm", m, k, n), "gemm.yaml");
}

Workload conv1d() {
  return parse_workload(test_common::workload_header("conv", "p: 8, r: 2") +
                            "  - {name: conv, einsum: \"O[p] += I[p+r] * W[r]\"}\n",
                        "conv.yaml");
}

TEST(HierSearch, PrunedEqualsBruteForceOnAGemmWithTwoOnChipLevels) {
  expect_exact_pruned_front(two_on_chip_levels(40, 2, 2, 4), gemm(8, 4, 8), {});
}

TEST(HierSearch, PrunedEqualsBruteForceWithoutElisionAndSequentialLatency) {
  HierSearchOptions options;
  options.first_read_elision = false;
  options.latency_model = LatencyModel::Sequential;
  expect_exact_pruned_front(two_on_chip_levels(24, 2, 2, 3), gemm(4, 8, 4), options);
}

TEST(HierSearch, PrunedEqualsBruteForceOnThreeOnChipLevels) {
  expect_exact_pruned_front(three_on_chip_levels(), gemm(4, 2, 4), {});
}

TEST(HierSearch, PrunedEqualsBruteForceWithHoldsAndNoMulticastOrReduction) {
  Hardware hw = two_on_chip_levels(32, 2, 2, 4);
  hw.hierarchy.levels[2].holds = role::kOutput | role::kOperand1;
  hw.hierarchy.fanouts[1][0].multicast = false;
  hw.hierarchy.fanouts[1][0].reduction = false;
  expect_exact_pruned_front(hw, gemm(4, 4, 8), {});
}

TEST(HierSearch, PrunedEqualsBruteForceOnAConvolutionWindow) {
  expect_exact_pruned_front(two_on_chip_levels(12, 2, 1, 4), conv1d(), {});
}

TEST(HierSearch, PrunedEqualsBruteForceOverEnergyAndDramWords) {
  HierSearchOptions options;
  options.objectives = {Objective::Energy, Objective::Dram, Objective::Buffer};
  expect_exact_pruned_front(two_on_chip_levels(24, 2, 2, 4), gemm(4, 4, 8), options);
}

/// Every objective of every front point, as the search found it, and its mapping's orders, factors
/// and keep sets.
std::vector<std::tuple<double, double, double, double, double>>
front_objectives(const HierSearchResult &r) {
  std::vector<std::tuple<double, double, double, double, double>> values;
  for (const HierFrontPoint &p : r.front)
    values.emplace_back(p.objectives.latency_s, p.objectives.energy_pj, p.objectives.edp,
                        p.objectives.dram_words, p.objectives.buffer_words);
  return values;
}

std::vector<std::tuple<std::vector<int>, std::vector<std::int64_t>, std::uint32_t>>
front_mappings(const HierSearchResult &r) {
  std::vector<std::tuple<std::vector<int>, std::vector<std::int64_t>, std::uint32_t>> levels;
  for (const HierFrontPoint &p : r.front)
    for (const LevelMapping &l : p.mapping.levels)
      levels.emplace_back(l.order, l.factor, l.keep);
  return levels;
}

/// The objectives the search computes from deliveries equal, bit for bit, those of the model's
/// evaluation of the same mapping.
void expect_model_objectives(const Hardware &hw, const HierSearchResult &r) {
  ASSERT_FALSE(r.front.empty());
  for (const HierFrontPoint &p : r.front) {
    const Objectives model = hier_objectives(hw, p.cost);
    EXPECT_EQ(model.latency_s, p.objectives.latency_s);
    EXPECT_EQ(model.energy_pj, p.objectives.energy_pj);
    EXPECT_EQ(model.edp, p.objectives.edp);
    EXPECT_EQ(model.dram_words, p.objectives.dram_words);
    EXPECT_EQ(model.buffer_words, p.objectives.buffer_words);
  }
}

TEST(HierSearch, FrontObjectivesAreTheModelsBitForBit) {
  HierSearchOptions options;
  options.objectives = {Objective::Latency, Objective::Energy, Objective::Dram, Objective::Buffer};
  const Workload w = gemm(8, 4, 8);
  const Hardware two = two_on_chip_levels(40, 2, 2, 4);
  expect_model_objectives(two, search_hier_front(two, w, w.ops[0], options));
  options.first_read_elision = false;
  options.latency_model = LatencyModel::Sequential;
  const Hardware three = three_on_chip_levels();
  const Workload small = gemm(4, 2, 4);
  expect_model_objectives(three, search_hier_front(three, small, small.ops[0], options));
  const Workload c = conv1d();
  expect_model_objectives(two, search_hier_front(two, c, c.ops[0], options));
}

TEST(HierSearch, FrontAndStatisticsAreTheSameWithOneAndTwoThreads) {
  const Hardware hw = two_on_chip_levels(40, 2, 2, 4);
  const Workload w = gemm(8, 4, 8);
  HierSearchOptions options;
  options.objectives = {Objective::Energy, Objective::Dram, Objective::Buffer};
  options.threads = 1;
  const HierSearchResult one = search_hier_front(hw, w, w.ops[0], options);
  options.threads = 2;
  const HierSearchResult two = search_hier_front(hw, w, w.ops[0], options);
  ASSERT_FALSE(one.front.empty());
  EXPECT_EQ(front_objectives(one), front_objectives(two));
  EXPECT_EQ(front_mappings(one), front_mappings(two));
  EXPECT_EQ(one.statistics.tilings, two.statistics.tilings);
  EXPECT_EQ(one.statistics.tilings_kept, two.statistics.tilings_kept);
  EXPECT_EQ(one.statistics.mappings, two.statistics.mappings);
}

TEST(HierSpace, SpatialRowsCountOneRowPerFactorAssignment) {
  // A 16x16 mesh over a 1024^3 GEMM: 165 assignments of power-of-two factors per dimension
  // whose product packs onto the axes.
  Hardware hw = two_on_chip_levels(65536, 16, 16, 16);
  const Workload w = gemm(1024, 1024, 1024);
  EXPECT_EQ(spatial_rows(hw.hierarchy, w, w.ops[0]).size(), 165u);
}

TEST(HierSpace, OrderDominanceKeepsOnlyTheInnermostLoopsChoice) {
  const Workload w = gemm(8, 8, 8);
  EXPECT_EQ(level_orders(w.ops[0], {0, 1, 2}, false).size(), 6u);
  EXPECT_EQ(level_orders(w.ops[0], {0, 1, 2}, true).size(), 3u);
}

} // namespace
} // namespace dse
