// Rung 2 of the validation ladder (docs/DESIGN.md §7): on small problems, evaluating every
// (candidate, tiling) pair without pruning or matrices gives the same Pareto front as the pruned
// matrix search.
#include "dse/search/problem_search.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/workloads.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/search/tiling_space.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using test::HardwareSpec;
using test::TestProblem;

SearchOptions options_with(std::vector<Objective> objectives, TileMenu menu = TileMenu::Divisors,
                           LatencyModel latency = LatencyModel::Roofline) {
  SearchOptions o;
  o.objectives = std::move(objectives);
  o.menu = menu;
  o.latency_model = latency;
  return o;
}

const std::vector<Objective> kLatencyEnergy{Objective::Latency, Objective::Energy};
const std::vector<Objective> kEdpBuffer{Objective::Edp, Objective::Buffer};
const std::vector<Objective> kLatencyEnergyDram{Objective::Latency, Objective::Energy,
                                                Objective::Dram};

bool close(double a, double b) {
  return std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b));
}

std::string key_text(const ParetoPoint &p, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i)
    s += (i ? ", " : "") + std::to_string(p.key[i]);
  return "(" + s + ")";
}

/// Same number of points and, point by point in the fronts' sorted order, the same objectives.
void expect_same_front(const ProblemFront &reference, const ProblemFront &searched) {
  const std::vector<ParetoPoint> &a = reference.front.points();
  const std::vector<ParetoPoint> &b = searched.front.points();
  const size_t n = reference.front.objectives().size();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t k = 0; k < n; ++k)
      EXPECT_TRUE(close(a[i].key[k], b[i].key[k]))
          << "point " << i << ": reference " << key_text(a[i], n) << " vs search "
          << key_text(b[i], n);
}

/// Over the same candidate space, ties must also resolve to the same (candidate, tiling) ids.
void expect_same_ids(const ProblemFront &reference, const ProblemFront &searched) {
  const std::vector<ParetoPoint> &a = reference.front.points();
  const std::vector<ParetoPoint> &b = searched.front.points();
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    EXPECT_EQ(a[i].candidate, b[i].candidate) << "point " << i;
    EXPECT_EQ(a[i].tiling, b[i].tiling) << "point " << i;
  }
}

struct Outcome {
  ProblemFront reference;
  ProblemFront searched;
};

/// Brute force over `reference_pruning`'s candidates (None: the whole space) against the pruned
/// matrix search, which must give the same front; the front must be non-trivial and some
/// mappings must not fit the buffer. The matrix search over the reference's own candidates must
/// also pick the same ids.
Outcome compare(const TestProblem &tp, const Hardware &hw, const SearchOptions &options,
                Pruning reference_pruning = Pruning::None) {
  SCOPED_TRACE(tp.name);
  Outcome out{brute_force_problem(tp.problem, hw, options, reference_pruning),
              search_problem(tp.problem, hw, options)};
  expect_same_front(out.reference, out.searched);
  EXPECT_GE(out.reference.front.size(), 2U) << "front too small to test anything";
  EXPECT_LT(out.reference.stats.feasible_mappings, out.reference.stats.mappings)
      << "every mapping fits: the capacity constraint is not exercised";
  EXPECT_GT(out.reference.stats.feasible_mappings, 0U);
  EXPECT_EQ(out.reference.min_buffer_words, out.searched.min_buffer_words);
  if (reference_pruning == Pruning::Symbolic) {
    expect_same_ids(out.reference, out.searched);
    return out;
  }
  EXPECT_GT(out.reference.space->dataflows.size(), out.searched.space->dataflows.size());
  SearchOptions unpruned = options;
  unpruned.pruning = Pruning::None;
  const ProblemFront matrix_unpruned = search_problem(tp.problem, hw, unpruned);
  expect_same_front(out.reference, matrix_unpruned);
  expect_same_ids(out.reference, matrix_unpruned);
  return out;
}

bool front_recomputes(const TestProblem &tp, const ProblemFront &f) {
  return std::any_of(f.front.points().begin(), f.front.points().end(), [&](const ParetoPoint &p) {
    const Dataflow &df = candidate_of(*f.space, p.candidate).dataflow;
    return !tp.problem.runs_without_recompute(df.prefix, df.cached);
  });
}

