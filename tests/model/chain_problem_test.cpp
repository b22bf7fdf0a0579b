// Fused chains of k operators (docs/DEPTH_FIRST.md §2): the rewriting composes down the chain,
// each link gets its halo, recompute dims and overlap, and chains whose composed windows the
// model cannot count exactly are refused with the reason.
#include <gtest/gtest.h>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/model/dataflow.hpp"
#include "model/test_workloads.hpp"

namespace dse {
namespace {

using test_workloads::ChainWorkload;

std::vector<int> dims(const Workload &w, std::initializer_list<const char *> names) {
  std::vector<int> out;
  for (const char *n : names)
    out.push_back(w.dim_index(n));
  return out;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

TEST(ChainProblem, WindowsComposeDownTheChain) {
  const ChainWorkload w(test_workloads::kWindowChain1d);
  const Problem p = w.whole_chain();
  const Workload &wl = *p.workload;
  ASSERT_EQ(p.ops.size(), 3U);
  ASSERT_EQ(p.links.size(), 2U);
  // conv1 computes Y1[k, p] at p := a + u, a := b + v: the window of the last layer's tile.
  const int b = wl.dim_index("b");
  EXPECT_EQ(p.links[0].halo_dims, std::vector<int>{b});
  EXPECT_EQ(p.links[1].halo_dims, std::vector<int>{b});
  EXPECT_EQ(p.halo_window(0, b), 3); // 1 + (v: 2 - 1) + (u: 2 - 1)
  EXPECT_EQ(p.halo_window(1, b), 2);
  EXPECT_EQ(p.links[0].halo_range(b).end - p.links[0].halo_range(b).begin, 5);
  EXPECT_EQ(p.links[1].halo_range(b).end - p.links[1].halo_range(b).begin, 4);
  // Recomputed, Y1's windows overlap by 2; with Y2 cached, conv2 computes only new positions and
  // Y1's overlap is conv2's own window less its stride, 1.
  EXPECT_EQ(p.halo_overlap(0, b, {{}, {}}), 2);
  EXPECT_EQ(p.halo_overlap(0, b, {{}, {b}}), 1);
  EXPECT_EQ(p.halo_overlap(1, b, {{}, {}}), 1);
  EXPECT_EQ(p.cacheable_halo_dims(0), std::vector<int>{b});
  EXPECT_TRUE(p.runs_without_recompute({b}, {{b}, {b}}));
  EXPECT_FALSE(p.runs_without_recompute({b}, {{}, {b}}));
  // The last operator's other dims: i reruns both producers, j only the first.
  EXPECT_EQ(sorted(p.links[0].recompute_dims), sorted(dims(wl, {"j", "i"})));
  EXPECT_EQ(p.links[1].recompute_dims, dims(wl, {"i"}));
}

TEST(ChainProblem, AStrideComposesIntoTheWindowsBelowIt) {
  const ChainWorkload w(test_workloads::kStridedWindowChain1d);
  const Problem p = w.whole_chain();
  const int b = p.workload->dim_index("b");
  // Y2[j, 2*b+v], so Y1[k, a+u] is read at 2*b+v+u: stride 2 and a window of 1 + 2 + 1.
  EXPECT_EQ(p.links[1].halo_stride(b), 2);
  EXPECT_EQ(p.links[0].halo_stride(b), 2);
  EXPECT_EQ(p.halo_window(1, b), 3);
  EXPECT_EQ(p.halo_window(0, b), 4);
  // Cached below, conv2 computes 2 new positions per step, reading 2 + 1 of Y1: an overlap of
  // 1, its own window less its stride.
  EXPECT_EQ(p.halo_overlap(0, b, {{}, {}}), 2);
  EXPECT_EQ(p.halo_overlap(0, b, {{}, {b}}), 1);
}

TEST(ChainProblem, ReductionsOfEarlierOperatorsStayOutOfThePrefix) {
  const ChainWorkload w(test_workloads::kGemmChain3);
  const Problem p = w.whole_chain();
  const Workload &wl = *p.workload;
  EXPECT_EQ(sorted(p.prefix_dims), sorted(dims(wl, {"m", "j", "l"})));
  EXPECT_EQ(sorted(p.recompute_dims), sorted(dims(wl, {"j", "l"})));
  EXPECT_TRUE(p.halo_dims.empty());
  // Each intermediate lies below the loops that rerun its producer: l and j for Y1, l for Y2.
  const int m = wl.dim_index("m"), j = wl.dim_index("j"), l = wl.dim_index("l");
  Dataflow df;
  df.prefix = {l, j, m};
  df.subnests = {dims(wl, {"k", "n"}), dims(wl, {"n"}), {}};
  df.retention.assign(p.tensors.size(), 0);
  const auto y1 = static_cast<size_t>(p.links[0].intermediate);
  const auto y2 = static_cast<size_t>(p.links[1].intermediate);
  df.retention[y1] = 3;
  df.retention[y2] = 2;
  df.cached = {{}, {}};
  EXPECT_EQ(legality_problem(p, df), "");
  df.prefix = {j, l, m};
  df.retention[y2] = 1;
  EXPECT_EQ(legality_problem(p, df), "recompute loop 'l' lies below the retention depth of 'Y2'");
  df.retention[y2] = 3;
  df.retention[y1] = 2;
  EXPECT_EQ(legality_problem(p, df), "retention depth 2 of tensor 'Y1' is not 0 or right below a "
                                     "loop that indexes it within the shared prefix");
  df.retention[y1] = 3;
  df.cached = {{}};
  EXPECT_EQ(legality_problem(p, df), "expected one list of cached halo dims per intermediate");
}

// Two "same" 3-wide windows: composed, the first layer's windows read two zeros before its
// first position, more than the stride, so a one-position tile would put padding in the second
// window too. The chain fuses with the tiles that keep padding in the first and last windows.
TEST(ChainProblem, PaddingBeyondTheStrideRestrictsTheTiles) {
  const Workload w = parse_workload(R"(name: padded-chain
dims: {p: 6, c: 2, k: 2, a: 6, u: 3, j: 2, b: 6, v: 3, i: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: conv2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u-1]"}
  - {name: conv3, einsum: "Z[i,b] += W3[i,j,v] * Y2[j,b+v-1]"}
)",
                                    "chain.yaml");
  const std::vector<Chain> chains = chain_splits(w).front();
  ASSERT_EQ(chains.size(), 1U);
  const std::vector<ChainLink> &links = chains[0].links;
  EXPECT_EQ(chain_fusion_problem(w, links), "");
  EXPECT_EQ(chain_fusion_problem(w, {links[0]}), "a fused chain needs two operators or more");
  const Problem pair = make_chain_problem(w, {links[1], links[2]});
  const Problem p = make_chain_problem(w, links);
  const int b = w.dim_index("b");
  EXPECT_FALSE(pair.restricts_tiles(b));
  ASSERT_TRUE(p.restricts_tiles(b));
  EXPECT_EQ(p.links[0].halo_range(b).pad_before, 2);
  EXPECT_EQ(p.links[0].halo_range(b).pad_after, 2);
  EXPECT_FALSE(p.counts_tile_exactly(b, 1)); // the second window starts at position -1
  EXPECT_TRUE(p.counts_tile_exactly(b, 2));
  EXPECT_TRUE(p.counts_tile_exactly(b, 4));  // the last tile has 2 positions
  EXPECT_FALSE(p.counts_tile_exactly(b, 5)); // the last tile has 1
  EXPECT_TRUE(p.counts_tile_exactly(b, 6));
}

// A result read as a residual goes to DRAM, so its producer fuses with nothing; a producer with
// a residual of its own neither (its output would start from DRAM on chip); the einsum that adds
// a block's input ends a fused chain.
TEST(ChainProblem, ResidualsDecideWhatStaysOnChip) {
  const Workload w = parse_workload(R"(name: residuals
dims: {m: 4, k: 4, n: 4, l: 4, o: 4}
ops:
  - {name: mm1, einsum: "Y1[m,n] += X[m,k] * W1[k,n]"}
  - {name: mm2, einsum: "Y2[m,l] += Y1[m,n] * W2[n,l]", residual: X}
  - {name: mm3, einsum: "Y3[m,o] += Y2[m,l] * W3[l,o]", residual: Y2}
  - {name: mm4, einsum: "Y4[m,k] += Y3[m,o] * W4[o,k]"}
)",
                                    "residuals.yaml");
  const std::vector<Chain> chains = chain_splits(w).front();
  ASSERT_EQ(chains.size(), 1U);
  const std::vector<ChainLink> &l = chains[0].links;
  ASSERT_EQ(l.size(), 4U);
  EXPECT_TRUE(can_fuse(w, l[0], l[1]));  // mm2 adds X, the chain's input
  EXPECT_FALSE(can_fuse(w, l[1], l[2])); // mm3 adds Y2: it goes to DRAM
  EXPECT_FALSE(can_fuse(w, l[2], l[3])); // mm3's output starts from Y2 in DRAM
  EXPECT_EQ(chain_fusion_problem(w, {l[0], l[1]}), "");
  EXPECT_EQ(chain_fusion_problem(w, {l[0], l[1], l[2]}), "'mm2' cannot be fused with 'mm3'");
}

// A block's input read again by its add may be held on chip from the first operator's reads:
// along each position the first operator's tiles of it cover the residual's tile of the same
// step (a dim no shared loop tiles, or the residual's dim with windows around it).
TEST(ChainProblem, ABlockInputIsHeldWhereTheFirstOperatorsTilesCoverTheResidual) {
  const ChainWorkload block(test_workloads::kResidualBlock1d); // X[c, a+u+r-2] over Z[j, a]
  const Problem chain = block.whole_chain();
  ASSERT_GE(chain.held_residual, 0);
  EXPECT_EQ(chain.tensors[static_cast<size_t>(chain.held_residual)].name, "X");
  EXPECT_EQ(block.single(1).held_residual, -1); // unfused: nothing to hold it
  // Two GEMMs whose second starts from the first one's input, or from a tensor of its own.
  const auto gemm_pair = [](const std::string &residual) {
    return "name: residuals\ndims: {m: 4, k: 4, n: 4, l: 4}\nops:\n"
           "  - {name: mm1, einsum: \"Y1[m,n] += X[m,k] * W1[k,n]\"}\n"
           "  - {name: mm2, einsum: \"Y2[m,l] += Y1[m,n] * W2[n,l]\", residual: " +
           residual + "}\n";
  };
  EXPECT_GE(ChainWorkload(gemm_pair("X")).whole_chain().held_residual, 0);
  // A residual that is not the chain's input, and one whose window misses its own positions.
  EXPECT_EQ(ChainWorkload(gemm_pair("R")).whole_chain().held_residual, -1);
  const ChainWorkload ahead(R"(name: ahead
dims: {c: 2, p: 6, r: 2, k: 2, a: 6, u: 3, j: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c,r] * X[c,p+r+2]"}
  - {name: conv2, einsum: "Z[j,a] += W2[j,k,u] * Y1[k,a+u-1]", residual: X}
)");
  EXPECT_EQ(ahead.whole_chain().held_residual, -1);
}

} // namespace
} // namespace dse
