// Emitted kernels of fused chains of three and more: GEMM chains, convolution stacks whose
// windows compose down the chain (every link's halo recomputed or kept on chip), padded and
// strided, and the chains of a branching block; outputs equal the reference and every DRAM word
// and MAC equals the model's count.
#include "codegen/kernel_fixture.hpp"

#include "dse/config/hardware_loader.hpp"
#include "model/test_workloads.hpp"

namespace dse::codegen_test {
namespace {

Hardware hardware() { return parse_hardware(vector_hardware(8192), "test-hw.yaml"); }

// Two windows composed: Y1 is read through a+u, Y2 through b+v (three steps of b).
const char *const kStack = test_workloads::kWindowChain1d;

std::string stack_mapping(const std::string &cache) {
  return mapping(
      "window-chain-1d",
      {segment("[conv1, conv2, conv3]", "[b]", "conv1: [k, c], conv2: [j, k], conv3: [i, j]",
               "X: 1, W1: 0, Y1: 1, W2: 0, Y2: 1, W3: 0, Z: 1", "b: 1, k: 2, c: 2, j: 2, i: 2") +
       (cache.empty() ? "" : "    cache: " + cache + "\n")});
}

TEST(ChainKernel, ComposedWindowsEveryCacheChoice) {
  // Y1's windows follow what conv2 computes of Y2's, which follow conv3's tiles.
  for (const char *cache : {"", "{Y1: [b]}", "{Y2: [b]}", "{Y1: [b], Y2: [b]}"}) {
    const Schedule s(kStack, stack_mapping(cache));
    expect_matches_model(std::string("stack, cache ") + cache, s.segments(), hardware());
  }
}

TEST(ChainKernel, EveryPositionOnceWhenEveryLinkCaches) {
  const Schedule s(kStack, stack_mapping("{Y1: [b], Y2: [b]}"));
  const KernelOutcome k = expect_matches_model("stack, all cached", s.segments(), hardware());
  EXPECT_EQ(measured(k, "conv1", "macs"), 5 * 2 * 2 * 2); // Y1's 5 positions once
  EXPECT_EQ(measured(k, "conv2", "macs"), 4 * 2 * 2 * 2);
}

TEST(ChainKernel, EveryFrontPointOfAStack) {
  // What explore picks with runs of three on 96 words: two windows, then a 1x1, fused in pairs
  // or whole, each halo recomputed or cached.
  const Hardware hw = parse_hardware(vector_hardware(96), "test-hw.yaml");
  const Front front(test_common::conv_stack_1d_workload("conv-stack"), hw);
  ASSERT_GE(front.size(), 2u);
  size_t longest = 0;
  for (size_t p = 0; p < front.size(); ++p) {
    const std::vector<KernelSegment> point = front.point(p);
    for (const KernelSegment &seg : point)
      longest = std::max(longest, seg.problem->ops.size());
    expect_matches_model("stack front point " + std::to_string(p), point, hw);
  }
  EXPECT_EQ(longest, 3u);
}

// Attention fed by its projections of one input: stacked siblings write their results as slices
// of the stack's, which the chains after them read in place.
const char *const kProjectedBlock = R"(name: projected
dims: {m: 6, n: 6, d: 4, k: 2, l: 2}
ops:
  - {name: q, einsum: "Q[m,k] += X[m,d] * Wq[d,k]"}
  - {name: k, einsum: "K[n,k] += X[n,d] * Wk[d,k]"}
  - {name: v, einsum: "V[n,l] += X[n,d] * Wv[d,l]"}
  - {name: qk, einsum: "S[m,n] += Q[m,k] * K[n,k]"}
  - {name: pv, einsum: "O[m,l] += S[m,n] * V[n,l]"}
)";

TEST(ChainKernel, EveryFrontPointOfABranchingBlock) {
  // qk reads two projections and pv reads qk's result and a third: each front point runs one
  // split of the einsums into chains, the results left out of a chain through DRAM.
  const Hardware hw = parse_hardware(vector_hardware(96), "test-hw.yaml");
  const Front front(kProjectedBlock, hw);
  ASSERT_GE(front.size(), 1u);
  for (size_t p = 0; p < front.size(); ++p)
    expect_matches_model("block front point " + std::to_string(p), front.point(p), hw);
}

TEST(ChainKernel, EveryFrontPointOfABlockWithStackedProjections) {
  const Hardware hw = parse_hardware(vector_hardware(96), "test-hw.yaml");
  const Front front(kProjectedBlock, hw, Stacking::Siblings);
  bool stacked = false;
  for (size_t p = 0; p < front.size(); ++p) {
    const std::vector<KernelSegment> point = front.point(p);
    for (const KernelSegment &seg : point)
      stacked = stacked || seg.problem->op(0).stacked.size() > 0;
    expect_matches_model("projected block front point " + std::to_string(p), point, hw);
  }
  EXPECT_TRUE(stacked);
}

TEST(ChainKernel, EachStackOfTheProjections) {
  // The three projections stacked, X's tile held across the stack index or read again per
  // projection, and two of them stacked with the third fused into its reader.
  const std::string qk = segment("[qk, pv]", "[m]", "qk: [n, k], pv: [l, n]",
                                 "Q: 1, K: 0, S: 1, V: 0, O: 1", "m: 2, n: 6, k: 2, l: 2");
  const std::string single_pv =
      segment("[pv]", "", "pv: [m, l, n]", "S: 3, V: 3, O: 2", "m: 2, n: 3, l: 2");
  // q+k+v stacks over `stack`, then q+k, q+v and k+v over stack2, stack3 and stack4.
  const auto stack = [](const std::string &name, const std::string &tiles, const std::string &loops,
                        const std::string &retention) {
    return segment("[" + name + "]", "", name + ": " + loops, retention, tiles);
  };
  const auto q_proj = segment("[q, qk]", "[m]", "q: [k, d], qk: [n, k]",
                              "X: 1, Wq: 0, Q: 1, K: 0, S: 1", "m: 2, d: 4, k: 2, n: 6");
  struct Case {
    std::string label, mapping;
  };
  const std::vector<Case> cases{
      {"q+k+v, X held across the stack",
       mapping("projected", {stack("q+k+v", "m: 2, d: 2, k: 2, stack: 3", "[m, d, stack, k]",
                                   "X: 2, Wq+Wk+Wv: 4, Q+K+V: 1"),
                             qk})},
      {"q+k+v, X read per projection",
       mapping("projected", {stack("q+k+v", "m: 2, d: 2, k: 2, stack: 1", "[stack, m, k, d]",
                                   "X: 4, Wq+Wk+Wv: 4, Q+K+V: 3"),
                             qk})},
      {"k+v, q fused into qk",
       mapping("projected", {stack("k+v", "n: 3, d: 4, k: 1, stack4: 2", "[n, d, stack4, k]",
                                   "X: 2, Wk+Wv: 4, K+V: 1"),
                             q_proj, single_pv})},
  };
  std::vector<double> x_reads;
  for (const Case &c : cases) {
    const Schedule s(kProjectedBlock, c.mapping);
    x_reads.push_back(
        measured(expect_matches_model(c.label, s.segments(), hardware()), "X", "reads"));
  }
  EXPECT_EQ(x_reads[0], 6 * 4);     // once
  EXPECT_EQ(x_reads[1], 3 * 6 * 4); // per projection
  EXPECT_EQ(x_reads[2], 2 * 6 * 4); // by k+v, and by q
}

TEST(ChainKernel, PaddedStackThenPointwise) {
  // 3x3 "same", 3x3 at stride 2 padded, then a 1x1 reading Y2 bare: one halo link, two dims.
  const char *const workload = R"(name: bottleneck
dims: {c: 2, k: 3, p: 9, q: 7, r: 3, s: 3, j: 4, a: 5, b: 5, u: 3, v: 3, l: 3}
ops:
  - {name: conv1, einsum: "Y1[k,p,q] += W1[k,c,r,s] * X[c,p+r-1,q+s-1]"}
  - {name: conv2, einsum: "Y2[j,a,b] += W2[j,k,u,v] * Y1[k,2*a+u-1,b+v]"}
  - {name: point, einsum: "Y3[l,a,b] += W3[l,j] * Y2[j,a,b]"}
)";
  for (const char *cache : {"", "{Y1: [a, b]}"}) {
    const Schedule s(
        workload,
        mapping("bottleneck",
                {segment("[conv1, conv2, point]", "[a, b]",
                         "conv1: [k, c], conv2: [j, k], point: [l, j]",
                         "X: 2, W1: 0, Y1: 2, W2: 0, Y2: 2, W3: 0, Y3: 2",
                         "a: 2, b: 3, k: 3, c: 2, j: 4, l: 3") +
                 (std::string(cache).empty() ? "" : std::string("    cache: ") + cache + "\n")}));
    expect_matches_model(std::string("padded bottleneck, cache ") + cache, s.segments(),
                         hardware());
  }
}

