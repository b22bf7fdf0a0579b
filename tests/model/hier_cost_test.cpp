// The hierarchical model's closed forms (docs/HIERARCHY.md §4) on the worked example of §4.5,
// number by number, with first-read elision on and off, and the legality checks of its mappings.
#include <gtest/gtest.h>

#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "model/hier_worked_example.hpp"

namespace dse {
namespace {

using worked_example::factors;
using worked_example::kK;
using worked_example::kM;

struct HierWorkedExample : ::testing::Test {
  Hardware hw = worked_example::hardware();
  Workload workload = worked_example::workload();
  OpMapping mapping = worked_example::mapping();

  HierCost cost(bool elision) const {
    return evaluate_hier_mapping(hw, workload, workload.ops[0], mapping, elision,
                                 LatencyModel::Roofline);
  }
};

void expect_counts(const HierLevelCost &level, size_t tensor, double reads, double fills,
                   double updates) {
  ASSERT_TRUE(level.tensors[tensor].has_value());
  EXPECT_EQ(level.tensors[tensor]->reads, reads);
  EXPECT_EQ(level.tensors[tensor]->fills, fills);
  EXPECT_EQ(level.tensors[tensor]->updates, updates);
}

TEST_F(HierWorkedExample, CountsEveryLevelAndTensorWithElision) {
  const HierCost c = cost(true);
  ASSERT_EQ(c.levels.size(), 3u);
  expect_counts(c.levels[0], 0, 4096, 0, 0);
  expect_counts(c.levels[0], 1, 8192, 0, 0);
  expect_counts(c.levels[0], 2, 4096, 0, 8192);
  expect_counts(c.levels[1], 0, 65536, 4096, 0);
  expect_counts(c.levels[1], 1, 65536, 8192, 0);
  expect_counts(c.levels[1], 2, 28672, 4096, 32768);
  EXPECT_FALSE(c.levels[2].tensors[0].has_value());
  EXPECT_FALSE(c.levels[2].tensors[1].has_value());
  expect_counts(c.levels[2], 2, 258048, 28672, 262144);
  EXPECT_EQ(c.levels[2].instances, 16);
  EXPECT_EQ(c.levels[1].buffer_words, 3072);
  EXPECT_EQ(c.levels[2].buffer_words, 16);
}

TEST_F(HierWorkedExample, EnergyAndCyclesWithElision) {
  const HierCost c = cost(true);
  EXPECT_EQ(c.levels[0].energy_pj, 2457600);
  EXPECT_EQ(c.levels[1].tensors[0]->energy_pj, 348160);
  EXPECT_EQ(c.levels[1].tensors[1]->energy_pj, 368640);
  EXPECT_EQ(c.levels[1].tensors[2]->energy_pj, 327680);
  EXPECT_EQ(c.levels[2].energy_pj, 274432);
  EXPECT_EQ(c.compute_energy_pj, 262144);
  EXPECT_EQ(c.energy_pj, 4038656);
  EXPECT_EQ(c.compute_cycles, 16384);
  EXPECT_EQ(c.levels[0].cycles, 16384); // DRAM moves 24,576 words in 12,288 cycles
  EXPECT_EQ(c.levels[0].transfer_cycles, 12288);
  EXPECT_EQ(c.levels[1].cycles, 26112);
  EXPECT_EQ(c.latency_cycles, 26112);
  EXPECT_EQ(c.bound_level, 1);
  EXPECT_EQ(c.utilisation, 1);
}

TEST_F(HierWorkedExample, WithoutElisionTheFirstReadsAndFillsOfZAreCounted) {
  const HierCost c = cost(false);
  expect_counts(c.levels[0], 2, 8192, 0, 8192);
  expect_counts(c.levels[1], 2, 32768, 8192, 32768);
  expect_counts(c.levels[2], 2, 262144, 32768, 262144);
  EXPECT_EQ(c.levels[0].transfer_cycles, 14336);
  EXPECT_EQ(c.levels[1].transfer_cycles, 27136);
  EXPECT_EQ(c.energy_pj, 4493312);
}

TEST_F(HierWorkedExample, SequentialLatencyAddsEveryLevelsTransferTime) {
  const HierCost c =
      evaluate_hier_mapping(hw, workload, workload.ops[0], mapping, true, LatencyModel::Sequential);
  EXPECT_EQ(c.latency_cycles, 16384 + 12288 + 26112);
}

TEST_F(HierWorkedExample, TheMappingIsLegal) {
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping), std::nullopt);
}

TEST_F(HierWorkedExample, TilesBeyondACapacityAreNamed) {
  hw.hierarchy.levels[2].capacity_words = 15;
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "level 'RF' needs 16 words per instance for its tiles, more than its capacity of 15");
}

TEST_F(HierWorkedExample, SpatialFactorsBeyondAnAxisAreNamed) {
  mapping.fanouts[1][0].x = factors(1, 1, 8);
  mapping.levels[2].factor = factors(4, 8, 2);
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "the spatial factors of fan-out 'mesh' use 8 x 4 of its 4 x 4");
}

TEST_F(HierWorkedExample, OuterFactorsMustPadTheDimension) {
  mapping.levels[0].factor = factors(3, 2, 2);
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "the outermost level's factor of 'm' is 3; with 32 inside it, m = 64 needs 2");
}

TEST_F(HierWorkedExample, LoopsMissingFromAnOrderAreNamed) {
  mapping.levels[1].order = {kM, kK};
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "level 'GB' loops over 'n' but its order does not list it");
}

TEST_F(HierWorkedExample, KeepSetsFollowHolds) {
  hw.hierarchy.levels[2].holds = role::kOperand0 | role::kOperand1;
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "level 'RF' may not hold 'C' (see its 'holds')");
}

TEST_F(HierWorkedExample, ReductionNeedsANetwork) {
  hw.hierarchy.fanouts[1][0].reduction = false;
  mapping.fanouts[1][0].y = factors(1, 4, 1);
  mapping.levels[2].factor = factors(16, 2, 4);
  EXPECT_EQ(hier_mapping_violation(hw, workload, workload.ops[0], mapping),
            "fan-out 'mesh' has no reduction network, so 'k' (summed over) cannot be spread over "
            "it");
}

} // namespace
} // namespace dse
