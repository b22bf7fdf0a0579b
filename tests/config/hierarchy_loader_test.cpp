// Tests of src/config/hierarchy_loader.cpp and of the counting keys of today's form: the general
// form of docs/HIERARCHY.md §2.1, today's shape spelt in it (§2.4), and one test per error
// message, each checking the exact file:line:col.
#include "dse/config/hardware_loader.hpp"

#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "common/sim_hierarchy_spelling.hpp"
#include "config/expect_error.hpp"

namespace dse {
namespace {

using test_common::repo_file;
using testing::throws_at;
using testing::with;

// docs/HIERARCHY.md §2.1 without the mapspace constraints.
const std::string kGeneral = R"(name: quad-core-4level
source: "illustrative figures"
clock_ghz: 1.0
word_bytes: 2
counting: timeloop
first_read_elision: true
hierarchy:
  - {level: DRAM, bandwidth_gbps: 64, read_energy_pj: 200.0, write_energy_pj: 200.0}
  - {level: L2, capacity_kib: 2048, bandwidth_words_per_cycle: 128,
     read_energy_pj: 30.0, write_energy_pj: 33.0}
  - {fanout: cores, x: 4}
  - {level: L1, capacity_kib: 128, read_bandwidth_words_per_cycle: 64,
     write_bandwidth_words_per_cycle: 32, read_energy_pj: 6.0, write_energy_pj: 7.0,
     update_energy_pj: 7.5, double_buffering: true}
  - {fanout: mesh, x: 16, y: 16}
  - {level: RF, capacity_words: 32, read_energy_pj: 0.3, write_energy_pj: 0.35,
     holds: [output, operand1]}
compute: {mac_energy_pj: 0.8}
dma_units:
  - {name: dma0, direction: both, bandwidth_gbps: 32}
  - {name: dma1, direction: both, bandwidth_gbps: 32}
)";

// docs/HIERARCHY.md §2.4: hw_configs/sim-1g-1mb-60gbps.yaml spelt in the general form.
const std::string kSimSpelling =
    "name: sim-1g-1mb-60gbps\nclock_ghz: 1.0\nword_bytes: 2\n" + test_common::kSimHierarchySpelling;

// Today's form, for its two new keys.
const std::string kToday = R"(name: today
clock_ghz: 1.0
word_bytes: 2
cores: 2
pe_array: {rows: 8, cols: 4, mac_energy_pj: 0.5}
levels:
  - {name: DRAM, bandwidth_gbps: 16, read_energy_pj: 100, write_energy_pj: 100}
  - {name: GlobalBuffer, capacity_words: 4096, read_energy_pj: 2, write_energy_pj: 3}
  - {name: RegFile, capacity_words: 16, read_energy_pj: 0.1, write_energy_pj: 0.2}
)";

::testing::AssertionResult fails(const std::string &yaml, const std::string &line_col,
                                 const std::string &message) {
  return throws_at([&] { parse_hardware(yaml, "hw.yaml"); }, "hw.yaml:" + line_col, message);
}

/// The parts of Hardware that the two spellings of a file must share.
void expect_same_hardware(const Hardware &a, const Hardware &b) {
  EXPECT_TRUE(a.levels == b.levels) << "today's levels differ";
  EXPECT_EQ(a.array.rows, b.array.rows);
  EXPECT_EQ(a.array.cols, b.array.cols);
  EXPECT_EQ(a.array.mac_energy_pj, b.array.mac_energy_pj);
  EXPECT_EQ(a.array.is_vector, b.array.is_vector);
  EXPECT_EQ(a.cores, b.cores);
  EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  EXPECT_EQ(a.word_bytes, b.word_bytes);
  EXPECT_TRUE(a.hierarchy == b.hierarchy) << "the hierarchies differ";
}

