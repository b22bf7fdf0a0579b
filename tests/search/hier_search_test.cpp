// The hierarchical search's rungs: the pruned search (order dominance, maximal tilings) finds
// the same front as the brute force over every mapping, on small problems over hierarchies of two
// to four levels with fan-outs, bypass, double buffering, `holds`, and fan-outs without multicast
// or reduction; every front point is a legal mapping whose re-evaluation gives its objectives.
#include <algorithm>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <tuple>

#include "common/suite_scale.hpp"
#include "common/workloads.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_search.hpp"
#include "dse/search/hier_space.hpp"
#include "model/hier_random.hpp"

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

/// Pruned == brute force, and every pruned front point is legal and re-evaluates to itself; the
/// pruned search evaluates fewer mappings unless `space_may_be_tiny`.
void expect_exact_pruned_front(const Hardware &hw, const Workload &w, HierSearchOptions options,
                               bool space_may_be_tiny = false) {
  const Operator &op = w.ops[0];
  options.prune = false;
  const HierSearchResult brute = search_hier_front(hw, w, op, options);
  options.prune = true;
  const HierSearchResult pruned = search_hier_front(hw, w, op, options);
  ASSERT_FALSE(brute.front.empty());
  EXPECT_EQ(front_values(pruned), front_values(brute));
  if (space_may_be_tiny)
    EXPECT_LE(pruned.statistics.mappings, brute.statistics.mappings);
  else
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

// The output starts from R: its first arrivals are R's reads, which the bounds must count too.
TEST(HierSearch, PrunedEqualsBruteForceOnAGemmWithAResidual) {
  const Workload w = parse_workload(test_common::workload_header("residual", "m: 8, k: 4, n: 8") +
                                        "  - {name: mm, einsum: \"C[m,n] += A[m,k] * B[k,n]\", "
                                        "residual: R}\n",
                                    "residual.yaml");
  expect_exact_pruned_front(two_on_chip_levels(40, 2, 2, 4), w, {});
  // Its front is the front of the same GEMM without the residual, counted without elision.
  HierSearchOptions without_elision;
  without_elision.first_read_elision = false;
  const Hardware hw = two_on_chip_levels(40, 2, 2, 4);
  const Workload plain = gemm(8, 4, 8);
  EXPECT_EQ(front_values(search_hier_front(hw, w, w.ops[0], {})),
            front_values(search_hier_front(hw, plain, plain.ops[0], without_elision)));
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

/// Keeping every tensor in level 1 searches exactly the keep vectors that do: the brute force
/// over them agrees, every point keeps them all there, and the front is that of the same
/// restriction written as a mapspace rule (the same space).
TEST(HierSearch, Level1KeepingEveryTensorSearchesTheKeepVectorsThatDo) {
  const Hardware hw = two_on_chip_levels(40, 2, 2, 4);
  const Workload w = gemm(8, 4, 8);
  HierSearchOptions options;
  options.level1_keeps_all = true;
  expect_exact_pruned_front(hw, w, options);
  const HierSearchResult kept = search_hier_front(hw, w, w.ops[0], options);
  for (const HierFrontPoint &p : kept.front)
    EXPECT_EQ(p.mapping.levels[1].keep, 7u);
  Hardware ruled = hw;
  MapspaceRule keep_all;
  keep_all.level = 1;
  keep_all.keep_roles = role::kOutput | role::kOperand0 | role::kOperand1;
  ruled.hierarchy.mapspace.push_back(keep_all);
  EXPECT_EQ(front_values(kept), front_values(search_hier_front(ruled, w, w.ops[0], {})));
  EXPECT_NE(front_values(kept), front_values(search_hier_front(hw, w, w.ops[0], {})));
}

/// Random hierarchies of one to three on-chip levels with small capacities (double-buffered or
/// not) and finite bandwidths, and random GEMMs, convolutions and batched matmuls (four
/// dimensions): the bounds on partly chosen tilings, the inward moves decided dimension by
/// dimension and the exact double-buffering checks keep the brute force's front.
TEST(HierSearch, PrunedEqualsBruteForceOnRandomHierarchies) {
  hier_random::HierarchyLimits limits;
  limits.max_fanouts_per_gap = 1;
  limits.max_side = 2;
  const auto uniform = [](std::mt19937_64 &rng, std::int64_t lo, std::int64_t hi) {
    return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
  };
  for (std::uint64_t seed = 0; seed < test_common::per_suite<std::uint64_t>(240, 80); ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937_64 rng(seed);
    Hardware hw = hier_random::random_hardware(rng, limits);
    for (size_t l = 0; l < hw.hierarchy.levels.size(); ++l) {
      StorageLevel &level = hw.hierarchy.levels[l];
      level.shared_words_per_cycle = static_cast<double>(uniform(rng, 1, 8));
      if (l > 0) {
        level.capacity_words = uniform(rng, 2, 48);
        level.double_buffering = uniform(rng, 0, 1) == 1;
      }
    }
    // One case in three a GEMM of up to 16 per dimension, so that levels take several factors.
    const Workload w =
        seed % 3 == 0
            ? gemm(uniform(rng, 4, 16), uniform(rng, 4, 16), uniform(rng, 4, 16))
            : hier_random::random_workload(rng, static_cast<hier_random::EinsumKind>(seed % 3));
    HierSearchOptions options;
    // One case in four over DRAM words: with level-1 words, alone, and with energy or latency
    // (the bounds then take the floor of the words level 1 keeps, hier_dram_floor.hpp).
    const std::vector<std::vector<Objective>> over_dram = {
        {Objective::Energy, Objective::Dram, Objective::Buffer},
        {Objective::Dram},
        {Objective::Energy, Objective::Dram},
        {Objective::Latency, Objective::Dram}};
    if (seed % 4 == 3)
      options.objectives = over_dram[seed / 4 % over_dram.size()];
    options.first_read_elision = seed % 5 != 0;
    expect_exact_pruned_front(hw, w, options, true);
  }
}

/// A 1x1 convolution (four dimensions) on DRAM -> 128-word GB -> 2x2 mesh -> 4-word RF: its
/// front needs a level's trips of a dimension the partly chosen level has not chosen yet and a
/// tensor does not use moved into that level, under the tensor's loop; a bound on the partly
/// chosen level that charged those trips to the tensor's deliveries would cut the best mapping.
TEST(HierSearch, PrunedEqualsBruteForceWhenTripsMoveIntoAPartlyChosenLevel) {
  const Hardware hw = parse_hardware(R"(name: small
clock_ghz: 1.0
word_bytes: 2
hierarchy:
  - {level: DRAM, bandwidth_gbps: 8, read_energy_pj: 200.0, write_energy_pj: 200.0}
  - {level: GB, capacity_words: 128, bandwidth_words_per_cycle: 16, read_energy_pj: 6.0,
     write_energy_pj: 7.0}
  - {fanout: mesh, x: 2, y: 2}
  - {level: RF, capacity_words: 4, read_energy_pj: 0.3, write_energy_pj: 0.35}
compute: {mac_energy_pj: 0.8}
)",
                                     "small.yaml");
  const Workload w =
      parse_workload(test_common::workload_header("conv1x1", "p: 4, q: 4, k: 8, j: 8") +
                         "  - {name: conv, einsum: \"Z[j,p,q] += W[j,k] * Y[k,p,q]\"}\n",
                     "conv1x1.yaml");
  expect_exact_pruned_front(hw, w, {});
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

// Mapspace constraints (docs/HIERARCHY.md §2.2): the pruned search over the constrained space
// equals the brute force over the same space, and every front point keeps every rule.

MapspaceName named(const char *name) { return {name, SourceLocation{"hw.yaml", 30, 10}}; }

std::vector<MapspaceName> names(std::initializer_list<const char *> list) {
  std::vector<MapspaceName> out;
  for (const char *n : list)
    out.push_back(named(n));
  return out;
}

MapspaceRule level_rule(int level) {
  MapspaceRule r;
  r.level = level;
  r.where = SourceLocation{"hw.yaml", 20 + level, 5};
  return r;
}

MapspaceRule fanout_rule(int gap, int fanout) {
  MapspaceRule r;
  r.on_level = false;
  r.level = gap;
  r.fanout = fanout;
  r.where = SourceLocation{"hw.yaml", 28, 5};
  return r;
}

/// DRAM -> GB -> mesh 4x2 -> RF with a rule on every target: RF keeps only C, GB never loops over
/// k and runs n outside m, DRAM takes m 2, the mesh puts n on x and m on y only, each on one axis,
/// and uses at least half its units.
Hardware constrained_two_levels() {
  Hardware hw = two_on_chip_levels(40, 4, 2, 4);
  MapspaceRule rf = level_rule(2);
  rf.keep_roles = role::kOutput;
  rf.bypass_tensors = names({"A", "B"});
  MapspaceRule gb = level_rule(1);
  gb.factors = {{named("k"), 1}};
  gb.order = names({"n", "m"});
  MapspaceRule dram = level_rule(0);
  dram.factors = {{named("m"), 2}};
  MapspaceRule mesh = fanout_rule(1, 0);
  mesh.x = names({"n"});
  mesh.y = names({"m"});
  mesh.one_axis_per_dim = true;
  mesh.min_utilisation = 0.5;
  hw.hierarchy.mapspace = {rf, gb, dram, mesh};
  return hw;
}

/// Checks the rules of constrained_two_levels on a mapping, independently of the model's check.
void expect_within_constrained_two_levels(const Workload &w, const OpMapping &m) {
  const auto dim = [&w](const char *name) { return static_cast<size_t>(w.dim_index(name)); };
  EXPECT_EQ(m.levels[2].keep, 1U << 2); // C, after the inputs A and B
  EXPECT_EQ(m.levels[1].factor[dim("k")], 1);
  const std::vector<int> &gb = m.levels[1].order;
  const auto at = [&gb](size_t d) { return std::find(gb.begin(), gb.end(), d) - gb.begin(); };
  if (m.levels[1].factor[dim("n")] > 1 && m.levels[1].factor[dim("m")] > 1) {
    EXPECT_LT(at(dim("n")), at(dim("m")));
  }
  EXPECT_EQ(m.levels[0].factor[dim("m")], 2);
  const FanoutMapping &mesh = m.fanouts[1][0];
  std::int64_t used = 1;
  for (size_t d = 0; d < w.dims.size(); ++d) {
    EXPECT_TRUE(mesh.x[d] == 1 || d == dim("n"));
    EXPECT_TRUE(mesh.y[d] == 1 || d == dim("m"));
    used *= mesh.x[d] * mesh.y[d];
  }
  EXPECT_GE(used, 4);
}

TEST(HierSearchMapspace, PrunedEqualsBruteForceWithARuleOnEveryTarget) {
  const Hardware hw = constrained_two_levels();
  const Workload w = gemm(8, 4, 8);
  expect_exact_pruned_front(hw, w, {});
  const HierSearchResult r = search_hier_front(hw, w, w.ops[0], {});
  ASSERT_FALSE(r.front.empty());
  for (const HierFrontPoint &p : r.front)
    expect_within_constrained_two_levels(w, p.mapping);
}

TEST(HierSearchMapspace, RulesNarrowTheSpace) {
  const Hardware hw = constrained_two_levels();
  const Hardware free = two_on_chip_levels(40, 4, 2, 4);
  const Workload w = gemm(8, 4, 8);
  HierSearchOptions options;
  options.prune = false;
  const HierSearchResult constrained = search_hier_front(hw, w, w.ops[0], options);
  const HierSearchResult unconstrained = search_hier_front(free, w, w.ops[0], options);
  EXPECT_LT(constrained.statistics.spatial_rows, unconstrained.statistics.spatial_rows);
  EXPECT_LT(constrained.statistics.keep_vectors, unconstrained.statistics.keep_vectors);
  EXPECT_LT(constrained.statistics.mappings, unconstrained.statistics.mappings);
}

TEST(HierSearchMapspace, PrunedEqualsBruteForceWithOrdersAndFactorsOnThreeLevels) {
  Hardware hw = three_on_chip_levels();
  MapspaceRule l2 = level_rule(1);
  l2.order = names({"k", "m", "n"});
  l2.keep_roles = role::kOperand0;
  MapspaceRule l1 = level_rule(2);
  l1.factors = {{named("n"), 2}};
  l1.order = names({"m", "n"});
  MapspaceRule dram = level_rule(0);
  dram.order = names({"n", "k"});
  hw.hierarchy.mapspace = {l2, l1, dram};
  HierSearchOptions options;
  options.objectives = {Objective::Energy, Objective::Dram, Objective::Buffer};
  expect_exact_pruned_front(hw, gemm(4, 2, 4), options);
  expect_exact_pruned_front(hw, gemm(4, 2, 4), {});
}

TEST(HierSearchMapspace, PrunedEqualsBruteForceWithTwoAxesOnOneDimension) {
  Hardware hw = two_on_chip_levels(32, 2, 2, 4);
  MapspaceRule mesh = fanout_rule(1, 0);
  mesh.x = names({"m", "k"});
  mesh.y = names({"m"});
  mesh.min_utilisation = 1;
  hw.hierarchy.mapspace = {mesh};
  const Workload w = gemm(4, 4, 8);
  expect_exact_pruned_front(hw, w, {});
  const HierSearchResult r = search_hier_front(hw, w, w.ops[0], {});
  ASSERT_FALSE(r.front.empty());
  const FanoutMapping &f = r.front[0].mapping.fanouts[1][0];
  EXPECT_EQ(f.factor(w.dim_index("m")) * f.factor(w.dim_index("k")), 4);
}

TEST(HierSpace, OrderDominanceKeepsAnAllowedOrderWhenTheDominatingOneIsForbidden) {
  const Workload w = gemm(8, 8, 8);
  const int m = w.dim_index("m"), k = w.dim_index("k"), n = w.dim_index("n");
  // Innermost k: [m, n, k] stands for [n, m, k] without a rule; with n before m it is forbidden,
  // so [n, m, k] must stay. Innermost m: one of [k, n, m] and [n, k, m]; innermost n: none.
  LevelConstraint rule;
  rule.order = {n, m};
  const std::vector<std::vector<int>> pruned = level_orders(w.ops[0], {0, 1, 2}, true, rule);
  EXPECT_EQ(pruned.size(), 2u);
  EXPECT_NE(std::find(pruned.begin(), pruned.end(), std::vector<int>{n, m, k}), pruned.end());
  EXPECT_EQ(level_orders(w.ops[0], {0, 1, 2}, false, rule).size(), 3u);
  for (const std::vector<int> &order : pruned)
    EXPECT_TRUE(order_allowed(rule, order));
}

TEST(HierSpace, OneAxisPerDimensionAndAxisListsCutTheSpatialRows) {
  Hardware hw = two_on_chip_levels(65536, 16, 16, 16);
  MapspaceRule mesh = fanout_rule(1, 0);
  mesh.one_axis_per_dim = true;
  hw.hierarchy.mapspace = {mesh};
  const Workload w = gemm(1024, 1024, 1024);
  EXPECT_EQ(spatial_rows(hw.hierarchy, w, w.ops[0]).size(), 102u); // docs/HIERARCHY.md §5.3
  hw.hierarchy.mapspace[0].x = names({"n"});
  hw.hierarchy.mapspace[0].y = names({"m"});
  EXPECT_EQ(spatial_rows(hw.hierarchy, w, w.ops[0]).size(), 25u); // 1..16 on each axis
  hw.hierarchy.mapspace[0].min_utilisation = 1;
  EXPECT_EQ(spatial_rows(hw.hierarchy, w, w.ops[0]).size(), 1u);
}

TEST(HierSearchMapspace, AnUnknownDimensionIsAnErrorAtTheRule) {
  Hardware hw = two_on_chip_levels(40, 2, 2, 4);
  MapspaceRule gb = level_rule(1);
  gb.order = {MapspaceName{"q", SourceLocation{"hw.yaml", 21, 24}}};
  hw.hierarchy.mapspace = {gb};
  const Workload w = gemm(8, 4, 8);
  try {
    search_hier_front(hw, w, w.ops[0], {});
    ADD_FAILURE() << "no error";
  } catch (const UserError &e) {
    EXPECT_STREQ(e.what(), "hw.yaml:21:24: error: mapspace constraint names dimension 'q', which "
                           "workload 'gemm' does not have");
  }
}

} // namespace
} // namespace dse