/// Whether some front point of the pruned search pads a dimension (a tile that does not divide
/// it).
bool front_pads(const TestProblem &tp, const ProblemFront &f, TileMenu menu) {
  const TilingSpace tilings(tp.problem, menu, 4, TileSizes::SmallestPerTripCount);
  return std::any_of(f.front.points().begin(), f.front.points().end(), [&](const ParetoPoint &p) {
    const Tiling t = tilings.tiling(p.tiling);
    for (int d : tp.problem.dims)
      if (tp.workload->dim_size(d) % t.tile[static_cast<size_t>(d)] != 0)
        return true;
    return false;
  });
}

Hardware hardware(std::int64_t gb_words, bool double_buffering = false) {
  HardwareSpec spec;
  spec.gb_words = gb_words;
  spec.double_buffering = double_buffering;
  return test::tiny_hardware(spec);
}

TEST(BruteForce, SingleGemm) {
  const TestProblem tp = test::single_problem("gemm 18x8x12", test::gemm_yaml(18, 8, 12));
  compare(tp, hardware(128), options_with(kLatencyEnergy));
}

TEST(BruteForce, SingleGemmObjectiveSets) {
  const TestProblem tp = test::single_problem("gemm 12x6x10", test::gemm_yaml(12, 6, 10));
  compare(tp, hardware(32), options_with(kEdpBuffer));
  compare(tp, hardware(32), options_with(kLatencyEnergyDram));
}

TEST(BruteForce, NothingFitsGivesEmptyFrontsAndTheSmallestNeed) {
  // Three 1-word tiles are the least any GEMM mapping needs.
  const TestProblem tp = test::single_problem("gemm 6x4x5", test::gemm_yaml(6, 4, 5));
  const SearchOptions o = options_with(kLatencyEnergy);
  const ProblemFront brute = brute_force_problem(tp.problem, hardware(2), o);
  const ProblemFront searched = search_problem(tp.problem, hardware(2), o);
  EXPECT_EQ(brute.front.size(), 0U);
  EXPECT_EQ(searched.front.size(), 0U);
  EXPECT_EQ(brute.stats.feasible_mappings, 0U);
  EXPECT_EQ(searched.stats.feasible_mappings, 0U);
  EXPECT_EQ(brute.min_buffer_words, 3.0);
  EXPECT_EQ(searched.min_buffer_words, 3.0);
}

TEST(BruteForce, GemmWithEveryTileSizePadded) {
  const TestProblem tp = test::single_problem("gemm 7x5x6 all", test::gemm_yaml(7, 5, 6));
  const Outcome out = compare(tp, hardware(24), options_with(kLatencyEnergy, TileMenu::All));
  EXPECT_TRUE(front_pads(tp, out.searched, TileMenu::All));
}

// With pruning, only the smallest tile of each trip count is searched (docs/DESIGN.md §4.3); the
// brute force tries every tile size, so these cases check that the others are never needed, with
// halo terms, fusion, recompute, double buffering and three objectives.
TEST(BruteForce, EveryTileSizeOfAStridedConvolution) {
  const TestProblem conv = test::single_problem("strided conv all", test::strided_conv_yaml());
  compare(conv, hardware(96), options_with(kLatencyEnergyDram, TileMenu::All));
}

TEST(BruteForce, EveryTileSizeOfFusedGemmPairs) {
  const TestProblem tp = test::fused_problem("pair 5x1x4x5 all", test::gemm_pair_yaml(5, 1, 4, 5));
  compare(tp, hardware(32, true), options_with(kEdpBuffer, TileMenu::All));
  const TestProblem recompute =
      test::fused_problem("pair 4x1x5x6 all", test::gemm_pair_yaml(4, 1, 5, 6));
  const Outcome out = compare(recompute, hardware(16), options_with(kLatencyEnergy, TileMenu::All));
  EXPECT_TRUE(front_recomputes(recompute, out.searched));
}

