// Emitted kernels of pairs fused through windows: every halo recomputed or kept in its overlap
// store, strided and padded windows, the producer's input held per step or across the halo's
// loop; outputs equal the reference and every DRAM word and MAC equals the model's count.
#include "codegen/kernel_fixture.hpp"

#include "dse/codegen/kernel_plan.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"

namespace dse::codegen_test {
namespace {

// A "same" 3x3 convolution, then a 3x3 one at stride 2 along a (padded by 1) and 1 along b
// (padded by 1 in `kSame`, none in `kValid`, where the overlap along b can be kept on chip).
std::string window_pair(bool same) {
  return std::string("name: window-pair\ndims: {p: 7, q: 9, c: 3, k: 4, r: 3, s: 3, j: 5, a: 4, "
                     "b: ") +
         (same ? "9" : "7") +
         ", u: 3, v: 3}\nops:\n"
         "  - {name: conv, einsum: \"Y[k,p,q] += W1[k,c,r,s] * X[c,p+r-1,q+s-1]\"}\n"
         "  - {name: down, einsum: \"Z[j,a,b] += W2[j,k,u,v] * Y[k,2*a+u-1,b+v" +
         (same ? "-1" : "") + "]\"}\n";
}
const std::string kSame = window_pair(true);
const std::string kValid = window_pair(false);

Hardware hardware() { return parse_hardware(vector_hardware(8192), "test-hw.yaml"); }

std::string fused(const std::string &prefix, const std::string &retention, const std::string &tiles,
                  const std::string &cache,
                  const std::string &loops = "conv: [k, c], down: [j, k]") {
  return mapping("window-pair", {segment("[conv, down]", prefix, loops, retention, tiles) +
                                 (cache.empty() ? "" : "    cache: " + cache + "\n")});
}

const std::string kTiles = "a: 2, b: 4, k: 2, c: 3, j: 5";

constexpr double kMacsPerPosition = 4 * 3 * 3 * 3; // k, c, r, s

/// A 1x1 convolution (c -> k channels) then a valid 3x3 one (k -> j) over 12 x 10 positions.
std::string bottleneck(int c, int k, int j) {
  return "name: bottleneck\ndims: {c: " + std::to_string(c) + ", k: " + std::to_string(k) +
         ", p: 12, q: 10, j: " + std::to_string(j) +
         ", a: 10, b: 8, u: 3, v: 3}\nops:\n"
         "  - {name: reduce, einsum: \"Y[k,p,q] += W1[k,c] * X[c,p,q]\"}\n"
         "  - {name: conv, einsum: \"Z[j,a,b] += W2[j,k,u,v] * Y[k,a+u,b+v]\"}\n";
}

TEST(HaloKernel, EveryHaloRecomputed) {
  const Schedule s(kSame, fused("[a, b]", "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", kTiles, ""));
  const KernelOutcome k = expect_matches_model("halos recomputed", s.segments(), hardware());
  // Windows along a: [-1, 4) and [3, 8) clipped to Y's 7 positions: 4 + 4. Along b: [-1, 5),
  // [3, 9) and [7, 13) clipped to 9: 5 + 6 + 2.
  EXPECT_EQ(measured(k, "conv", "macs"), 8 * 13 * kMacsPerPosition);
}

TEST(HaloKernel, CachedAlongOneDim) {
  const Schedule s(kValid, fused("[a, b]", "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", kTiles, "[b]"));
  expect_matches_model("cached along b", s.segments(), hardware());
}

TEST(HaloKernel, CachedAlongBothDims) {
  const Schedule s(kValid, fused("[a, b]", "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", kTiles, "[a, b]"));
  const KernelOutcome k = expect_matches_model("cached along a and b", s.segments(), hardware());
  EXPECT_EQ(measured(k, "conv", "macs"), 7 * 9 * kMacsPerPosition); // each position of Y once
}

TEST(HaloKernel, TwoCoresSplitTheProducersPositions) {
  // 64 x 32 MACs per position, windows of 5 x 6: the producer's tiles run on both cores.
  const Schedule s(
      bottleneck(32, 64, 16),
      mapping("bottleneck",
              {segment("[reduce, conv]", "[a, b]", "reduce: [k, c], conv: [j, k]",
                       "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", "a: 3, b: 4, k: 64, c: 32, j: 16") +
               "    cache: [a, b]\n"}));
  expect_matches_model("two cores", s.segments(),
                       parse_hardware(vector_hardware(65536, 2), "test-hw.yaml"));
}

TEST(HaloKernel, InputHeldAcrossTheHaloLoops) {
  // X whole in the arena: one box of the positions computed, loaded once.
  const Schedule s(kValid, fused("[a, b]", "X: 0, W1: 0, Y: 2, W2: 0, Z: 2", kTiles, "[b]"));
  const KernelOutcome k = expect_matches_model("input held", s.segments(), hardware());
  EXPECT_EQ(measured(k, "X", "reads"), 3 * 9 * 11); // Y's 7 x 9 positions and their windows
}

TEST(HaloKernel, StoreKeptAcrossARecomputeLoop) {
  // j between a and b: Y is recomputed per j tile, each time from the overlap along a of the
  // step before, which the store takes at j's last trip only.
  const Schedule s(kValid,
                   fused("[a, j, b]", "X: 3, W1: 0, Y: 3, W2: 2, Z: 3",
                         "a: 1, b: 2, k: 4, c: 3, j: 2", "[a, b]", "conv: [k, c], down: [k]"));
  const KernelOutcome k = expect_matches_model("store across j", s.segments(), hardware());
  EXPECT_EQ(measured(k, "conv", "macs"), 3 * 7 * 9 * kMacsPerPosition); // three j tiles
}

TEST(HaloKernel, EveryFrontPointOfABottleneck) {
  // What explore picks for a 1x1 -> 3x3 pair: its tiles, caches and retention.
  const Hardware hw = parse_hardware(vector_hardware(2048), "test-hw.yaml");
  const Front front(bottleneck(8, 8, 8), hw);
  ASSERT_GE(front.size(), 1u);
  bool fused_point = false;
  for (size_t p = 0; p < front.size(); ++p) {
    const std::vector<KernelSegment> point = front.point(p);
    fused_point = fused_point || point.front().problem->fused();
    expect_matches_model("bottleneck front point " + std::to_string(p), point, hw);
  }
  EXPECT_TRUE(fused_point);
}

// A residual block: two "same" 3x3 convolutions, the second's output starting from the block's
// input.
const char *const kResidualBlock = R"(name: residual-block
dims: {c: 4, p: 7, q: 6, r: 3, s: 3, k: 4, u: 3, v: 3}
ops:
  - {name: conv1, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r-1,q+s-1]"}
  - {name: conv2, einsum: "Z[c,p,q] += W2[c,k,u,v] * Y[k,p+u-1,q+v-1]", residual: X}
)";

TEST(HaloKernel, ResidualBlockFusedAndAlone) {
  const Schedule fused(
      kResidualBlock,
      mapping("residual-block",
              {segment("[conv1, conv2]", "[p, q]", "conv1: [k, c], conv2: [k, c]",
                       "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", "p: 3, q: 4, k: 4, c: 2")}));
  const KernelOutcome k =
      expect_matches_model("residual block fused", fused.segments(), hardware());
  EXPECT_EQ(measured(k, "X (residual)", "reads"), 4 * 9 * 8); // Z padded to 9 x 8, read once
  // The second convolution alone, its partial sums spilled across k: the residual still once.
  const Schedule alone(
      kResidualBlock,
      mapping("residual-block", {segment("[conv1]", "", "conv1: [k, p, q, c]", "X: 4, W1: 1, Y: 3",
                                         "p: 7, q: 6, c: 4, k: 4"),
                                 segment("[conv2]", "", "conv2: [k, p, q, c]", "Y: 3, W2: 1, Z: 3",
                                         "p: 7, q: 6, k: 2, c: 4")}));
  const KernelOutcome a =
      expect_matches_model("residual block alone", alone.segments(), hardware());
  EXPECT_EQ(measured(a, "X (residual)", "reads"), 4 * 7 * 6);
  EXPECT_EQ(measured(a, "Z", "reads"), 4 * 7 * 6); // the second k pass reads partial sums back
  // X held above the shared loop over q (or whole): each output position starts from the X the
  // first convolution read, no word of the residual from DRAM.
  for (const char *x : {"X: 1", "X: 0"}) {
    const Schedule held(kResidualBlock,
                        mapping("residual-block",
                                {segment("[conv1, conv2]", "[p, q]", "conv1: [k, c], conv2: [k, c]",
                                         std::string(x) + ", W1: 0, Y: 2, W2: 0, Z: 2",
                                         "p: 3, q: 4, k: 4, c: 2")}));
    const KernelOutcome h =
        expect_matches_model(std::string("residual block held, ") + x, held.segments(), hardware());
    EXPECT_EQ(measured(h, "X (residual)", "reads"), 0);
  }
}

TEST(HaloKernel, ArenaPeakIsTheModelsBufferNeed) {
  // Overlap stores included: along b around its loop, along a across the whole width.
  for (const char *cache : {"", "[b]", "[a, b]"}) {
    const Schedule s(kValid, fused("[a, b]", "X: 2, W1: 0, Y: 2, W2: 0, Z: 2", kTiles, cache));
    const KernelSegment seg = s.segments().at(0);
    const SegmentPlan plan =
        plan_segment(*seg.problem, seg.candidate, seg.tiling, codegen_target(hardware()));
    EXPECT_EQ(static_cast<double>(plan.peak_words),
              evaluate_mapping(*seg.problem, seg.candidate, seg.tiling, hardware(),
                               LatencyModel::Roofline)
                  .totals.buffer_words)
        << "cache " << cache;
  }
}

} // namespace
} // namespace dse::codegen_test