TEST(ChainKernel, FourOperatorsWindowsThroughABareLink) {
  // op4's window composes through op3 (pointwise) and op2's window: every link has a halo on b.
  for (const char *cache : {"", "{Y3: [b]}", "{Y1: [b], Y3: [b]}", "{Y1: [b], Y2: [b], Y3: [b]}"}) {
    const Schedule s(
        test_workloads::kChain4,
        mapping("chain-4",
                {segment("[op1, op2, op3, op4]", "[b]",
                         "op1: [k, c], op2: [j, k], op3: [i, j], op4: [h, i]",
                         "X: 1, W1: 0, Y1: 1, W2: 0, Y2: 1, W3: 0, Y3: 1, "
                         "W4: 0, Z: 1",
                         "b: 1, k: 2, c: 2, j: 2, i: 2, h: 2") +
                 (std::string(cache).empty() ? "" : std::string("    cache: ") + cache + "\n")}));
    expect_matches_model(std::string("chain of four, cache ") + cache, s.segments(), hardware());
  }
}

TEST(ChainKernel, GemmChainOfFourWithRecompute) {
  const char *const workload = R"(name: gemms
dims: {m: 12, k: 8, n: 8, o: 8, l: 8, z: 6}
ops:
  - {name: mm1, einsum: "Y1[m,n] += X[m,k] * W1[k,n]"}
  - {name: mm2, einsum: "Y2[m,o] += Y1[m,n] * W2[n,o]"}
  - {name: mm3, einsum: "Y3[m,l] += Y2[m,o] * W3[o,l]"}
  - {name: mm4, einsum: "Y4[m,z] += Y3[m,l] * W4[l,z]"}
)";
  // z in the prefix: every earlier operator reruns per z tile.
  const Schedule s(workload,
                   mapping("gemms", {segment("[mm1, mm2, mm3, mm4]", "[z, m]",
                                             "mm1: [k, n], mm2: [n, o], mm3: [o, l], mm4: [l]",
                                             "X: 2, W1: 0, Y1: 2, W2: 0, Y2: 2, W3: 0, Y3: 2, "
                                             "W4: 1, Y4: 2",
                                             "m: 6, z: 3, k: 8, n: 8, o: 8, l: 8")}));
  const KernelOutcome k = expect_matches_model("gemm chain of four", s.segments(), hardware());
  EXPECT_EQ(measured(k, "mm1", "macs"), 2 * 12 * 8 * 8); // z has two trips
}

} // namespace
} // namespace dse::codegen_test
