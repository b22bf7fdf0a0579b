// The front algebra against brute force on random points with small integer coordinates (so
// that ties and equal sums are common): the Pareto filter keeps exactly the undominated values,
// in key order, with the policy's tie-break; Minkowski sums and unions equal filtering every sum
// or every point; the chain recurrence equals enumerating every segmentation of a chain into
// single links and pairs. One, two and three objectives (two or fewer: the staircase sum).
#include <gtest/gtest.h>

#include <random>

#include "dse/search/front_algebra.hpp"

namespace dse {
namespace {

/// Points with three coordinates and an id; `dims` of the coordinates are objectives, and the
/// id breaks ties (lower first) when `tie_by_id` is set.
struct TestPoint {
  std::array<double, 3> v{};
  int id = 0;
};

struct TestPolicy {
  using Point = TestPoint;
  size_t dims = 2;
  bool tie_by_id = false;
  ParetoFront::Key key(const TestPoint &p) const {
    ParetoFront::Key k{};
    for (size_t i = 0; i < dims; ++i)
      k[i] = p.v[i];
    return k;
  }
  size_t dimensions() const { return dims; }
  bool tie_before(const TestPoint &a, const TestPoint &b) const { return tie_by_id && a.id < b.id; }
  TestPoint combine(const TestPoint &a, const TestPoint &b) const {
    return {{a.v[0] + b.v[0], a.v[1] + b.v[1], a.v[2] + b.v[2]}, a.id * 100 + b.id};
  }
};

using Values = std::vector<ParetoFront::Key>;

/// The objective values that no point dominates, each once, in key order.
Values brute_force_front(const std::vector<TestPoint> &points, const TestPolicy &policy) {
  const auto dominates = [&](const TestPoint &a, const TestPoint &b) {
    bool strictly = false;
    for (size_t i = 0; i < policy.dims; ++i) {
      if (a.v[i] > b.v[i])
        return false;
      strictly = strictly || a.v[i] < b.v[i];
    }
    return strictly;
  };
  Values out;
  for (const TestPoint &p : points)
    if (std::none_of(points.begin(), points.end(),
                     [&](const TestPoint &q) { return dominates(q, p); }))
      out.push_back(policy.key(p));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

Values values(const std::vector<TestPoint> &front, const TestPolicy &policy) {
  Values out;
  for (const TestPoint &p : front)
    out.push_back(policy.key(p));
  return out;
}

std::vector<TestPoint> random_points(std::mt19937 &rng, int count) {
  std::uniform_int_distribution<int> coord(0, 9);
  std::vector<TestPoint> out;
  for (int i = 0; i < count; ++i)
    out.push_back({{double(coord(rng)), double(coord(rng)), double(coord(rng))}, coord(rng)});
  return out;
}

const TestPolicy kPolicies[] = {{1, false}, {1, true},  {2, false},
                                {2, true},  {3, false}, {3, true}};

TEST(FrontAlgebra, FilterKeepsExactlyTheUndominatedValuesInKeyOrder) {
  std::mt19937 rng(7);
  for (const TestPolicy &policy : kPolicies)
    for (int trial = 0; trial < 300; ++trial) {
      const std::vector<TestPoint> points = random_points(rng, 1 + trial % 25);
      EXPECT_EQ(values(pareto_filter(points, policy), policy), brute_force_front(points, policy));
    }
}

TEST(FrontAlgebra, TiesKeepThePolicysFirstPointThenTheEarliest) {
  const std::vector<TestPoint> points{{{1, 2, 0}, 5}, {{1, 2, 0}, 3}, {{1, 2, 0}, 3}};
  EXPECT_EQ(pareto_filter(points, TestPolicy{2, true}).at(0).id, 3);
  EXPECT_EQ(pareto_filter(points, TestPolicy{2, false}).at(0).id, 5);
  EXPECT_EQ(pareto_filter(points, TestPolicy{3, false}).size(), 1u);
}

TEST(FrontAlgebra, SumAndUnionEqualBruteForce) {
  std::mt19937 rng(11);
  for (const TestPolicy &policy : kPolicies)
    for (int trial = 0; trial < 200; ++trial) {
      const std::vector<TestPoint> a = pareto_filter(random_points(rng, 1 + trial % 9), policy);
      const std::vector<TestPoint> b = pareto_filter(random_points(rng, 1 + trial % 7), policy);
      std::vector<TestPoint> sums, both = a;
      for (const TestPoint &x : a)
        for (const TestPoint &y : b)
          sums.push_back(policy.combine(x, y));
      both.insert(both.end(), b.begin(), b.end());
      EXPECT_EQ(values(minkowski_sum(a, b, policy), policy), brute_force_front(sums, policy));
      EXPECT_EQ(values(front_union(a, b, policy), policy), brute_force_front(both, policy));
      EXPECT_TRUE(minkowski_sum(a, {}, policy).empty()); // a part that fits nothing: no plan
    }
}

/// The points with ids 0, 1, ... in their order (a sum's id then names both of its points).
std::vector<TestPoint> numbered(std::vector<TestPoint> points) {
  for (size_t i = 0; i < points.size(); ++i)
    points[i].id = static_cast<int>(i);
  return points;
}

TEST(FrontAlgebra, SumKeepsThePointsThatFilteringEverySumKeeps) {
  // Point for point, ties included, the filter over every sum taken a-major: on fronts, and on
  // unsorted points whose sums are not sorted runs.
  std::mt19937 rng(17);
  for (const TestPolicy &policy : kPolicies)
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<TestPoint> a = random_points(rng, 1 + trial % 11);
      std::vector<TestPoint> b = random_points(rng, 1 + trial % 7);
      if (trial % 2 == 0) {
        a = pareto_filter(a, policy);
        b = pareto_filter(b, policy);
      }
      a = numbered(a);
      b = numbered(b);
      std::vector<TestPoint> sums;
      for (const TestPoint &x : a)
        for (const TestPoint &y : b)
          sums.push_back(policy.combine(x, y));
      const std::vector<TestPoint> expected = pareto_filter(sums, policy);
      const std::vector<TestPoint> sum = minkowski_sum(a, b, policy);
      ASSERT_EQ(sum.size(), expected.size());
      for (size_t i = 0; i < sum.size(); ++i) {
        EXPECT_EQ(sum[i].id, expected[i].id);
        EXPECT_EQ(sum[i].v, expected[i].v);
      }
    }
}

/// Every plan of links i.. : runs of up to `longest` links, every point of each run's front
/// (`runs[i][length - 1]`).
void enumerate_plans(size_t i, size_t longest,
                     const std::vector<std::vector<std::vector<TestPoint>>> &runs,
                     const TestPoint &so_far, const TestPolicy &policy,
                     std::vector<TestPoint> &out) {
  if (i == runs.size()) {
    out.push_back(so_far);
    return;
  }
  for (size_t length = 1; length <= longest && i + length <= runs.size(); ++length)
    for (const TestPoint &p : runs[i][length - 1])
      enumerate_plans(i + length, longest, runs, policy.combine(so_far, p), policy, out);
}

TEST(FrontAlgebra, SegmentRecurrenceEqualsEverySegmentation) {
  std::mt19937 rng(13);
  for (const TestPolicy &policy : kPolicies)
    for (int trial = 0; trial < 90; ++trial) {
      const size_t links = 1 + trial % 5;
      const size_t longest = 1 + trial % 4;
      std::vector<std::vector<std::vector<TestPoint>>> runs(links);
      for (size_t i = 0; i < links; ++i)
        for (size_t length = 1; length <= longest; ++length)
          // Some runs cannot be fused: an empty front.
          runs[i].push_back(length > 1 && trial % 3 == 0
                                ? std::vector<TestPoint>{}
                                : random_points(rng, 1 + (i + length) % 4));
      std::vector<std::pair<size_t, size_t>> asked;
      const std::vector<TestPoint> front = segmented_front(
          links, longest,
          [&](size_t i, size_t j) {
            asked.emplace_back(i, j);
            return runs[i][j - i - 1];
          },
          TestPoint{}, policy);
      std::vector<TestPoint> every;
      enumerate_plans(0, longest, runs, TestPoint{}, policy, every);
      EXPECT_EQ(values(front, policy), brute_force_front(every, policy));
      // Runs are asked for once each, last link first, the shorter runs first.
      std::vector<std::pair<size_t, size_t>> expected;
      for (size_t i = links; i-- > 0;)
        for (size_t j = i + 1; j <= std::min(links, i + longest); ++j)
          expected.emplace_back(i, j);
      EXPECT_EQ(asked, expected);
    }
}

} // namespace
} // namespace dse