TEST(BruteForce, GemmWithPowerOfTwoTilesPadded) {
  const TestProblem tp = test::single_problem("gemm 18x8x12 pow2", test::gemm_yaml(18, 8, 12));
  const Outcome out =
      compare(tp, hardware(32), options_with(kLatencyEnergy, TileMenu::PowersOfTwo));
  EXPECT_TRUE(front_pads(tp, out.searched, TileMenu::PowersOfTwo));
}

TEST(BruteForce, GemmWithArrayMultipleTiles) {
  const TestProblem tp = test::single_problem("gemm 18x8x12 array", test::gemm_yaml(18, 8, 12));
  compare(tp, hardware(32), options_with(kLatencyEnergy, TileMenu::ArrayMultiples));
}

TEST(BruteForce, StridedConvolution) {
  const TestProblem tp = test::single_problem("strided conv", test::strided_conv_yaml());
  compare(tp, hardware(96), options_with(kLatencyEnergy));
}

TEST(BruteForce, AttentionScoresWithUnfusedSoftmax) {
  // The single qk problem carries the softmax as its own pass over the scores.
  const TestProblem tp = test::single_problem("qk + softmax", test::attention_yaml(2, 8, 4));
  compare(tp, hardware(32), options_with(kLatencyEnergy));
}

TEST(BruteForce, GemmSequentialLatencyModel) {
  const TestProblem tp = test::single_problem("gemm 12x6x10 seq", test::gemm_yaml(12, 6, 10));
  const SearchOptions o =
      options_with(kLatencyEnergy, TileMenu::Divisors, LatencyModel::Sequential);
  const Outcome seq = compare(tp, hardware(32), o);
  // Without overlap, latency is at least the roofline latency of the same front point.
  const Outcome roof = compare(tp, hardware(32), options_with(kLatencyEnergy));
  EXPECT_GE(seq.searched.front.points().front().key[0],
            roof.searched.front.points().front().key[0]);
}

// DMA units slower than the DRAM (32 words/cycle): load-only 2, store-only 0.5 and bidirectional
// 1 word per cycle, so the balanced per-unit time, not compute, the GB (64 words/cycle here) or
// the DRAM, sets the latency.
Hardware dma_bound_hardware(std::int64_t gb_words, bool double_buffering = false) {
  HardwareSpec spec;
  spec.gb_words = gb_words;
  spec.double_buffering = double_buffering;
  spec.gb_words_per_cycle = 64;
  spec.dma_units = "dma_units:\n"
                   "  - {name: ld, direction: load, bandwidth_gbps: 4}\n"
                   "  - {name: st, direction: store, bandwidth_gbps: 1}\n"
                   "  - {name: io, direction: both, bandwidth_gbps: 2}\n";
  return test::tiny_hardware(spec);
}

TEST(BruteForce, GemmWithDmaUnitsAsTheBottleneck) {
  const TestProblem tp = test::single_problem("gemm 18x8x12 dma", test::gemm_yaml(18, 8, 12));
  const Hardware hw = dma_bound_hardware(128);
  const Outcome out = compare(tp, hw, options_with(kLatencyEnergy));
  compare(tp, hw, options_with(kLatencyEnergyDram, TileMenu::Divisors, LatencyModel::Sequential));
  // The scenario: the fastest point waits for the DMA units, beyond both compute and the DRAM.
  const ParetoPoint &fastest = out.searched.front.points().front();
  const CostWeights w = cost_weights(hw, LatencyModel::Roofline);
  const LatencyParts parts = latency_parts(fastest.totals, w);
  const double dram_only =
      (fastest.totals.dram_reads + fastest.totals.dram_writes) * w.cycles_per_dram_word;
  EXPECT_GT(parts.dram_cycles, parts.compute_cycles);
  EXPECT_GT(parts.dram_cycles, parts.gb_cycles);
  EXPECT_GT(parts.dram_cycles, 2 * dram_only);
  EXPECT_DOUBLE_EQ(fastest.objectives.latency_s, parts.dram_cycles * w.seconds_per_cycle);
}

TEST(BruteForce, FusedGemmPairWithDmaUnitsAsTheBottleneck) {
  const TestProblem tp = test::fused_problem("pair 4x3x6x2 dma", test::gemm_pair_yaml(4, 3, 6, 2));
  compare(tp, dma_bound_hardware(24), options_with(kLatencyEnergy));
  compare(tp, dma_bound_hardware(32, true), options_with(kEdpBuffer));
}

