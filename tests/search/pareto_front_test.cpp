// Unit and randomized tests of ParetoFront: dominance, removal on insert, the (candidate, tiling)
// tie-break, merge, and agreement with an O(n^2) reference filter, for 2 to 4 objectives.
#include "dse/search/pareto_front.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <tuple>
#include <vector>

#include "dse/support/error.hpp"

namespace dse {
namespace {

using Key = ParetoFront::Key;

const std::vector<Objective> kTwo{Objective::Latency, Objective::Energy};
const std::vector<Objective> kThree{Objective::Latency, Objective::Energy, Objective::Dram};
const std::vector<Objective> kFour{Objective::Latency, Objective::Energy, Objective::Dram,
                                   Objective::Buffer};

/// A point whose selected objectives are `values` (in the order of `objectives`).
ParetoPoint make_point(const std::vector<Objective> &objectives, const std::vector<double> &values,
                       std::uint64_t candidate, std::uint64_t tiling = 0) {
  ParetoPoint p;
  for (size_t i = 0; i < values.size(); ++i) {
    switch (objectives[i]) {
    case Objective::Latency:
      p.objectives.latency_s = values[i];
      break;
    case Objective::Energy:
      p.objectives.energy_pj = values[i];
      break;
    case Objective::Edp:
      p.objectives.edp = values[i];
      break;
    case Objective::Dram:
      p.objectives.dram_words = values[i];
      break;
    case Objective::Buffer:
      p.objectives.buffer_words = values[i];
      break;
    }
  }
  p.candidate = candidate;
  p.tiling = tiling;
  ParetoFront(objectives).set_key(p);
  return p;
}

using Summary = std::tuple<Key, std::uint64_t, std::uint64_t>;

std::vector<Summary> summary(const std::vector<ParetoPoint> &points) {
  std::vector<Summary> out;
  for (const ParetoPoint &p : points)
    out.emplace_back(p.key, p.candidate, p.tiling);
  return out;
}

/// The definition: q dominates p if no worse everywhere and better somewhere, or equal with
/// smaller (candidate, tiling).
bool reference_dominates(const ParetoPoint &q, const ParetoPoint &p, size_t n) {
  bool equal = true;
  for (size_t i = 0; i < n; ++i) {
    if (q.key[i] > p.key[i])
      return false;
    equal = equal && q.key[i] == p.key[i];
  }
  return !equal || std::tie(q.candidate, q.tiling) < std::tie(p.candidate, p.tiling);
}

std::vector<Summary> reference_front(const std::vector<ParetoPoint> &points, size_t n) {
  std::vector<Summary> out;
  for (const ParetoPoint &p : points)
    if (std::none_of(points.begin(), points.end(), [&](const ParetoPoint &q) {
          return &q != &p && reference_dominates(q, p, n);
        }))
      out.emplace_back(p.key, p.candidate, p.tiling);
  std::sort(out.begin(), out.end());
  return out;
}

/// Random points with small integer objective values (many ties) and unique ids.
std::vector<ParetoPoint> random_points(const std::vector<Objective> &objectives, size_t count,
                                       int range, std::mt19937_64 &rng) {
  std::uniform_int_distribution<int> value(0, range);
  std::vector<ParetoPoint> out;
  for (size_t i = 0; i < count; ++i) {
    std::vector<double> values;
    for (size_t k = 0; k < objectives.size(); ++k)
      values.push_back(value(rng));
    // Ids unique but not in insertion order: candidate decreasing, tiling scrambled.
    out.push_back(make_point(objectives, values, count - i, (i * 7919) % 101));
  }
  return out;
}

ParetoFront front_of(const std::vector<Objective> &objectives,
                     const std::vector<ParetoPoint> &points) {
  ParetoFront front(objectives);
  for (const ParetoPoint &p : points)
    front.insert(p);
  return front;
}

TEST(ParetoFront, RejectsDominatedPoints) {
  ParetoFront front(kTwo);
  EXPECT_TRUE(front.insert(make_point(kTwo, {1, 5}, 0)));
  EXPECT_TRUE(front.insert(make_point(kTwo, {2, 3}, 1)));
  EXPECT_FALSE(front.insert(make_point(kTwo, {3, 4}, 2))); // strictly worse than (2, 3)
  EXPECT_FALSE(front.insert(make_point(kTwo, {2, 5}, 3))); // weakly worse than both
  EXPECT_FALSE(front.insert(make_point(kTwo, {1, 6}, 4))); // equal latency, more energy
  EXPECT_FALSE(front.insert(make_point(kTwo, {2, 3}, 5))); // exact tie, larger id
  EXPECT_EQ(summary(front.points()),
            (std::vector<Summary>{{Key{1, 5, 0, 0}, 0, 0}, {Key{2, 3, 0, 0}, 1, 0}}));
}

TEST(ParetoFront, RemovesDominatedPointsOnInsert) {
  ParetoFront front(kTwo);
  for (auto [lat, energy, id] : std::vector<std::tuple<double, double, int>>{
           {1, 10, 0}, {2, 8, 1}, {3, 6, 2}, {4, 4, 3}, {5, 2, 4}})
    ASSERT_TRUE(front.insert(make_point(kTwo, {lat, energy}, static_cast<std::uint64_t>(id))));
  ASSERT_EQ(front.size(), 5U);
  // Dominates (3, 6) and (4, 4) only.
  EXPECT_TRUE(front.insert(make_point(kTwo, {2.5, 4}, 9)));
  EXPECT_EQ(summary(front.points()), (std::vector<Summary>{{Key{1, 10, 0, 0}, 0, 0},
                                                           {Key{2, 8, 0, 0}, 1, 0},
                                                           {Key{2.5, 4, 0, 0}, 9, 0},
                                                           {Key{5, 2, 0, 0}, 4, 0}}));
  // Same latency as an existing point, less energy: replaces it.
  EXPECT_TRUE(front.insert(make_point(kTwo, {2, 7}, 10)));
  EXPECT_EQ(front.size(), 4U);
  // Dominates everything.
  EXPECT_TRUE(front.insert(make_point(kTwo, {0.5, 1}, 11)));
  EXPECT_EQ(summary(front.points()), (std::vector<Summary>{{Key{0.5, 1, 0, 0}, 11, 0}}));
}

TEST(ParetoFront, RemovesDominatedPointsOnInsertThreeObjectives) {
  ParetoFront front(kThree);
  EXPECT_TRUE(front.insert(make_point(kThree, {1, 5, 5}, 0)));
  EXPECT_TRUE(front.insert(make_point(kThree, {5, 1, 5}, 1)));
  EXPECT_TRUE(front.insert(make_point(kThree, {5, 5, 1}, 2)));
  EXPECT_FALSE(front.insert(make_point(kThree, {5, 5, 5}, 3)));
  EXPECT_TRUE(front.insert(make_point(kThree, {2, 2, 2}, 4))); // incomparable to all three
  EXPECT_EQ(front.size(), 4U);
  EXPECT_TRUE(front.insert(make_point(kThree, {1, 1, 5}, 5))); // dominates (1,5,5) and (5,1,5)
  EXPECT_EQ(summary(front.points()),
            (std::vector<Summary>{
                {Key{1, 1, 5, 0}, 5, 0}, {Key{2, 2, 2, 0}, 4, 0}, {Key{5, 5, 1, 0}, 2, 0}}));
}

TEST(ParetoFront, ExactTiesKeepTheLowestIdsInAnyInsertionOrder) {
  for (const auto &objectives : {kTwo, kThree, kFour}) {
    std::vector<ParetoPoint> tied;
    for (auto [candidate, tiling] :
         std::vector<std::pair<int, int>>{{5, 1}, {3, 9}, {3, 2}, {4, 0}})
      tied.push_back(make_point(objectives, std::vector<double>(objectives.size(), 7.0),
                                static_cast<std::uint64_t>(candidate),
                                static_cast<std::uint64_t>(tiling)));
    std::vector<size_t> order{0, 1, 2, 3};
    do {
      ParetoFront front(objectives);
      for (size_t i : order)
        front.insert(tied[i]);
      ASSERT_EQ(front.size(), 1U);
      EXPECT_EQ(front.points()[0].candidate, 3U);
      EXPECT_EQ(front.points()[0].tiling, 2U);
    } while (std::next_permutation(order.begin(), order.end()));
  }
}

// A front is a set: re-inserting a point it already holds (same objectives, same ids) must not
// add a second copy, and merging the same front twice must equal merging it once.
TEST(ParetoFront, InsertAndMergeAreIdempotent) {
  for (const auto &objectives : {kTwo, kThree}) {
    SCOPED_TRACE(std::to_string(objectives.size()) + " objectives");
    ParetoFront front(objectives);
    const ParetoPoint p = make_point(objectives, std::vector<double>(objectives.size(), 1.0), 3, 4);
    EXPECT_TRUE(front.insert(p));
    EXPECT_FALSE(front.insert(p)) << "the same point was admitted twice";
    EXPECT_EQ(front.size(), 1U);

    std::vector<double> other(objectives.size(), 2.0);
    other[0] = 0.5;
    front.insert(make_point(objectives, other, 5, 6));
    ParetoFront merged(objectives);
    merged.merge(front);
    merged.merge(front);
    EXPECT_EQ(summary(merged.points()), summary(front.points()));
  }
}

TEST(ParetoFront, SetKeySelectsObjectivesInOrder) {
  const ParetoFront front({Objective::Buffer, Objective::Edp, Objective::Latency});
  ParetoPoint p;
  p.objectives = {1.5, 2.5, 3.5, 4.5, 5.5}; // latency, energy, edp, dram, buffer
  front.set_key(p);
  EXPECT_EQ(p.key, (Key{5.5, 3.5, 1.5, 0}));
  EXPECT_EQ(objective_value(p.objectives, Objective::Dram), 4.5);
  EXPECT_EQ(parse_objective("edp"), Objective::Edp);
  EXPECT_THROW(parse_objective("power"), UserError);
  EXPECT_THROW(ParetoFront({}), UserError);
  EXPECT_THROW(ParetoFront(std::vector<Objective>(5, Objective::Latency)), UserError);
}

TEST(ParetoFront, MergeEqualsInsertingAllPoints) {
  std::mt19937_64 rng(20261130);
  for (const auto &objectives : {kTwo, kThree, kFour}) {
    for (int round = 0; round < 20; ++round) {
      const std::vector<ParetoPoint> a = random_points(objectives, 60, 12, rng);
      std::vector<ParetoPoint> b = random_points(objectives, 60, 12, rng);
      for (ParetoPoint &p : b)
        p.tiling += 1000; // ids distinct from a's
      ParetoFront merged = front_of(objectives, a);
      merged.merge(front_of(objectives, b));
      std::vector<ParetoPoint> all = a;
      all.insert(all.end(), b.begin(), b.end());
      EXPECT_EQ(summary(merged.points()), summary(front_of(objectives, all).points()));
    }
  }
}

TEST(ParetoFront, RandomizedAgainstQuadraticReference) {
  std::mt19937_64 rng(42);
  for (const auto &objectives : {kTwo, kThree, kFour}) {
    for (int round = 0; round < 40; ++round) {
      const int range = round % 2 == 0 ? 6 : 1000; // many ties, then few
      std::vector<ParetoPoint> points = random_points(objectives, 200, range, rng);
      const std::vector<Summary> expected = reference_front(points, objectives.size());
      for (int shuffle = 0; shuffle < 3; ++shuffle) {
        ParetoFront front(objectives);
        for (const ParetoPoint &p : points) {
          // admits() must predict insert() exactly.
          const bool admitted = front.admits(p.key, p.candidate, p.tiling);
          EXPECT_EQ(front.insert(p), admitted);
        }
        const std::vector<Summary> got = summary(front.points());
        EXPECT_TRUE(std::is_sorted(got.begin(), got.end())) << "points() must be sorted";
        EXPECT_EQ(got, expected) << objectives.size() << " objectives, round " << round;
        std::shuffle(points.begin(), points.end(), rng);
      }
    }
  }
}

} // namespace
} // namespace dse
