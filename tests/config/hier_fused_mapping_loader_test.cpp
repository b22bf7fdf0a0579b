// Tests of the fused-pair form of src/config/hier_mapping_loader.cpp (docs/HIERARCHY.md §8):
// what it reads, and one test per error message with its exact file:line:col.
#include <gtest/gtest.h>

#include "common/fused_hier_example.hpp"
#include "config/expect_error.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {
namespace {

using testing::throws_at;
using testing::with;

using fused_example::kHardware;
using fused_example::kMapping;
using fused_example::kWorkload;

constexpr int kM = 0, kK = 1, kN = 2, kL = 3;

std::vector<HierSegmentMapping> load(const std::string &mapping) {
  return parse_hier_mapping(mapping, "map.yaml", parse_hardware(kHardware, "hw.yaml"),
                            parse_workload(kWorkload, "w.yaml"));
}

::testing::AssertionResult fails(const std::string &mapping, const std::string &line_col,
                                 const std::string &message) {
  return throws_at([&] { load(mapping); }, "map.yaml:" + line_col, message);
}

TEST(HierFusedMappingLoader, ReadsThePairAndItsSharedLoops) {
  const std::vector<HierSegmentMapping> segments = load(kMapping);
  ASSERT_EQ(segments.size(), 1u);
  const HierSegmentMapping &s = segments[0];
  EXPECT_EQ(s.op, 0);
  ASSERT_TRUE(s.fused.has_value());
  EXPECT_EQ(s.fused->consumer, 1);
  EXPECT_EQ(s.fused->prefix, (std::vector<int>{kM}));
  ASSERT_EQ(s.fused->retention.size(), 5u);
  EXPECT_EQ(s.fused->retention[2].tensor, "H");
  EXPECT_EQ(s.fused->retention[2].depth, 1);
  EXPECT_EQ(s.fused->retention[2].where.line, 4);
  // Level 0: the sub-nest as written (k has factor 1 there and stays), trips from the factors
  // below (m: 64 / 4 = 16 in the prefix; n: 64 / 16 = 4; l: 32 / 8 = 4).
  EXPECT_EQ(s.mapping.levels[0].order, (std::vector<int>{kN, kK}));
  EXPECT_EQ(s.mapping.levels[0].factor, (std::vector<std::int64_t>{16, 1, 4, 1}));
  EXPECT_EQ(s.fused->consumer_mapping.levels[0].order, (std::vector<int>{kN, kL}));
  EXPECT_EQ(s.fused->consumer_mapping.levels[0].factor, (std::vector<std::int64_t>{16, 1, 4, 4}));
  EXPECT_EQ(s.fused->consumer_mapping.levels[2].order, (std::vector<int>{kL, kN}));
}

TEST(HierFusedMappingLoader, SubnestMustListItsLoops) {
  EXPECT_TRUE(fails(with(kMapping, "{level: DRAM, order: [n, l]}", "{level: DRAM, order: [n]}"),
                    "12:32", "it leaves out 'l'"));
}

TEST(HierFusedMappingLoader, SubnestMustNotListThePrefix) {
  EXPECT_TRUE(fails(with(kMapping, "order: [n, k]}", "order: [m, n, k]}"), "7:32",
                    "'m' is in the segment's prefix; the backing store's order lists the "
                    "operator's loops below it"));
}

TEST(HierFusedMappingLoader, FactorsBeyondTheSize) {
  EXPECT_TRUE(fails(with(kMapping, "factors: {k: 8}", "factors: {k: 16}"), "7:9",
                    "levels of 'up': the factors of 'k' below the backing store multiply to more "
                    "than its size (32)"));
}

TEST(HierFusedMappingLoader, EveryOperatorNeedsItsLevels) {
  EXPECT_TRUE(fails(with(kMapping, "      down:", "      other:"), "11:7",
                    "unknown key 'other' in levels of segment 1 (expected one of: up, down)"));
}

TEST(HierFusedMappingLoader, UnknownPrefixDimension) {
  EXPECT_TRUE(fails(with(kMapping, "prefix: [m]", "prefix: [q]"), "3:14",
                    "'q' is not a dimension of workload 'chain'"));
}

TEST(HierFusedMappingLoader, RepeatedPrefixDimension) {
  EXPECT_TRUE(fails(with(kMapping, "prefix: [m]", "prefix: [m, m]"), "3:17",
                    "'m' appears twice in prefix"));
}

TEST(HierFusedMappingLoader, NegativeRetention) {
  EXPECT_TRUE(
      fails(with(kMapping, "W: 0, H", "W: -1, H"), "4:26", "W must be non-negative, got -1"));
}

TEST(HierFusedMappingLoader, MissingRetention) {
  EXPECT_TRUE(fails(with(kMapping, "    retention: {A: 1, W: 0, H: 1, V: 0, O: 1}\n", ""), "2:5",
                    "missing required key 'retention'"));
}

TEST(HierFusedMappingLoader, UnknownSegmentKey) {
  EXPECT_TRUE(fails(with(kMapping, "    prefix: [m]\n", "    prefix: [m]\n    tiles: {}\n"), "4:5",
                    "unknown key 'tiles' in segment 1 (expected one of: ops, prefix, retention, "
                    "levels)"));
}

TEST(HierFusedMappingLoader, OperatorInTwoSegments) {
  EXPECT_TRUE(fails(with(kMapping, "ops: [up, down]", "ops: [up, up]"), "2:15",
                    "operator 'up' is mapped twice"));
}

} // namespace
} // namespace dse
