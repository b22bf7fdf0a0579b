// Tests of include/dse/graph/cost_front.hpp: network plans combined with the front algebra keep
// their DRAM words and fused pairs, and ties on latency and energy go to fewer DRAM words.
#include "dse/graph/cost_front.hpp"

#include <gtest/gtest.h>

namespace dse {
namespace {

TEST(CostFront, NetworkPlansCarryDramWordsAndFusedPairs) {
  const PlanFrontPolicy policy;
  const CostFront a{{1, 4, 10, 1}, {2, 1, 20, 0}};
  const CostFront b{{1, 1, 5, 1}};
  const CostFront sum = minkowski_sum(a, b, policy);
  ASSERT_EQ(sum.size(), 2u);
  EXPECT_EQ(sum[0].dram_words, 15);
  EXPECT_EQ(sum[0].fused_segments, 2);
  EXPECT_EQ(sum[1].dram_words, 25);
  EXPECT_EQ(sum[1].fused_segments, 1);
  // Of equal latency and energy, fewer DRAM words first, then fewer fused pairs.
  const CostFront tied = pareto_filter(CostFront{{1, 1, 9, 0}, {1, 1, 8, 2}, {1, 1, 8, 1}}, policy);
  ASSERT_EQ(tied.size(), 1u);
  EXPECT_EQ(tied[0].dram_words, 8);
  EXPECT_EQ(tied[0].fused_segments, 1);
}

} // namespace
} // namespace dse