TEST(HierarchyLoader, ParsesTheDesignExample) {
  const Hardware hw = parse_hardware(kGeneral, "hw.yaml");
  EXPECT_EQ(hw.name, "quad-core-4level");
  EXPECT_EQ(hw.source, "illustrative figures");
  EXPECT_FALSE(hw.is_legacy());
  EXPECT_TRUE(hw.levels.empty());
  const Hierarchy &h = hw.hierarchy;
  EXPECT_TRUE(h.first_read_elision);
  ASSERT_EQ(h.depth(), 4);
  EXPECT_EQ(h.instances(0), 1);
  EXPECT_EQ(h.instances(1), 1);
  EXPECT_EQ(h.instances(2), 4);
  EXPECT_EQ(h.instances(3), 1024);
  EXPECT_EQ(h.compute_units(), 1024);
  EXPECT_EQ(h.level_index("L1"), 2);

  const StorageLevel &dram = h.levels[0];
  EXPECT_EQ(dram.name, "DRAM");
  EXPECT_FALSE(dram.capacity_words.has_value());
  EXPECT_EQ(dram.shared_words_per_cycle, 32.0); // 64 GB/s at 1 GHz, 2-byte words
  EXPECT_DOUBLE_EQ(dram.read_pj, 200.0);
  EXPECT_DOUBLE_EQ(dram.fill_pj, 200.0);

  const StorageLevel &l2 = h.levels[1];
  EXPECT_EQ(l2.capacity_words, 2048 * 1024 / 2);
  EXPECT_EQ(l2.shared_words_per_cycle, 128.0);
  EXPECT_FALSE(l2.read_words_per_cycle.has_value());
  EXPECT_DOUBLE_EQ(l2.fill_pj, 33.0);
  EXPECT_DOUBLE_EQ(l2.update_pj, 33.0);
  EXPECT_EQ(l2.holds, role::kAll);
  EXPECT_FALSE(l2.double_buffering);

  const StorageLevel &l1 = h.levels[2];
  EXPECT_EQ(l1.capacity_words, 128 * 1024 / 2);
  EXPECT_FALSE(l1.shared_words_per_cycle.has_value());
  EXPECT_EQ(l1.read_words_per_cycle, 64.0);
  EXPECT_EQ(l1.write_words_per_cycle, 32.0);
  EXPECT_DOUBLE_EQ(l1.read_pj, 6.0);
  EXPECT_DOUBLE_EQ(l1.fill_pj, 7.0);
  EXPECT_DOUBLE_EQ(l1.update_pj, 7.5);
  EXPECT_TRUE(l1.double_buffering);

  const StorageLevel &rf = h.levels[3];
  EXPECT_EQ(rf.capacity_words, 32);
  EXPECT_EQ(rf.holds, role::kOutput | role::kOperand1);
  EXPECT_DOUBLE_EQ(rf.fill_pj, 0.35);

  ASSERT_EQ(h.fanouts.size(), 4u);
  EXPECT_TRUE(h.fanouts[0].empty());
  ASSERT_EQ(h.fanouts[1].size(), 1u);
  EXPECT_EQ(h.fanouts[1][0].name, "cores");
  EXPECT_EQ(h.fanouts[1][0].x, 4);
  EXPECT_EQ(h.fanouts[1][0].y, 1);
  ASSERT_EQ(h.fanouts[2].size(), 1u);
  EXPECT_EQ(h.fanouts[2][0].name, "mesh");
  EXPECT_EQ(h.fanouts[2][0].size(), 256);
  EXPECT_TRUE(h.fanouts[2][0].multicast);
  EXPECT_TRUE(h.fanouts[2][0].reduction);
  EXPECT_TRUE(h.fanouts[3].empty());
  EXPECT_DOUBLE_EQ(h.mac_pj, 0.8);
  EXPECT_FALSE(h.vector);
  ASSERT_EQ(hw.dma_units.size(), 2u);
  EXPECT_EQ(hw.dma_units[1].name, "dma1");
}

TEST(HierarchyLoader, GeneralFormDefaultsAndOptionalKeys) {
  std::string yaml = with(kGeneral, "counting: timeloop\nfirst_read_elision: true\n", "");
  yaml = with(yaml, "{fanout: mesh, x: 16, y: 16}",
              "{fanout: mesh, x: 16, y: 16, multicast: false, reduction: false}");
  yaml = with(yaml, "{fanout: cores, x: 4}", "{fanout: cores, x: 4}\n  - {fanout: lanes, x: 2}");
  yaml = with(yaml, "double_buffering: true}", "double_buffering: true, instances: 8}");
  yaml = with(yaml, "bandwidth_gbps: 64", "bandwidth_words_per_cycle: 0.5");
  yaml = with(yaml, "{mac_energy_pj: 0.8}", "{fma_energy_pj: 2.5, vector: true}");
  const Hardware hw = parse_hardware(yaml, "hw.yaml");
  const Hierarchy &h = hw.hierarchy;
  EXPECT_EQ(h.counting, Counting::Timeloop);
  EXPECT_TRUE(h.first_read_elision);
  EXPECT_EQ(h.levels[0].shared_words_per_cycle, 0.5);
  ASSERT_EQ(h.fanouts[1].size(), 2u);
  EXPECT_EQ(h.fanouts[1][1].name, "lanes");
  EXPECT_EQ(h.instances(2), 8);
  EXPECT_FALSE(h.fanouts[2][0].multicast);
  EXPECT_FALSE(h.fanouts[2][0].reduction);
  EXPECT_TRUE(h.vector);
  EXPECT_DOUBLE_EQ(h.mac_pj, 2.5);
}

