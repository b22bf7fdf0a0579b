// Front algebra: Pareto filtering, Minkowski sums and unions equal brute force (every sum, every
// point checked against every other) on random fronts, ties included.
#include <gtest/gtest.h>

#include <random>

#include "dse/graph/cost_front.hpp"

namespace dse {
namespace {

bool dominates(const CostPoint &a, const CostPoint &b) {
  return a.latency_s <= b.latency_s && a.energy_pj <= b.energy_pj &&
         (a.latency_s < b.latency_s || a.energy_pj < b.energy_pj);
}

/// The (latency, energy) values no point dominates, each once, latency ascending.
std::vector<std::pair<double, double>> brute_force_front(const CostFront &points) {
  std::vector<std::pair<double, double>> out;
  for (const CostPoint &p : points) {
    bool beaten = false;
    for (const CostPoint &q : points)
      beaten = beaten || dominates(q, p);
    if (!beaten)
      out.emplace_back(p.latency_s, p.energy_pj);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::pair<double, double>> values(const CostFront &front) {
  std::vector<std::pair<double, double>> out;
  for (const CostPoint &p : front)
    out.emplace_back(p.latency_s, p.energy_pj);
  return out;
}

/// Small integer coordinates, so that ties and equal sums are common.
CostFront random_points(std::mt19937 &rng, int count) {
  std::uniform_int_distribution<int> coord(0, 12), pairs(0, 2);
  CostFront out;
  for (int i = 0; i < count; ++i)
    out.push_back({double(coord(rng)), double(coord(rng)), double(coord(rng)), pairs(rng)});
  return out;
}

TEST(CostFront, ParetoFilterEqualsBruteForce) {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    const CostFront points = random_points(rng, 1 + trial % 25);
    const CostFront front = pareto_front_of(points);
    EXPECT_EQ(values(front), brute_force_front(points));
    for (size_t i = 1; i < front.size(); ++i) {
      EXPECT_LT(front[i - 1].latency_s, front[i].latency_s);
      EXPECT_GT(front[i - 1].energy_pj, front[i].energy_pj);
    }
  }
}

TEST(CostFront, MinkowskiSumAndUnionEqualBruteForce) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const CostFront a = pareto_front_of(random_points(rng, 1 + trial % 9));
    const CostFront b = pareto_front_of(random_points(rng, 1 + trial % 7));
    CostFront sums, both = a;
    for (const CostPoint &x : a)
      for (const CostPoint &y : b)
        sums.push_back({x.latency_s + y.latency_s, x.energy_pj + y.energy_pj, 0, 0});
    both.insert(both.end(), b.begin(), b.end());
    EXPECT_EQ(values(minkowski_sum(a, b)), brute_force_front(sums));
    EXPECT_EQ(values(front_union(a, b)), brute_force_front(both));
  }
}

TEST(CostFront, SumsCarryDramWordsAndFusedPairs) {
  const CostFront a{{1, 4, 10, 1}, {2, 1, 20, 0}};
  const CostFront b{{1, 1, 5, 1}};
  const CostFront sum = minkowski_sum(a, b);
  ASSERT_EQ(sum.size(), 2u);
  EXPECT_EQ(sum[0].dram_words, 15);
  EXPECT_EQ(sum[0].fused_pairs, 2);
  EXPECT_EQ(sum[1].dram_words, 25);
  EXPECT_EQ(sum[1].fused_pairs, 1);
  EXPECT_TRUE(minkowski_sum(a, {}).empty()); // a part that fits no mapping leaves no plan
}

} // namespace
} // namespace dse