TEST(BruteForce, GemmDoubleBuffering) {
  const TestProblem tp = test::single_problem("gemm 12x6x10 db", test::gemm_yaml(12, 6, 10));
  compare(tp, hardware(32, true), options_with(kLatencyEnergy));
}

TEST(BruteForce, FusedGemmPairWhereFusionWins) {
  const TestProblem tp = test::fused_problem("pair 4x3x6x2", test::gemm_pair_yaml(4, 3, 6, 2));
  const Hardware hw = hardware(24);
  const Outcome fused = compare(tp, hw, options_with(kLatencyEnergy));
  // The scenario: the fused pair beats the best unfused schedule in energy.
  double unfused = 0;
  const std::vector<Chain> chains = chain_splits(*tp.workload).front();
  for (const ChainLink &link : chains.at(0).links) {
    const Problem single = make_single_problem(*tp.workload, link);
    unfused +=
        search_problem(single, hw, options_with(kLatencyEnergy)).front.points().back().key[1];
  }
  EXPECT_LT(fused.searched.front.points().back().key[1], unfused);
}

TEST(BruteForce, FusedGemmPairWhereRecomputeIsFavoured) {
  // Large consumer-only l and n, a cheap producer (k = 1) and a 16-word buffer.
  const TestProblem tp = test::fused_problem("pair 4x1x8x8", test::gemm_pair_yaml(4, 1, 8, 8));
  const Outcome out = compare(tp, hardware(16), options_with(kLatencyEnergy));
  EXPECT_TRUE(front_recomputes(tp, out.searched));
  EXPECT_TRUE(front_recomputes(tp, out.reference));
}

// Chains of three operators (docs/DEPTH_FIRST.md §2): GEMMs around a scaling, with a recompute
// loop over both links, and 1-D convolutions whose windows compose, each halo recomputed or
// cached per link.
TEST(BruteForce, FusedGemmChainOfThree) {
  const TestProblem tp = test::chain_problem("gemm chain", test::scaled_gemm_chain_yaml());
  const Outcome out = compare(tp, hardware(24), options_with(kLatencyEnergyDram));
  EXPECT_TRUE(front_recomputes(tp, out.searched));
}

TEST(BruteForce, FusedWindowChainOfThree) {
  const TestProblem tp = test::chain_problem("window chain", test::window_chain_yaml());
  compare(tp, hardware(48), options_with(kLatencyEnergyDram, TileMenu::All));
}

TEST(BruteForce, FusedResidualBlock) {
  const TestProblem tp = test::chain_problem("residual block", test::residual_block_yaml());
  compare(tp, hardware(48), options_with(kLatencyEnergyDram, TileMenu::All));
}

TEST(BruteForce, StackedSiblingsFusedAfterTheirProducer) {
  const auto w = std::make_shared<const Workload>(
      with_sibling_stacks(*test::make_workload(test_common::fed_siblings_workload("fed"))));
  const std::vector<ChainLink> links = workload_links(*w);
  compare({"stack", w, make_single_problem(*w, links.at(3))}, hardware(12),
          options_with(kLatencyEnergyDram, TileMenu::All));
  compare({"producer and stack", w, make_chain_problem(*w, {links.at(0), links.at(3)})},
          hardware(12), options_with(kLatencyEnergyDram));
}

TEST(BruteForce, FusedGemmPairWithRecomputeExcluded) {
  // The case above, its space without recompute: brute force and the matrix search agree, and
  // the front they find is worse than the one with recompute on at least one objective.
  const TestProblem tp = test::fused_problem("pair 4x1x8x8", test::gemm_pair_yaml(4, 1, 8, 8));
  SearchOptions no_recompute = options_with(kLatencyEnergy);
  no_recompute.recompute = false;
  const Outcome out = compare(tp, hardware(16), no_recompute);
  EXPECT_FALSE(front_recomputes(tp, out.searched));
  EXPECT_FALSE(front_recomputes(tp, out.reference));
  const ProblemFront full = search_problem(tp.problem, hardware(16), options_with(kLatencyEnergy));
  EXPECT_NE(full.front.points().size(), 0u);
  EXPECT_TRUE(full.front.points().front().key != out.searched.front.points().front().key ||
              full.front.points().back().key != out.searched.front.points().back().key);
}