TEST(HierarchyLoader, FirstReadElisionOff) {
  const Hardware hw =
      parse_hardware(with(kGeneral, "first_read_elision: true", "first_read_elision: false"), "x");
  EXPECT_FALSE(hw.hierarchy.first_read_elision);
}

TEST(HierarchyLoader, TodaysFormCountedByTimeloop) {
  const Hardware hw =
      parse_hardware(kToday + "counting: timeloop\nfirst_read_elision: false\n", "hw.yaml");
  EXPECT_FALSE(hw.is_legacy());
  EXPECT_EQ(hw.levels.size(), 3u); // today's fields stay as read
  EXPECT_EQ(hw.cores, 2);
  Hierarchy expected = hierarchy_from_levels(hw, Counting::Timeloop);
  expected.first_read_elision = false;
  EXPECT_TRUE(hw.hierarchy == expected);
}

TEST(HierarchyLoader, TodaysFormCountsLegacyByDefault) {
  const Hardware implicit = parse_hardware(kToday, "hw.yaml");
  const Hardware explicit_legacy = parse_hardware(kToday + "counting: legacy\n", "hw.yaml");
  EXPECT_TRUE(implicit.is_legacy());
  expect_same_hardware(implicit, explicit_legacy);
}

// docs/HIERARCHY.md §2.4: the same Hardware from either spelling.
TEST(HierarchyLoader, LegacySpellingOfTheSimulatedDesign) {
  const Hardware today = load_hardware(repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"));
  const Hardware general = parse_hardware(kSimSpelling, "hw.yaml");
  EXPECT_TRUE(general.is_legacy());
  expect_same_hardware(today, general);
}

TEST(HierarchyLoader, LegacySpellingOfAVectorTargetWithoutRegisterFile) {
  const std::string two_levels = with(
      kToday,
      "  - {name: RegFile, capacity_words: 16, read_energy_pj: 0.1, write_energy_pj: 0.2}\n", "");
  const std::string today =
      with(with(two_levels, "cores: 2\n", ""), "pe_array: {rows: 8, cols: 4, mac_energy_pj: 0.5}",
           "vector: {lanes: 16, fma_units: 3, fma_energy_pj: 1.0}");
  const std::string general = R"(name: today
clock_ghz: 1.0
word_bytes: 2
counting: legacy
hierarchy:
  - {level: DRAM, bandwidth_gbps: 16, read_energy_pj: 100, write_energy_pj: 100}
  - {level: GlobalBuffer, capacity_words: 4096, read_energy_pj: 2, write_energy_pj: 3}
  - {fanout: lanes, x: 16, y: 3}
compute: {fma_energy_pj: 1.0, vector: true}
)";
  expect_same_hardware(parse_hardware(today, "a.yaml"), parse_hardware(general, "b.yaml"));
}

TEST(HierarchyLoader, LegacySpellingKeepsTheFanoutName) {
  const Hardware hw = parse_hardware(with(kSimSpelling, "fanout: array", "fanout: pe"), "x");
  EXPECT_EQ(hw.hierarchy.fanouts[1][0].name, "pe");
  EXPECT_EQ(hw.effective_rows(), 32);
}

TEST(HierarchyLoader, ShippedTimeloopArchitecture) {
  const Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
  const Hierarchy &h = hw.hierarchy;
  EXPECT_EQ(h.counting, Counting::Timeloop);
  ASSERT_EQ(h.depth(), 3);
  EXPECT_EQ(h.levels[0].shared_words_per_cycle, 4.0);
  EXPECT_EQ(h.levels[1].capacity_words, 65536);
  EXPECT_EQ(h.levels[1].shared_words_per_cycle, 64.0);
  EXPECT_DOUBLE_EQ(h.levels[1].read_pj, 6.0);
  EXPECT_EQ(h.levels[2].capacity_words, 16);
  EXPECT_FALSE(h.levels[2].shared_words_per_cycle.has_value());
  EXPECT_DOUBLE_EQ(h.levels[2].update_pj, 0.5);
  EXPECT_EQ(h.fanouts[1][0].name, "PE");
  EXPECT_EQ(h.instances(2), 256);
  EXPECT_DOUBLE_EQ(h.mac_pj, 1.0);
}

