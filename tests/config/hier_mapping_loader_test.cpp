// Tests of src/config/hier_mapping_loader.cpp: the single-operator form of docs/HIERARCHY.md
// §3.2, the shipped example mapping, and one test per error message with its exact
// file:line:col.
#include "dse/config/hier_mapping_loader.hpp"

#include <gtest/gtest.h>

#include "common/fused_hier_example.hpp"
#include "common/repo_files.hpp"
#include "config/expect_error.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {
namespace {

using test_common::repo_file;
using testing::throws_at;
using testing::with;

// DRAM -> GB -> 4x4 mesh -> RF, the hardware of docs/HIERARCHY.md §3.2 (an RF that holds outputs
// and second operands only).
const std::string kHardware = with(fused_example::kHardware, "write_energy_pj: 0.5}",
                                   "write_energy_pj: 0.5,\n     holds: [output, operand1]}");

// Dimensions m, k, n are workload dimensions 0, 1, 2; tensors A, B, Z are bits 0, 1, 2.
const std::string kWorkload = R"(name: gemm-64
dims: {m: 64, k: 64, n: 64}
ops:
  - {name: gemm, einsum: "Z[m,n] += A[m,k] * B[k,n]"}
)";

// docs/HIERARCHY.md §3.2's single-operator example.
const std::string kMapping = R"(workload: gemm-64
segments:
  - ops: [gemm]
    levels:
      - {level: DRAM, order: [m, k, n], factors: {m: 2, k: 2, n: 2}}
      - {level: GB, order: [m, k, n], factors: {m: 2, k: 4, n: 2}, keep: [A, B, Z]}
      - {fanout: mesh, x: {n: 4}, y: {m: 4}}
      - {level: RF, order: [m, n, k], factors: {m: 4, n: 4, k: 8}, keep: [Z]}
)";

constexpr int kM = 0, kK = 1, kN = 2;

std::vector<HierSegmentMapping> load(const std::string &mapping,
                                     const std::string &hardware = kHardware,
                                     const std::string &workload = kWorkload) {
  return parse_hier_mapping(mapping, "map.yaml", parse_hardware(hardware, "hw.yaml"),
                            parse_workload(workload, "w.yaml"));
}

OpMapping only_mapping(const std::string &mapping, const std::string &workload = kWorkload) {
  const std::vector<HierSegmentMapping> segments = load(mapping, kHardware, workload);
  EXPECT_EQ(segments.size(), 1u);
  return segments.at(0).mapping;
}

::testing::AssertionResult fails(const std::string &mapping, const std::string &line_col,
                                 const std::string &message,
                                 const std::string &workload = kWorkload) {
  return throws_at([&] { load(mapping, kHardware, workload); }, "map.yaml:" + line_col, message);
}

