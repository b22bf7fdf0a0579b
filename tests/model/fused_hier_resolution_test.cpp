// Tests of src/model/fused_hier_resolution.cpp and the rules of fused_hier_mapping_problem: a
// fused segment read from a file becomes the fused problem's loop tree and nests, and every
// rule it breaks is a UserError at the segment (or the retention entry).
#include "dse/model/fused_hier_resolution.hpp"

#include <gtest/gtest.h>

#include "common/fused_hier_example.hpp"
#include "common/text.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {
namespace {

using fused_example::kHardware;
using fused_example::kMapping;
using fused_example::kWorkload;
using test_common::with;

constexpr int kM = 0, kK = 1, kN = 2, kL = 3;

struct Resolved {
  Hardware hw;
  Workload workload = parse_workload(kWorkload, "w.yaml");
  FusedHierSegment segment;

  explicit Resolved(const std::string &mapping, const std::string &hardware = kHardware)
      : hw(parse_hardware(hardware, "hw.yaml")) {
    const std::vector<HierSegmentMapping> segments =
        parse_hier_mapping(mapping, "map.yaml", hw, workload);
    segment = resolve_fused_hier_segment(hw, workload, segments.at(0));
  }
};

std::string error_of(const std::string &mapping, const std::string &hardware = kHardware) {
  try {
    Resolved resolved(mapping, hardware);
  } catch (const UserError &e) {
    return e.what();
  }
  return "no error thrown";
}

TEST(FusedHierResolution, BuildsTheLoopTreeAndTheLevelZeroOrders) {
  const Resolved r(kMapping);
  const FusedHierMapping &m = r.segment.mapping;
  ASSERT_TRUE(r.segment.problem.fused());
  EXPECT_EQ(m.outer.prefix, (std::vector<int>{kM}));
  EXPECT_EQ(m.outer.subnests, (std::vector<std::vector<int>>{{kN, kK}, {kN, kL}}));
  EXPECT_EQ(m.outer.retention, (std::vector<int>{1, 0, 1, 0, 1})); // A, W, H, V, O
  EXPECT_EQ(m.ops[0].levels[0].order, (std::vector<int>{kM, kN, kK}));
  EXPECT_EQ(m.ops[1].levels[0].order, (std::vector<int>{kM, kN, kL}));
  EXPECT_EQ(fused_hier_mapping_problem(r.hw, r.segment.problem, m), "");
}

TEST(FusedHierResolution, SubnestGetsTheOperatorsOtherDimensions) {
  const Resolved r(with(kMapping, "order: [n, k]}", "order: [n]}"));
  EXPECT_EQ(r.segment.mapping.outer.subnests[0], (std::vector<int>{kN, kK}));
}

// Each rule broken, with where the error points.

TEST(FusedHierResolution, ConsumerBeforeProducer) {
  EXPECT_EQ(error_of(with(kMapping, "ops: [up, down]", "ops: [down, up]")),
            "map.yaml:2:5: error: 'up' does not read the result of 'down': a fused segment names "
            "a producer, then its consumer");
}

TEST(FusedHierResolution, RetentionOfAnUnknownTensor) {
  EXPECT_EQ(error_of(with(kMapping, "V: 0, O: 1}", "V: 0, O: 1, X: 0}")),
            "map.yaml:4:47: error: 'X' is not a tensor of the pair ('A', 'W', 'H', 'V', 'O')");
}

TEST(FusedHierResolution, MissingRetention) {
  EXPECT_EQ(error_of(with(kMapping, "V: 0, O: 1}", "O: 1}")),
            "map.yaml:2:5: error: missing retention depth of tensor 'V'");
}

TEST(FusedHierResolution, RetentionDepthOutsideThePrefix) {
  EXPECT_EQ(error_of(with(kMapping, "H: 1", "H: 2")),
            "map.yaml:2:5: error: retention depth 2 of tensor 'H' is not 0 or right below a loop "
            "that indexes it within the shared prefix");
}

TEST(FusedHierResolution, PrefixDimensionOfTheProducersReduction) {
  EXPECT_EQ(error_of(with(with(kMapping, "prefix: [m]", "prefix: [m, k]"), "order: [n, k]}",
                          "order: [n]}")),
            "map.yaml:2:5: error: dimension 'k' may not be in the shared prefix (a producer "
            "reduction or unknown dimension)");
}

TEST(FusedHierResolution, SharedDimensionTiledDifferently) {
  EXPECT_EQ(error_of(with(kMapping, "{level: GB, factors: {n: 4}, keep: [H, V, O]}",
                          "{level: GB, factors: {n: 2}, keep: [H, V, O]}")),
            "map.yaml:2:5: error: dimension 'n' has different level-1 tiles in the two operators");
}

TEST(FusedHierResolution, LevelOneKeepsEveryTensor) {
  EXPECT_EQ(error_of(with(kMapping, "keep: [A, W, H]", "keep: [A, H]")),
            "map.yaml:2:5: error: operator 'up': level 1 must keep every tensor of a fused pair");
}

TEST(FusedHierResolution, FanoutAboveLevelOne) {
  const std::string hw =
      with(kHardware, "  - {level: GB", "  - {fanout: chips, x: 2}\n  - {level: GB");
  std::string mapping = kMapping;
  for (const std::string sub : {"order: [n, k]}\n", "order: [n, l]}\n"})
    mapping = with(mapping, sub, sub + "        - {fanout: chips, x: {m: 2}}\n");
  EXPECT_EQ(error_of(mapping, hw),
            "map.yaml:2:5: error: operator 'up' uses a fan-out between levels 0 and 1 (a fused "
            "pair runs on one instance of level 1)");
}

} // namespace
} // namespace dse