TEST(HierarchyLoader, DmaUnitsInTheGeneralForm) {
  const std::string loads_only = with(with(kGeneral, "direction: both", "direction: load"),
                                      "direction: both", "direction: load");
  EXPECT_TRUE(fails(loads_only, "20:3",
                    "dma_units: no unit stores (direction store or both), so results could never "
                    "reach DRAM"));
}

// Errors of the counting keys.

TEST(HierarchyLoader, UnknownCounting) {
  EXPECT_TRUE(fails(kToday + "counting: exact\n", "10:11",
                    "counting must be legacy or timeloop, got 'exact'"));
}

TEST(HierarchyLoader, FirstReadElisionWithLegacyCounting) {
  const std::string message =
      "first_read_elision needs counting: timeloop (the legacy model has no first-read elision)";
  EXPECT_TRUE(fails(kToday + "first_read_elision: true\n", "10:1", message));
  EXPECT_TRUE(fails(kSimSpelling + "first_read_elision: false\n", "12:1", message));
}

// Errors of the general form's structure.

TEST(HierarchyLoader, GeneralFormRejectsTodaysKeys) {
  EXPECT_TRUE(fails(with(kGeneral, "word_bytes: 2\n", "word_bytes: 2\ncores: 4\n"), "5:1",
                    "unknown key 'cores' at the top level (expected one of: name, source, "
                    "clock_ghz, word_bytes, counting, first_read_elision, hierarchy, compute, "
                    "dma_units, mapspace)"));
}

TEST(HierarchyLoader, MapspaceOfTheDesignExample) {
  const Hardware hw =
      parse_hardware(kGeneral + "mapspace:\n  - {target: mesh, one_axis_per_dim: true}\n"
                                "  - {target: RF, keep: [output]}\n",
                     "hw.yaml");
  ASSERT_EQ(hw.hierarchy.mapspace.size(), 2U);
  EXPECT_TRUE(hw.hierarchy.mapspace[0].one_axis_per_dim);
  EXPECT_EQ(hw.hierarchy.mapspace[1].keep_roles, role::kOutput);
}

TEST(HierarchyLoader, EntryWithLevelAndFanout) {
  EXPECT_TRUE(fails(with(kGeneral, "{fanout: cores,", "{level: C, fanout: cores,"), "11:16",
                    "hierarchy[2]: give either 'level' or 'fanout', not both"));
}

TEST(HierarchyLoader, EntryWithoutLevelOrFanout) {
  EXPECT_TRUE(fails(with(kGeneral, "{fanout: cores,", "{"), "11:5",
                    "hierarchy[2]: missing required key 'level' (or 'fanout')"));
}

TEST(HierarchyLoader, DuplicateName) {
  EXPECT_TRUE(fails(with(kGeneral, "fanout: mesh", "fanout: L2"), "15:14",
                    "duplicate name 'L2' in hierarchy"));
}

TEST(HierarchyLoader, FirstEntryIsAFanout) {
  EXPECT_TRUE(fails(with(kGeneral, "hierarchy:\n", "hierarchy:\n  - {fanout: top, x: 2}\n"), "8:14",
                    "the first entry of hierarchy must be a level (the backing store), got "
                    "fan-out 'top'"));
}

TEST(HierarchyLoader, TooFewOrTooManyLevels) {
  const std::string one_level = R"(name: x
clock_ghz: 1
word_bytes: 2
hierarchy:
  - {level: DRAM, read_energy_pj: 1, write_energy_pj: 1}
  - {fanout: mesh, x: 4}
compute: {mac_energy_pj: 1}
)";
  EXPECT_TRUE(fails(one_level, "5:3",
                    "hierarchy must list 2 to 5 storage levels (a backing store and one to four "
                    "on-chip levels), got 1"));
  const std::string rf = "  - {level: RF, capacity_words: 32,";
  std::string six = kGeneral;
  for (const char *name : {"R1", "R2"})
    six = with(six, rf,
               "  - {level: " + std::string(name) +
                   ", capacity_words: 8, read_energy_pj: 1, write_energy_pj: 1}\n" + rf);
  EXPECT_TRUE(fails(six, "8:3",
                    "hierarchy must list 2 to 5 storage levels (a backing store and one to four "
                    "on-chip levels), got 6"));
}

