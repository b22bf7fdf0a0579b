// The candidate space of a problem: enumeration counts, how much pruning keeps, independence of
// sizes and of the number of threads.
#include "dse/search/candidate_space.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "common/candidate_spaces.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

void expect_counts_consistent(const CandidateSpace &space) {
  const PruningStats &s = space.stats;
  EXPECT_EQ(s.dataflows_kept, space.dataflows.size());
  EXPECT_EQ(s.spatial_combinations, space.spatial.size());
  EXPECT_EQ(s.candidates_before(), s.dataflows_enumerated * s.spatial_combinations);
  EXPECT_EQ(s.candidates_after(), s.dataflows_kept * s.spatial_combinations);
  EXPECT_LE(s.dataflows_kept, s.dataflows_after_local);
  EXPECT_LE(s.dataflows_after_local, s.dataflows_enumerated);
}

TEST(CandidateSpace, SingleGemmEnumeratesAndPrunes) {
  // 3! loop orders x 3^3 retention depths (0 or below each of a tensor's two loops) = 162
  // dataflows; spatial (m,n), (m,k), (k,n).
  const test::TestProblem tp = test::single_problem("gemm", test::gemm_yaml(64, 64, 64));
  const CandidateSpace none = build_candidate_space(tp.problem, false, Pruning::None);
  EXPECT_EQ(none.stats.dataflows_enumerated, 162U);
  EXPECT_EQ(none.dataflows.size(), 162U);
  EXPECT_EQ(none.stats.spatial_combinations, 3U);
  EXPECT_EQ(none.stats.candidates_before(), 486U);
  EXPECT_EQ(none.stats.candidates_after(), 486U);
  expect_counts_consistent(none);

  const CandidateSpace pruned = build_candidate_space(tp.problem, false, Pruning::Symbolic);
  expect_counts_consistent(pruned);
  EXPECT_EQ(pruned.stats.candidates_before(), 486U);
  EXPECT_GT(pruned.stats.candidates_after(), 0U);
  EXPECT_LT(pruned.stats.candidates_after() * 5, pruned.stats.candidates_before())
      << "pruning keeps " << pruned.stats.candidates_after() << " of 486";
  ASSERT_EQ(pruned.groups.size(), 1U);
  EXPECT_TRUE(pruned.groups[0].recompute_dims.empty());
  EXPECT_EQ(pruned.groups[0].count, pruned.dataflows.size());
}

TEST(CandidateSpace, FusedGemmPairEnumeratesAndPrunes) {
  // 19 legal (prefix, intermediate depth) choices; recompute l or not: two groups; 3 x 3 spatial.
  const test::TestProblem tp = test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8));
  const CandidateSpace pruned = build_candidate_space(tp.problem, false, Pruning::Symbolic);
  expect_counts_consistent(pruned);
  EXPECT_EQ(pruned.stats.dataflows_enumerated, 5508U);
  EXPECT_EQ(pruned.stats.spatial_combinations, 9U);
  EXPECT_EQ(pruned.groups.size(), 2U);
  EXPECT_LT(pruned.stats.candidates_after() * 5, pruned.stats.candidates_before());
  EXPECT_LT(pruned.stats.dataflows_after_local, pruned.stats.dataflows_enumerated);
}

TEST(CandidateSpace, DependsOnStructureNotSizes) {
  const test::TestProblem a = test::single_problem("a", test::gemm_yaml(8, 8, 8));
  const test::TestProblem b = test::single_problem("b", test::gemm_yaml(100, 7, 33));
  EXPECT_EQ(a.problem.structure_key(), b.problem.structure_key());
  const CandidateSpace sa = build_candidate_space(a.problem, false, Pruning::Symbolic);
  const CandidateSpace sb = build_candidate_space(b.problem, false, Pruning::Symbolic);
  EXPECT_TRUE(sa.dataflows == sb.dataflows);
  ASSERT_EQ(sa.metrics.size(), sb.metrics.size());
  for (size_t i = 0; i < sa.metrics.size(); ++i)
    EXPECT_TRUE(sa.metrics[i].as_vector() == sb.metrics[i].as_vector());
}

TEST(CandidateSpace, DoubleBufferingChangesTheBufferMetricsOnly) {
  const test::TestProblem tp = test::single_problem("gemm", test::gemm_yaml(8, 8, 8));
  const CandidateSpace single = build_candidate_space(tp.problem, false, Pruning::None);
  const CandidateSpace doubled = build_candidate_space(tp.problem, true, Pruning::None);
  ASSERT_TRUE(single.dataflows == doubled.dataflows);
  size_t differ = 0;
  for (size_t i = 0; i < single.metrics.size(); ++i) {
    EXPECT_TRUE(single.metrics[i].dram_reads == doubled.metrics[i].dram_reads);
    EXPECT_TRUE(single.metrics[i].dram_writes == doubled.metrics[i].dram_writes);
    differ += single.metrics[i].buffer_words != doubled.metrics[i].buffer_words;
  }
  EXPECT_GT(differ, 0U);
}

TEST(CandidateSpace, IsTheSameForAnyNumberOfThreads) {
  for (const test::TestProblem &tp :
       {test::fused_problem("attention", test::attention_yaml(2, 8, 4)),
        test::fused_problem("conv", test::conv_pair_yaml())}) {
    SCOPED_TRACE(tp.name);
    const CandidateSpace one = [&] {
      CandidateSpace space;
      tbb::task_arena(1).execute(
          [&] { space = build_candidate_space(tp.problem, false, Pruning::Symbolic); });
      return space;
    }();
    for (int threads : {2, 8}) {
      CandidateSpace space;
      tbb::task_arena(threads).execute(
          [&] { space = build_candidate_space(tp.problem, false, Pruning::Symbolic); });
      test_common::expect_same_space(space, one);
    }
  }
}

} // namespace
} // namespace dse
