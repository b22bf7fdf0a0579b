// Validation ladder rung 1 (docs/DESIGN.md §7): the trace simulator agrees exactly with the
// model's DRAM traffic, MACs and buffer words on tiny workloads, and it does catch an illegal
// schedule.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>

#include "common/suite_scale.hpp"
#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/model/metrics.hpp"
#include "model/test_workloads.hpp"
#include "model/trace_check.hpp"
#include "model/trace_simulator.hpp"

namespace dse::trace {
namespace {

using test_workloads::ChainWorkload;

constexpr std::uint32_t kSeed = 7;

std::vector<std::int64_t> dim_sizes_of(const Problem &p) {
  std::vector<std::int64_t> out;
  for (const Dimension &d : p.workload->dims)
    out.push_back(d.size);
  return out;
}

/// Checks `problem` against the model and prints how many pairs were checked.
void expect_agreement(const std::string &name, const Problem &problem, const CheckPlan &plan) {
  const auto start = std::chrono::steady_clock::now();
  const CheckSummary s = check_against_model(problem, plan, kSeed);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  std::cout << "[ trace    ] " << name << ": " << s.dataflows_checked << " of "
            << s.dataflows_in_space << " dataflows, " << s.pairs << " (dataflow, tiling) pairs, "
            << took.count() << " s\n";
  EXPECT_GT(s.pairs, 0u);
  EXPECT_EQ(s.mismatching_pairs, 0u)
      << name << ": " << s.mismatching_pairs << " of " << s.pairs << " pairs disagree";
  for (const auto &[metric, count] : s.mismatches_by_metric)
    ADD_FAILURE() << name << ": " << metric << " differs in " << count << " pairs";
  for (const std::string &example : s.examples)
    ADD_FAILURE() << name << ": " << example;
}

// The sanitizer suite checks a fixed-seed sample of at most this many dataflows per space.
constexpr std::uint64_t kSanitizedDataflows = 300;
// Every dataflow and every tiling of the `all` menu (non-divisors padded).
constexpr CheckPlan kEverything{
    test_common::per_suite<std::uint64_t>(1'000'000, kSanitizedDataflows), 1'000'000, 0};
// Large spaces: a fixed-seed sample of dataflows, each with every divisor tiling plus 8 random
// non-divisor tilings.
constexpr CheckPlan kSampled{test_common::per_suite<std::uint64_t>(1'500, kSanitizedDataflows), 64,
                             8};
// Chains: their spaces are larger and each run longer, so a smaller sample.
constexpr CheckPlan kChainSampled{test_common::per_suite<std::uint64_t>(500, 100), 64, 8};

TEST(TraceSimulation, SingleGemm) {
  const ChainWorkload w(test_workloads::kGemm);
  expect_agreement("gemm", w.single(0), kEverything);
}

TEST(TraceSimulation, GemmPairFused) {
  const ChainWorkload w(test_workloads::kGemmPair);
  expect_agreement("gemm pair fused", w.fused(), kEverything);
}

TEST(TraceSimulation, GemmPairUnfused) {
  const ChainWorkload w(test_workloads::kGemmPair);
  expect_agreement("gemm pair, producer", w.single(0), kEverything);
  expect_agreement("gemm pair, consumer", w.single(1), kEverything);
}

TEST(TraceSimulation, ConvPairFused) {
  const ChainWorkload w(test_workloads::kConvPair);
  expect_agreement("conv pair fused", w.fused(), kSampled);
}

TEST(TraceSimulation, ConvPairUnfused) {
  const ChainWorkload w(test_workloads::kConvPair);
  expect_agreement("conv pair, producer", w.single(0), kEverything);
  expect_agreement("conv pair, consumer", w.single(1), kEverything);
}

TEST(TraceSimulation, HaloConvPairFused) {
  const ChainWorkload w(test_workloads::kHaloConvPair);
  expect_agreement("halo conv pair fused", w.fused(), kSampled);
}

TEST(TraceSimulation, WindowPairCachedOrRecomputed) {
  const ChainWorkload w(test_workloads::kWindowPair1d);
  expect_agreement("window pair fused", w.fused(), kEverything);
}

TEST(TraceSimulation, StridedHaloPairFused) {
  const ChainWorkload w(test_workloads::kStridedHaloPair);
  expect_agreement("strided halo pair fused", w.fused(), kEverything);
}

TEST(TraceSimulation, PaddedWindowPairsFused) {
  const ChainWorkload window(test_workloads::kPaddedWindowPair1d);
  expect_agreement("padded window pair", window.fused(), kEverything);
  const ChainWorkload pointwise(test_workloads::kPaddedPointwisePair1d);
  expect_agreement("padded pointwise pair", pointwise.fused(), kEverything);
  const ChainWorkload strided(test_workloads::kPaddedStridedPair1d);
  expect_agreement("padded strided pair", strided.fused(), kEverything);
  const ChainWorkload conv(test_workloads::kPaddedConvPair);
  expect_agreement("padded 2-D pair", conv.fused(), kSampled);
}

TEST(TraceSimulation, PairReadThroughADimOfItsOwn) {
  const ChainWorkload w(test_workloads::kRenamedPair);
  const Problem fused = w.fused();
  EXPECT_TRUE(fused.halo_dims.empty());
  expect_agreement("renamed pair fused", fused, kEverything);
}

TEST(TraceSimulation, StridedConv) {
  const ChainWorkload w(test_workloads::kStridedConv);
  expect_agreement("strided conv", w.single(0), kEverything);
}

TEST(TraceSimulation, AttentionFused) {
  const ChainWorkload w(test_workloads::kAttention);
  expect_agreement("attention fused", w.fused(), kSampled);
}

TEST(TraceSimulation, AttentionUnfused) {
  const ChainWorkload w(test_workloads::kAttention);
  expect_agreement("attention, qk + softmax pass", w.single(0), kEverything);
  expect_agreement("attention, pv", w.single(1), kEverything);
}

// Chains of three and four operators (docs/DEPTH_FIRST.md §2): every intermediate kept in the
// prefix, each producer rerun per loop over a dim it lacks, and each window's halo recomputed
// or cached per link, composed down the chain.
TEST(TraceSimulation, GemmChainOfThreeFused) {
  const ChainWorkload w(test_workloads::kGemmChain3);
  expect_agreement("gemm chain of three fused", w.whole_chain(), kChainSampled);
}

TEST(TraceSimulation, WindowChainsOfThreeFused) {
  for (const char *yaml :
       {test_workloads::kBottleneck1d, test_workloads::kWindowChain1d,
        test_workloads::kPaddedBottleneck1d, test_workloads::kStridedWindowChain1d,
        test_workloads::kSamePaddedChain1d, test_workloads::kPaddedConvsThenPool1d}) {
    const ChainWorkload w(yaml);
    const Problem problem = w.whole_chain();
    expect_agreement(problem.workload->name, problem, kChainSampled);
  }
}

// A residual block: the second convolution's output starts from the block's input, read once
// per output element at its first visit (partial sums spilled later come back as without it).
TEST(TraceSimulation, ResidualBlockFusedAndAlone) {
  const ChainWorkload w(test_workloads::kResidualBlock1d);
  expect_agreement("residual block fused", w.whole_chain(), kEverything);
  expect_agreement("residual block, second convolution", w.single(1), kEverything);
}

// Stacked siblings: the stack alone, and fused after the GEMM whose result it reads for both.
TEST(TraceSimulation, StackedSiblingsAloneAndFedByTheirProducer) {
  const Workload w = with_sibling_stacks(
      parse_workload(test_common::fed_siblings_workload("fed-siblings"), "test.yaml"));
  const std::vector<ChainLink> links = workload_links(w);
  ASSERT_EQ(links.size(), 4u);
  expect_agreement("stacked siblings", make_single_problem(w, links[3]), kEverything);
  expect_agreement("producer and stacked siblings fused",
                   make_chain_problem(w, {links[0], links[3]}), kChainSampled);
}

// The tile restriction is needed: with one-position tiles of the same-padded chain, the second
// window reads padding too, and the producer computes fewer positions than the model counts.
TEST(TraceSimulation, TilesTheModelDoesNotCountAreWrong) {
  const ChainWorkload w(test_workloads::kSamePaddedChain1d);
  const Problem problem = w.whole_chain();
  const int b = problem.workload->dim_index("b");
  ASSERT_FALSE(problem.counts_tile_exactly(b, 1));
  const Dataflow df = DataflowSpace(problem).at(0);
  Tiling tiling{dim_sizes_of(problem)};
  tiling.tile[static_cast<size_t>(b)] = 1;
  const TraceCounts counts = TraceSimulator(problem, kSeed).run(df, tiling);
  EXPECT_EQ(counts.schedule_error, "");
  EXPECT_LE(counts.output_error, 1e-9);
  const std::vector<SpatialMapping> spatial = spatial_combinations(problem).front();
  const ComputeMetrics model =
      compute_metrics(problem, df.recompute_dims(problem), df.cached, spatial);
  const AtomTable atoms = atom_table(dim_sizes_of(problem), tiling, 4, 4);
  EXPECT_LT(static_cast<double>(counts.macs[0]), evaluate(model.macs[0], atoms));
}

TEST(TraceSimulation, ChainOfFourFused) {
  const ChainWorkload w(test_workloads::kChain4);
  expect_agreement("chain of four fused", w.whole_chain(), kChainSampled);
}

TEST(TraceSimulation, TwoDimensionalBottleneckFused) {
  const ChainWorkload w(test_workloads::kBottleneck2d);
  expect_agreement("2-d bottleneck fused", w.whole_chain(), kChainSampled);
}

// Anchors the simulator on numbers counted by hand, independently of the model. GEMM m=4 k=3
// n=2 (dims m=0 k=1 n=2; tensors A B C), loops k m n with T = (3, 2, 2): trips k 2 (padded 4),
// m 2 (padded 6), n 1. B@1: 2x2 words x 2 = 8 reads; A@2: 3x2 x 4 = 24 reads; C@2: 3x2 x 4 = 24
// writes, of which the second k pass reads 12 back. MACs 4 bodies x 12; peak 4 + 6 + 6.
TEST(TraceSimulation, CountsMatchHandCount) {
  const ChainWorkload w(test_workloads::kGemm);
  const Problem problem = w.single(0);
  const Dataflow df{{}, {{1, 0, 2}}, {2, 1, 2}};
  const TraceCounts counts = TraceSimulator(problem, kSeed).run(df, Tiling{{3, 2, 2}});
  EXPECT_EQ(counts.schedule_error, "");
  EXPECT_EQ(counts.dram_reads, 8 + 24 + 12);
  EXPECT_EQ(counts.dram_writes, 24);
  EXPECT_EQ(counts.macs, std::vector<std::int64_t>{48});
  EXPECT_EQ(counts.peak_words, std::vector<std::int64_t>{16});
  EXPECT_LE(counts.output_error, 1e-9);
}

// The value check catches illegal schedules. GEMM pair (dims m=0 k=1 n=2 l=3; tensors A B C D E,
// C the intermediate): with prefix [m, l] and C kept at depth 1 (below m), the recompute loop l
// lies below C's depth, so the producer accumulates into the same live C tile twice.
TEST(TraceSimulation, ValueCheckCatchesRecomputeBelowIntermediate) {
  const ChainWorkload w(test_workloads::kGemmPair);
  const Problem problem = w.fused();
  const TraceSimulator simulator(problem, kSeed);
  const Tiling tiling{{2, 2, 3, 1}}; // l runs 2 trips
  const Dataflow illegal{{0, 3}, {{1, 2}, {2}}, {0, 0, 1, 0, 0}, {{}}};
  EXPECT_NE(legality_problem(problem, illegal), "");
  const TraceCounts bad = simulator.run(illegal, tiling);
  EXPECT_EQ(bad.schedule_error, "");
  EXPECT_GT(bad.output_error, 1e-3); // far above the 1e-9 tolerance

  const Dataflow legal{{3, 0}, {{1, 2}, {2}}, {0, 0, 2, 0, 0}, {{}}}; // l above C's depth
  EXPECT_EQ(legality_problem(problem, legal), "");
  EXPECT_LE(simulator.run(legal, tiling).output_error, 1e-9);
}

} // namespace
} // namespace dse::trace
