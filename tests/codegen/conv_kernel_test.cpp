// Emitted convolution kernels: halo tiles, a strided convolution with partial-sum spills, and a
// 3x3 -> 1x1 chain fused with and without recompute, compiled, checked and counted.
#include "codegen/kernel_fixture.hpp"

#include "dse/config/hardware_loader.hpp"

namespace dse::codegen_test {
namespace {

const char *const kConvPair = R"(name: conv-pair
dims: {p: 6, q: 10, c: 3, k: 4, r: 3, s: 2, j: 5}
ops:
  - {name: conv, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]"}
  - {name: pw, einsum: "Z[j,p,q] += W2[j,k] * Y[k,p,q]"}
)";

const char *const kStrided = R"(name: strided
dims: {k: 6, c: 3, p: 9, r: 3}
ops:
  - {name: conv, einsum: "Y[k,p] += W[k,c,r] * X[c,2*p+r]"}
)";

const char *const kPaddedPair = R"(name: padded-pair
dims: {p: 7, q: 9, c: 3, k: 4, r: 3, s: 3, j: 5, u: 3, v: 3}
ops:
  - {name: conv, einsum: "Y[k,p,q] += W1[k,c,r,s] * X[c,p+r-1,q+s-1]"}
  - {name: down, einsum: "Z[j,p,q] += W2[j,k,u,v] * Y[k,2*p+u-1,q+v-1]"}
)";

Hardware hardware() { return parse_hardware(vector_hardware(4096), "test-hw.yaml"); }

TEST(ConvKernel, HaloTilesOfPaddedOutputs) {
  const Schedule s(kConvPair,
                   mapping("conv-pair", {segment("[conv]", "", "conv: [k, p, q, c]",
                                                 "X: 4, W1: 1, Y: 3", "p: 4, q: 5, c: 3, k: 2"),
                                         segment("[pw]", "", "pw: [j, p, q, k]",
                                                 "Y: 4, W2: 0, Z: 3", "p: 6, q: 10, k: 4, j: 5")}));
  const KernelOutcome k = expect_matches_model("conv with halo", s.segments(), hardware());
  // X tiles are (c 3) x (4 + 3 - 1) x (5 + 2 - 1), once per (k, p, q, c) tile: 2 x 2 x 2 x 1.
  EXPECT_EQ(measured(k, "X", "reads"), 8 * 3 * 6 * 6);
}

TEST(ConvKernel, StridedWithPartialSumSpills) {
  const Schedule s(kStrided, mapping("strided", {segment("[conv]", "", "conv: [c, p, k]",
                                                         "W: 3, X: 2, Y: 3", "c: 1, p: 4, k: 4")}));
  const KernelOutcome k = expect_matches_model("strided conv", s.segments(), hardware());
  EXPECT_EQ(measured(k, "Y", "reads"), 2 * 8 * 12); // two of the three c passes read back
}

TEST(ConvKernel, PaddedWindowsReadZerosOutsideTheirInputs) {
  // "Same" 3x3 padding, then a stride-2 layer padded on both sides of its input from DRAM.
  const Schedule s(kPaddedPair, mapping("padded-pair",
                                        {segment("[conv]", "", "conv: [k, p, q, c]",
                                                 "X: 4, W1: 1, Y: 3", "p: 4, q: 5, c: 3, k: 2"),
                                         segment("[down]", "", "down: [j, p, q, k]",
                                                 "Y: 4, W2: 0, Z: 3", "p: 2, q: 9, k: 4, j: 5")}));
  const KernelOutcome k = expect_matches_model("padded convs", s.segments(), hardware());
  // X boxes of (c 3) x (4 + 2) x (5 + 2) words, padding included, per (k, p, q) tile: 2 x 2 x 2.
  EXPECT_EQ(measured(k, "X", "reads"), 8 * 3 * 6 * 7);
}

TEST(ConvChainKernel, FusedWithoutRecompute) {
  const Schedule s(kConvPair,
                   mapping("conv-pair", {segment("[conv, pw]", "[p, q]", "conv: [k, c], pw: [j, k]",
                                                 "X: 2, W1: 0, Y: 2, W2: 4, Z: 3",
                                                 "p: 3, q: 4, k: 2, c: 3, j: 5")}));
  expect_matches_model("conv chain fused", s.segments(), hardware());
}

TEST(ConvChainKernel, FusedWithRecomputeOfTheIntermediate) {
  const Schedule s(kConvPair,
                   mapping("conv-pair", {segment("[conv, pw]", "[j, p, q]", "conv: [k, c], pw: [k]",
                                                 "X: 3, W1: 5, Y: 3, W2: 1, Z: 3",
                                                 "p: 3, q: 5, k: 4, c: 3, j: 2")}));
  const KernelOutcome k =
      expect_matches_model("conv chain fused, recompute", s.segments(), hardware());
  EXPECT_EQ(measured(k, "conv", "macs"), 3 * 4 * 6 * 10 * 3 * 3 * 2); // j has 3 trips
}

} // namespace
} // namespace dse::codegen_test
