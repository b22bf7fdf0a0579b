// Emitted GEMM and GEMM-pair kernels: front points and hand-written mappings covering every
// retention variant (whole tensors, streamed tiles, partial-sum spills, padded tiles), fused with
// and without recompute and unfused, on one and two cores. Each kernel is compiled, checked
// against the reference and counted against the model.
#include "codegen/kernel_fixture.hpp"

#include "dse/config/hardware_loader.hpp"

namespace dse::codegen_test {
namespace {

const std::string kGemm = test_common::gemm_workload("gemm", 40, 24, 36);
const std::string kPair = test_common::gemm_pair_workload("pair", 24, 16, 20, 18);

Hardware hardware(std::int64_t gb_words, int cores = 1) {
  return parse_hardware(vector_hardware(gb_words, cores), "test-hw.yaml");
}

KernelOutcome expect_gemm(const std::string &title, const std::string &loops,
                          const std::string &retention, const std::string &tiles) {
  const Schedule s(kGemm, mapping("gemm", {segment("[mm]", "", loops, retention, tiles)}));
  return expect_matches_model(title, s.segments(), hardware(4096));
}

TEST(GemmKernel, StreamedTilesOutputKeptAcrossTheReduction) {
  const KernelOutcome k =
      expect_gemm("gemm streamed", "mm: [m, n, k]", "A: 3, B: 3, C: 2", "m: 8, n: 12, k: 8");
  EXPECT_EQ(measured(k, "C", "reads"), 0);
  EXPECT_EQ(measured(k, "C", "writes"), 40 * 36);
}

TEST(GemmKernel, WholeTensorsAtDepthZeroWithPaddedTiles) {
  const KernelOutcome k =
      expect_gemm("gemm whole", "mm: [m, n, k]", "A: 0, B: 0, C: 0", "m: 16, n: 12, k: 8");
  EXPECT_EQ(measured(k, "A", "reads"), 48 * 24); // m padded to 48
  EXPECT_EQ(measured(k, "mm", "macs"), 48 * 24 * 36);
}

TEST(GemmKernel, PartialSumsSpillWhenTheReductionIsOutside) {
  const KernelOutcome k =
      expect_gemm("gemm spill", "mm: [k, m, n]", "A: 2, B: 1, C: 3", "m: 16, n: 12, k: 8");
  EXPECT_EQ(measured(k, "C", "writes"), 3 * 48 * 36); // every k pass writes the padded output
  EXPECT_EQ(measured(k, "C", "reads"), 2 * 48 * 36);  // and reads it back but for the first
}

TEST(GemmKernel, NonDivisorTilesAreCountedPadded) {
  expect_gemm("gemm non-divisor", "mm: [n, k, m]", "A: 3, B: 2, C: 1", "m: 7, n: 10, k: 5");
}

TEST(GemmKernel, FrontPointsAtBothEnds) {
  const Hardware hw = hardware(1024);
  const Front front(kGemm, hw);
  ASSERT_GE(front.size(), 2u);
  expect_matches_model("gemm front point 0", front.point(0), hw);
  expect_matches_model("gemm last front point", front.point(front.size() - 1), hw);
}

TEST(GemmKernel, PackedPanelsOnTwoCores) {
  // Tiles of 128 rows and columns are packed in register-row and lane panels; the edge tiles
  // of m, n and k are padded; two cores split each tile's blocks.
  const std::string big = test_common::gemm_workload("big", 200, 40, 250);
  const Schedule s(big, mapping("big", {segment("[mm]", "", "mm: [m, n, k]", "A: 3, B: 3, C: 2",
                                                "m: 128, n: 128, k: 16")}));
  expect_matches_model("gemm in panels on two cores", s.segments(), hardware(32768, 2));
}

TEST(GemmPairKernel, FusedIntermediateStaysInTheArena) {
  const Schedule s(
      kPair, mapping("pair", {segment("[mm1, mm2]", "[m]", "mm1: [n, k], mm2: [l, n]",
                                      "A: 1, B: 3, C: 1, D: 3, E: 2", "m: 8, n: 6, k: 16, l: 9")}));
  expect_matches_model("gemm pair fused", s.segments(), hardware(4096));
}

TEST(GemmPairKernel, FusedWithRecomputeOfTheIntermediate) {
  const Schedule s(
      kPair, mapping("pair", {segment("[mm1, mm2]", "[l, m]", "mm1: [n, k], mm2: [n]",
                                      "A: 2, B: 0, C: 2, D: 1, E: 2", "m: 8, n: 20, k: 8, l: 6")}));
  const KernelOutcome k =
      expect_matches_model("gemm pair fused, recompute", s.segments(), hardware(4096));
  EXPECT_EQ(measured(k, "mm1", "macs"), 3 * 24 * 16 * 20); // once per trip of l
  EXPECT_EQ(measured(k, "C", "reads") + measured(k, "C", "writes"), 0);
}

TEST(GemmPairKernel, UnfusedIntermediateGoesThroughDram) {
  const Schedule s(
      kPair,
      mapping("pair",
              {segment("[mm2]", "", "mm2: [l, m, n]", "C: 3, D: 3, E: 2", "m: 8, n: 5, l: 9"),
               segment("[mm1]", "", "mm1: [m, n, k]", "A: 3, B: 3, C: 2", "m: 8, n: 7, k: 16")}));
  const KernelOutcome k = expect_matches_model("gemm pair unfused", s.segments(), hardware(4096));
  EXPECT_GT(measured(k, "C", "writes"), 0);
  EXPECT_GT(measured(k, "C", "reads"), 0);
}

} // namespace
} // namespace dse::codegen_test