TEST(BruteForce, FusedGemmPairDoubleBufferingAndThreeObjectives) {
  const TestProblem tp = test::fused_problem("pair 4x3x6x2 db", test::gemm_pair_yaml(4, 3, 6, 2));
  compare(tp, hardware(32, true), options_with(kLatencyEnergyDram));
}

TEST(BruteForce, FusedGemmPairSequentialEdpBuffer) {
  const TestProblem tp = test::fused_problem("pair 4x3x6x2 seq", test::gemm_pair_yaml(4, 3, 6, 2));
  compare(tp, hardware(24), options_with(kEdpBuffer, TileMenu::Divisors, LatencyModel::Sequential));
}

TEST(BruteForce, FusedConv1dPairWithHalo) {
  const TestProblem tp = test::fused_problem("conv1d pair", test::conv1d_pair_yaml());
  compare(tp, hardware(16), options_with(kLatencyEnergy));
  compare(tp, hardware(32, true), options_with(kEdpBuffer));
}

TEST(BruteForce, FusedConv1dPairThroughAWindow) {
  const TestProblem tp = test::fused_problem("window pair", test::window_pair_yaml());
  compare(tp, hardware(24), options_with(kLatencyEnergy));
  compare(tp, hardware(48, true), options_with(kEdpBuffer, TileMenu::All));
}

TEST(BruteForce, FusedConv1dPairThroughAWindowWithoutRecompute) {
  // Without recompute every overlap is kept on chip; with it, recomputing some pays off.
  const TestProblem tp = test::fused_problem("window pair", test::window_pair_yaml());
  SearchOptions no_recompute = options_with(kLatencyEnergy);
  no_recompute.recompute = false;
  const Outcome out = compare(tp, hardware(24), no_recompute);
  EXPECT_FALSE(front_recomputes(tp, out.searched));
  EXPECT_FALSE(front_recomputes(tp, out.reference));
  EXPECT_TRUE(
      front_recomputes(tp, search_problem(tp.problem, hardware(24), options_with(kLatencyEnergy))));
}

TEST(BruteForce, FusedPaddedPairsThroughAWindow) {
  for (const bool pointwise : {false, true}) {
    const TestProblem tp =
        test::fused_problem("padded window pair", test::padded_window_pair_yaml(pointwise));
    compare(tp, hardware(24), options_with(kLatencyEnergy));
    compare(tp, hardware(48, true), options_with(kEdpBuffer, TileMenu::All));
  }
}

TEST(BruteForce, FusedConvPairThroughAStridedWindowOverPrunedCandidates) {
  const TestProblem tp = test::fused_problem("window conv pair", test::window_conv_pair_yaml());
  compare(tp, hardware(64), options_with(kLatencyEnergyDram), Pruning::Symbolic);
}

TEST(BruteForce, FusedAttentionWithSoftmaxNoHeads) {
  const TestProblem tp =
      test::fused_problem("attention m=n=4 k=l=2", test::attention_yaml(0, 4, 2));
  compare(tp, hardware(16), options_with(kLatencyEnergy));
}

// The 2-D conv pair and the attention with heads have four shared-prefix dimensions: about 1.4e5
// and 2.5e5 unpruned dataflows times 36 spatial combinations per tiling, minutes of brute force.
// Here the brute force runs over the pruned candidates (still without matrices); pruning
// soundness on these problems is checked in pruning_soundness_test.cpp.
TEST(BruteForce, FusedConvPairWithHaloOverPrunedCandidates) {
  const TestProblem tp = test::fused_problem("conv pair", test::conv_pair_yaml());
  compare(tp, hardware(32), options_with(kLatencyEnergy), Pruning::Symbolic);
}

TEST(BruteForce, FusedAttentionWithSoftmaxOverPrunedCandidates) {
  const TestProblem tp = test::fused_problem("attention h=2", test::attention_yaml(2, 8, 4));
  compare(tp, hardware(96), options_with(kLatencyEnergy), Pruning::Symbolic);
}

} // namespace
} // namespace dse