TEST(HierMappingLoader, LoadsTheDesignExample) {
  const std::vector<HierSegmentMapping> segments = load(kMapping);
  ASSERT_EQ(segments.size(), 1u);
  EXPECT_EQ(segments[0].op, 0);
  EXPECT_EQ(segments[0].where.line, 3);
  const OpMapping &m = segments[0].mapping;
  ASSERT_EQ(m.levels.size(), 3u);
  EXPECT_EQ(m.levels[0].factor, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(m.levels[0].order, (std::vector<int>{kM, kK, kN}));
  EXPECT_EQ(m.levels[0].keep, 0b111u);
  EXPECT_EQ(m.levels[1].factor, (std::vector<std::int64_t>{2, 4, 2}));
  EXPECT_EQ(m.levels[1].order, (std::vector<int>{kM, kK, kN}));
  EXPECT_EQ(m.levels[1].keep, 0b111u);
  EXPECT_EQ(m.levels[2].factor, (std::vector<std::int64_t>{4, 8, 4}));
  EXPECT_EQ(m.levels[2].order, (std::vector<int>{kM, kN, kK}));
  EXPECT_EQ(m.levels[2].keep, 0b100u);
  ASSERT_EQ(m.fanouts.size(), 3u);
  EXPECT_TRUE(m.fanouts[0].empty());
  ASSERT_EQ(m.fanouts[1].size(), 1u);
  EXPECT_EQ(m.fanouts[1][0].x, (std::vector<std::int64_t>{1, 1, 4}));
  EXPECT_EQ(m.fanouts[1][0].y, (std::vector<std::int64_t>{4, 1, 1}));
  EXPECT_TRUE(m.fanouts[2].empty());
}

TEST(HierMappingLoader, BackingStoreFactorsMayBeLeftOut) {
  const OpMapping m = only_mapping(with(kMapping, ", factors: {m: 2, k: 2, n: 2}}", "}"));
  EXPECT_EQ(m.levels[0].factor, (std::vector<std::int64_t>{2, 2, 2}));
}

TEST(HierMappingLoader, BackingStorePadsTheDimension) {
  const OpMapping m = only_mapping(with(kMapping, ", factors: {m: 2, k: 2, n: 2}}", "}"),
                                   with(kWorkload, "m: 64", "m: 60"));
  EXPECT_EQ(m.levels[0].factor[kM], 2); // ceil(60 / 32)
}

TEST(HierMappingLoader, OrderKeepsOnlyLoops) {
  const std::string mapping = with(with(kMapping, ", factors: {m: 2, k: 2, n: 2}}", "}"),
                                   "factors: {m: 2, k: 4, n: 2}", "factors: {m: 4, k: 4, n: 1}");
  const OpMapping m = only_mapping(mapping, with(kWorkload, "n: 64", "n: 16"));
  EXPECT_EQ(m.levels[0].order, (std::vector<int>{kK})); // m and n have factor 1 at DRAM
  EXPECT_EQ(m.levels[1].order, (std::vector<int>{kM, kK}));
}

TEST(HierMappingLoader, OrderOfASingleLoopMayBeLeftOut) {
  const OpMapping m = only_mapping(
      with(kMapping, "order: [m, n, k], factors: {m: 4, n: 4, k: 8}", "factors: {k: 8}"),
      with(with(kWorkload, "m: 64", "m: 16"), "n: 64", "n: 16"));
  EXPECT_EQ(m.levels[2].order, (std::vector<int>{kK}));
}

TEST(HierMappingLoader, BypassNamesTheOtherTensors) {
  const OpMapping m = only_mapping(with(kMapping, "keep: [Z]", "bypass: [A, B]"));
  EXPECT_EQ(m.levels[2].keep, 0b100u);
}

TEST(HierMappingLoader, BackingStoreMayKeepEverythingExplicitly) {
  EXPECT_EQ(only_mapping(with(kMapping, "n: 2}}", "n: 2}, keep: [Z, A, B]}")).levels[0].keep,
            0b111u);
  EXPECT_EQ(only_mapping(with(kMapping, "n: 2}}", "n: 2}, bypass: []}")).levels[0].keep, 0b111u);
}

TEST(HierMappingLoader, ShippedExampleIsTimeloopsMapping) {
  const Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
  const Workload w = load_workload(repo_file("workloads/gemm-256.yaml"));
  const std::vector<HierSegmentMapping> segments =
      load_hier_mapping(repo_file("mappings/a16-gemm-256.yaml"), hw, w);
  ASSERT_EQ(segments.size(), 1u);
  const OpMapping &m = segments[0].mapping;
  // a16_M256_N256_K256_00: DRAM M16 N8 K1 (MNK), GlobalBuffer K32, mesh N16 on x and M16 on y,
  // RegisterFile N2 K8 (NMK) keeping Z.
  EXPECT_EQ(m.levels[0].factor, (std::vector<std::int64_t>{16, 1, 8}));
  EXPECT_EQ(m.levels[0].order, (std::vector<int>{kM, kN}));
  EXPECT_EQ(m.levels[1].factor, (std::vector<std::int64_t>{1, 32, 1}));
  EXPECT_EQ(m.levels[1].order, (std::vector<int>{kK}));
  EXPECT_EQ(m.levels[1].keep, 0b111u);
  EXPECT_EQ(m.fanouts[1][0].x, (std::vector<std::int64_t>{1, 1, 16}));
  EXPECT_EQ(m.fanouts[1][0].y, (std::vector<std::int64_t>{16, 1, 1}));
  EXPECT_EQ(m.levels[2].factor, (std::vector<std::int64_t>{1, 8, 2}));
  EXPECT_EQ(m.levels[2].order, (std::vector<int>{kN, kK}));
  EXPECT_EQ(m.levels[2].keep, 0b100u);
}

// Errors of the file and its segments.

TEST(HierMappingLoader, OtherWorkload) {
  EXPECT_TRUE(fails(with(kMapping, "workload: gemm-64", "workload: gemm-32"), "1:11",
                    "mapping is for workload 'gemm-32', not 'gemm-64'"));
}

TEST(HierMappingLoader, NoSegments) {
  EXPECT_TRUE(fails("segments: []\n", "1:11", "key 'segments' must list at least one segment"));
}

TEST(HierMappingLoader, TodaysMappingForm) {
  EXPECT_TRUE(fails("segments:\n  - ops: [gemm]\n    loops: {gemm: [m, n, k]}\n", "3:5",
                    "unknown key 'loops' in segment 1 (expected one of: ops, levels)"));
}

TEST(HierMappingLoader, ThreeOperators) {
  EXPECT_TRUE(fails(with(kMapping, "ops: [gemm]", "ops: [gemm, gemm, gemm]"), "3:10",
                    "segment 1: key 'ops' must name one operator or a fused producer and "
                    "consumer"));
}

TEST(HierMappingLoader, UnknownOperator) {
  EXPECT_TRUE(fails(with(kMapping, "ops: [gemm]", "ops: [mm]"), "3:11",
                    "segment 1: 'mm' is not an operator of workload 'gemm-64'"));
}

const std::string kWithSoftmax =
    kWorkload + "  - {name: sm, kind: softmax, over: n, tensor: Z, out: P}\n";

TEST(HierMappingLoader, OperatorIsNotAnEinsum) {
  EXPECT_TRUE(fails(with(kMapping, "ops: [gemm]", "ops: [sm]"), "3:11",
                    "segment 1: general hierarchies evaluate einsum operators only; 'sm' is a "
                    "softmax",
                    kWithSoftmax));
}

TEST(HierMappingLoader, OperatorMappedTwice) {
  const std::string body = kMapping.substr(kMapping.find("  - ops:"));
  EXPECT_TRUE(fails(kMapping + body, "9:11", "segment 2: operator 'gemm' is mapped twice"));
}

TEST(HierMappingLoader, OperatorNotMapped) {
  const std::string two_ops =
      with(kWorkload + "  - {name: g2, einsum: \"Y[m,l] += Z[m,n] * W[n,l]\"}\n", "n: 64}",
           "n: 64, l: 8}");
  EXPECT_TRUE(fails(kMapping, "3:3", "operator 'g2' is not mapped by any segment", two_ops));
}

// Errors of the list of levels and fan-outs.

TEST(HierMappingLoader, MissingEntry) {
  EXPECT_TRUE(fails(with(kMapping,
                         "      - {level: RF, order: [m, n, k], factors: {m: 4, n: 4, "
                         "k: 8}, keep: [Z]}\n",
                         ""),
                    "5:7",
                    "segment 1: missing level 'RF' (levels lists every level and fan-out of the "
                    "hardware, in order)"));
}

TEST(HierMappingLoader, EntryOutOfOrder) {
  EXPECT_TRUE(fails(with(kMapping, "      - {fanout: mesh, x: {n: 4}, y: {m: 4}}\n", ""), "7:17",
                    "segment 1: expected fan-out 'mesh' (the hardware's levels and fan-outs, in "
                    "order), got level 'RF'"));
}

TEST(HierMappingLoader, ExtraEntry) {
  EXPECT_TRUE(fails(kMapping + "      - {level: L0, keep: [Z]}\n", "9:17",
                    "segment 1: unexpected level 'L0': the hardware ends with level 'RF'"));
}

TEST(HierMappingLoader, UnknownLevelKey) {
  EXPECT_TRUE(fails(with(kMapping, "keep: [A, B, Z]", "keep: [A, B, Z], tiles: {}"), "6:85",
                    "unknown key 'tiles' in level 'GB' (expected one of: level, order, factors, "
                    "keep, bypass)"));
}

TEST(HierMappingLoader, UnknownFanoutKey) {
  EXPECT_TRUE(fails(with(kMapping, "x: {n: 4}", "factors: {n: 4}"), "7:24",
                    "unknown key 'factors' in fan-out 'mesh' (expected one of: fanout, x, y)"));
}

// Errors of factors and orders.

TEST(HierMappingLoader, FactorOfAnotherDimension) {
  EXPECT_TRUE(fails(with(kMapping, "{m: 2, k: 4, n: 2}", "{m: 2, k: 4, n: 2, l: 1}"), "6:67",
                    "factors of level 'GB': 'l' is not a dimension of operator 'gemm'"));
}

TEST(HierMappingLoader, ZeroFactor) {
  EXPECT_TRUE(fails(with(kMapping, "{m: 2, k: 4, n: 2}", "{m: 0, k: 4, n: 2}"), "6:52",
                    "factors of level 'GB': m must be a positive integer, got 0"));
}

TEST(HierMappingLoader, OrderNamesAnotherDimension) {
  EXPECT_TRUE(fails(with(kMapping, "{level: GB, order: [m, k, n]", "{level: GB, order: [m, q, n]"),
                    "6:32", "level 'GB': 'q' is not a dimension of operator 'gemm'"));
}

TEST(HierMappingLoader, DimensionTwiceInOrder) {
  EXPECT_TRUE(fails(with(kMapping, "{level: GB, order: [m, k, n]", "{level: GB, order: [m, k, m]"),
                    "6:35", "level 'GB': 'm' appears twice in order"));
}

TEST(HierMappingLoader, OrderLeavesOutALoop) {
  EXPECT_TRUE(fails(with(kMapping, "{level: GB, order: [m, k, n]", "{level: GB, order: [m, n]"),
                    "6:28",
                    "level 'GB': order must list every dimension with a factor above 1 at this "
                    "level; it leaves out 'k'"));
}

TEST(HierMappingLoader, OrderLeftOutWithSeveralLoops) {
  EXPECT_TRUE(fails(with(kMapping, "{level: GB, order: [m, k, n], ", "{level: GB, "), "6:9",
                    "level 'GB': missing required key 'order' (more than one dimension has a "
                    "factor above 1 at this level: 'm', 'n', 'k')"));
}

TEST(HierMappingLoader, FactorsBeyondTheDimension) {
  EXPECT_TRUE(fails(with(kMapping, "{m: 4, n: 4, k: 8}", "{m: 16, n: 4, k: 8}"), "5:7",
                    "segment 1: the factors of 'm' below the backing store multiply to more than "
                    "its size (64)"));
}

TEST(HierMappingLoader, WrongBackingStoreFactor) {
  EXPECT_TRUE(fails(with(kMapping, "{m: 2, k: 2, n: 2}", "{m: 4, k: 2, n: 2}"), "5:54",
                    "level 'DRAM': factor of 'm' must be ceil(64 / 32) = 2 (its size over the "
                    "factors below), got 4"));
}

// Errors of keep and bypass.

TEST(HierMappingLoader, KeepAndBypass) {
  EXPECT_TRUE(fails(with(kMapping, "keep: [Z]", "keep: [Z], bypass: [A]"), "8:79",
                    "level 'RF': give either 'keep' or 'bypass', not both"));
}

TEST(HierMappingLoader, NeitherKeepNorBypass) {
  EXPECT_TRUE(fails(with(kMapping, ", keep: [Z]", ""), "8:9",
                    "level 'RF': missing required key 'keep' (or 'bypass')"));
}

TEST(HierMappingLoader, KeepNamesAnotherTensor) {
  EXPECT_TRUE(fails(with(kMapping, "keep: [A, B, Z]", "keep: [A, X, Z]"), "6:78",
                    "level 'GB': 'X' is not a tensor of operator 'gemm'"));
}

TEST(HierMappingLoader, TensorTwiceInKeep) {
  EXPECT_TRUE(fails(with(kMapping, "keep: [A, B, Z]", "keep: [A, B, A]"), "6:81",
                    "level 'GB': 'A' appears twice in keep"));
}

TEST(HierMappingLoader, BackingStoreBypasses) {
  EXPECT_TRUE(fails(with(kMapping, "n: 2}}", "n: 2}, bypass: [A]}"), "5:78",
                    "level 'DRAM': the backing store keeps every tensor; this bypass leaves out "
                    "'A'"));
}

TEST(HierMappingLoader, KeepOutsideHolds) {
  EXPECT_TRUE(fails(with(kMapping, "keep: [Z]", "keep: [Z, A]"), "8:74",
                    "level 'RF': cannot keep 'A' (operand0): the level holds output, operand1"));
}

// Errors of spatial factors.

TEST(HierMappingLoader, SpatialFactorsBeyondTheAxis) {
  EXPECT_TRUE(fails(with(kMapping, "x: {n: 4}", "x: {n: 4, k: 2}"), "7:27",
                    "fan-out 'mesh': the x factors multiply to more than the fan-out's x (4)"));
}

TEST(HierMappingLoader, ReductionAcrossAFanoutWithoutReduction) {
  const std::string hardware = with(kHardware, "x: 4, y: 4}", "x: 4, y: 4, reduction: false}");
  const std::string mapping =
      with(with(kMapping, "x: {n: 4}", "x: {k: 4}"), "{m: 2, k: 4, n: 2}", "{m: 2, k: 1, n: 8}");
  EXPECT_TRUE(throws_at([&] { load(mapping, hardware); }, "map.yaml:7:9",
                        "fan-out 'mesh': 'k' does not index the output of 'gemm', and the fan-out "
                        "has reduction: false"));
}

} // namespace
} // namespace dse