// Errors of levels.

TEST(HierarchyLoader, UnknownLevelKey) {
  EXPECT_TRUE(fails(with(kGeneral, "capacity_kib: 2048", "capcity_kib: 2048"), "9:17",
                    "unknown key 'capcity_kib' in level 'L2' (expected one of: level, "
                    "capacity_kib, capacity_words, bandwidth_words_per_cycle, "
                    "read_bandwidth_words_per_cycle, write_bandwidth_words_per_cycle, "
                    "read_energy_pj, write_energy_pj, fill_energy_pj, update_energy_pj, "
                    "instances, holds, double_buffering)"));
}

TEST(HierarchyLoader, BackingStoreTakesNoCapacity) {
  EXPECT_TRUE(fails(with(kGeneral, "{level: DRAM,", "{level: DRAM, capacity_words: 8,"), "8:19",
                    "level 'DRAM': the outermost level is unbounded and takes no "
                    "'capacity_words'"));
}

TEST(HierarchyLoader, BackingStoreTakesNoHolds) {
  EXPECT_TRUE(fails(with(kGeneral, "{level: DRAM,", "{level: DRAM, holds: [output],"), "8:19",
                    "unknown key 'holds' in level 'DRAM'"));
}

TEST(HierarchyLoader, OnChipLevelNeedsCapacity) {
  EXPECT_TRUE(fails(with(kGeneral, "capacity_words: 32, ", ""), "16:5",
                    "level 'RF': missing required key 'capacity_kib' (or 'capacity_words')"));
}

TEST(HierarchyLoader, OnChipLevelTakesNoGbps) {
  EXPECT_TRUE(fails(with(kGeneral, "bandwidth_words_per_cycle: 128", "bandwidth_gbps: 128"), "9:37",
                    "unknown key 'bandwidth_gbps' in level 'L2'"));
}

TEST(HierarchyLoader, BothSharedBandwidthKeys) {
  EXPECT_TRUE(fails(
      with(kGeneral, "bandwidth_gbps: 64,", "bandwidth_gbps: 64, bandwidth_words_per_cycle: 8,"),
      "8:39",
      "level 'DRAM': give either 'bandwidth_gbps' or 'bandwidth_words_per_cycle', "
      "not both"));
}

TEST(HierarchyLoader, PortBandwidthOutOfRange) {
  EXPECT_TRUE(fails(
      with(kGeneral, "read_bandwidth_words_per_cycle: 64", "read_bandwidth_words_per_cycle: 1e13"),
      "12:68",
      "level 'L1': read_bandwidth_words_per_cycle must be between 1e-6 and 1e12 "
      "words per cycle, got 1e13"));
}

TEST(HierarchyLoader, FillEnergyOutOfRange) {
  EXPECT_TRUE(fails(with(kGeneral, "update_energy_pj: 7.5", "fill_energy_pj: 1e10"), "14:22",
                    "level 'L1': fill_energy_pj must be at most 1e9 pJ per access, got 1e10"));
}

TEST(HierarchyLoader, MissingWriteEnergy) {
  EXPECT_TRUE(fails(with(kGeneral, ", write_energy_pj: 0.35", ""), "16:5",
                    "level 'RF': missing required key 'write_energy_pj'"));
}

TEST(HierarchyLoader, UnknownRole) {
  EXPECT_TRUE(fails(with(kGeneral, "[output, operand1]", "[output, weights]"), "17:22",
                    "level 'RF': holds: unknown role 'weights' (expected output, operand0, "
                    "operand1 or intermediate)"));
}

TEST(HierarchyLoader, EmptyHolds) {
  EXPECT_TRUE(fails(with(kGeneral, "[output, operand1]", "[]"), "17:13",
                    "level 'RF': holds must name at least one role (output, operand0, operand1, "
                    "intermediate)"));
}

TEST(HierarchyLoader, RoleHeldTwice) {
  EXPECT_TRUE(fails(with(kGeneral, "[output, operand1]", "[output, output]"), "17:22",
                    "level 'RF': holds names 'output' twice"));
}

TEST(HierarchyLoader, HoldsNotAList) {
  EXPECT_TRUE(fails(with(kGeneral, "[output, operand1]", "output"), "17:13",
                    "level 'RF': key 'holds' must be a list, got 'output'"));
}

TEST(HierarchyLoader, WrongInstances) {
  EXPECT_TRUE(fails(
      with(kGeneral, "holds: [output, operand1]", "holds: [output, operand1], instances: 256"),
      "17:44", "level 'RF': instances is 256, but the fan-outs above the level give 1024"));
}

// Errors of fan-outs and compute.

TEST(HierarchyLoader, FanoutSideOutOfRange) {
  EXPECT_TRUE(fails(with(kGeneral, "x: 16, y: 16", "x: 16, y: 2000000"), "15:30",
                    "fan-out 'mesh': y must be at most 1048576, got 2000000"));
  EXPECT_TRUE(fails(with(kGeneral, "{fanout: cores, x: 4}", "{fanout: cores, x: 0}"), "11:24",
                    "fan-out 'cores': x must be a positive integer, got 0"));
}

TEST(HierarchyLoader, FanoutNeedsX) {
  EXPECT_TRUE(fails(with(kGeneral, "{fanout: cores, x: 4}", "{fanout: cores}"), "11:5",
                    "fan-out 'cores': missing required key 'x'"));
}

TEST(HierarchyLoader, UnknownFanoutKey) {
  EXPECT_TRUE(fails(with(kGeneral, "{fanout: cores, x: 4}", "{fanout: cores, x: 4, z: 2}"), "11:27",
                    "unknown key 'z' in fan-out 'cores' (expected one of: fanout, x, y, "
                    "multicast, reduction)"));
}

TEST(HierarchyLoader, TooManyComputeUnits) {
  EXPECT_TRUE(fails(with(kGeneral, "x: 16, y: 16", "x: 1048576, y: 1024"), "15:5",
                    "fan-out 'mesh': the fan-outs down to this one give more than 2^31 compute "
                    "units"));
}

TEST(HierarchyLoader, MissingCompute) {
  EXPECT_TRUE(fails(with(kGeneral, "compute: {mac_energy_pj: 0.8}\n", ""), "1:1",
                    "missing required key 'compute'"));
}

TEST(HierarchyLoader, ComputeEnergyOfTheOtherKind) {
  EXPECT_TRUE(fails(with(kGeneral, "{mac_energy_pj: 0.8}", "{fma_energy_pj: 0.8}"), "18:11",
                    "compute: 'fma_energy_pj' does not go with vector: false; give "
                    "'mac_energy_pj'"));
  EXPECT_TRUE(fails(with(kGeneral, "{mac_energy_pj: 0.8}", "{mac_energy_pj: 0.8, vector: true}"),
                    "18:11",
                    "compute: 'mac_energy_pj' does not go with vector: true; give "
                    "'fma_energy_pj'"));
}

// Errors of counting: legacy in the general form.

TEST(HierarchyLoader, LegacyCountingNeedsTodaysShape) {
  EXPECT_TRUE(fails(
      with(kGeneral, "counting: timeloop\nfirst_read_elision: true\n", "counting: legacy\n"), "7:3",
      "counting: legacy takes today's shape (a backing store, a buffer, one fan-out "
      "and an optional register file, in this order); this hierarchy is level DRAM, "
      "level L2, fan-out cores, level L1, fan-out mesh, level RF"));
}

TEST(HierarchyLoader, LegacyCountingTakesTodaysKeysOnly) {
  EXPECT_TRUE(fails(
      with(kSimSpelling, "capacity_words: 64,", "capacity_words: 64, holds: [output],"), "10:42",
      "unknown key 'holds' in level 'RegFile' (counting: legacy) (expected one of: "
      "level, capacity_words, read_energy_pj, write_energy_pj)"));
  EXPECT_TRUE(fails(with(kSimSpelling, "y: 32}", "y: 32, multicast: false}"), "9:35",
                    "unknown key 'multicast' in fan-out 'array' (counting: legacy) (expected one "
                    "of: fanout, x, y)"));
}

TEST(HierarchyLoader, LegacyCountingNeedsDramGbps) {
  EXPECT_TRUE(fails(with(kSimSpelling, "bandwidth_gbps: 60, ", ""), "6:5",
                    "level 'DRAM' (counting: legacy): missing required key 'bandwidth_gbps'"));
}

} // namespace
} // namespace dse
