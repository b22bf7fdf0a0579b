// `explore` and `explore_hier` on a workload whose einsums branch: attention fed by its Q, K and
// V projections and followed by its output projection. Its front is every split's (qk continues
// the chain of q or of k, pv that of qk or of v, the other results through DRAM): the same front
// as the four workloads that make each split explicit, by reading the cut results under another
// name, explored apart and united.
#include <gtest/gtest.h>

#include <map>

#include "common/repo_files.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/search/explore.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {
namespace {

/// The block with qk reading `q` and `k` and pv reading `p` and `v`: the produced names Q, K, P,
/// V continue a chain; another name is a tensor from DRAM.
std::string block(const std::string &q, const std::string &k, const std::string &p,
                  const std::string &v) {
  return "name: block\n"
         "dims: {m: 16, n: 16, d: 16, k: 8, l: 8, e: 16}\n"
         "ops:\n"
         "  - {name: q, einsum: \"Q[m,k] += X[m,d] * Wq[d,k]\"}\n"
         "  - {name: k, einsum: \"K[n,k] += Y[n,d] * Wk[d,k]\"}\n"
         "  - {name: v, einsum: \"V[n,l] += Y[n,d] * Wv[d,l]\"}\n"
         "  - {name: qk, einsum: \"S[m,n] += " +
         q + "[m,k] * " + k +
         "[n,k]\"}\n"
         "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
         "  - {name: pv, einsum: \"O[m,l] += " +
         p + "[m,n] * " + v +
         "[n,l]\"}\n"
         "  - {name: o, einsum: \"Z[m,e] += O[m,l] * Wo[l,e]\"}\n";
}

/// The block itself, then each of its splits made explicit.
std::vector<Workload> block_and_splits() {
  std::vector<Workload> out{parse_workload(block("Q", "K", "P", "V"), "block.yaml")};
  for (const auto &[q, k] : {std::pair{"Q", "Kd"}, {"Qd", "K"}})
    for (const auto &[p, v] : {std::pair{"P", "Vd"}, {"Pd", "V"}})
      out.push_back(parse_workload(block(q, k, p, v), "split.yaml"));
  return out;
}

using Point = std::pair<double, double>; // latency, energy

/// The points no other point beats on latency and energy, sorted, each once.
std::vector<Point> undominated(std::vector<Point> points) {
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  std::vector<Point> out;
  for (const Point &p : points)
    if (out.empty() || p.second < out.back().second)
      out.push_back(p);
  return out;
}

::testing::AssertionResult same_front(const std::vector<Point> &a, const std::vector<Point> &b) {
  if (a.size() != b.size())
    return ::testing::AssertionFailure() << a.size() << " points vs " << b.size();
  for (size_t i = 0; i < a.size(); ++i)
    for (const auto &[x, y] : {std::pair{a[i].first, b[i].first}, {a[i].second, b[i].second}})
      if (std::abs(x - y) > 1e-12 * std::max(std::abs(x), std::abs(y)))
        return ::testing::AssertionFailure() << "point " << i << ": " << x << " vs " << y;
  return ::testing::AssertionSuccess();
}

TEST(DagExplore, FrontIsTheUnionOfEverySplitsFront) {
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/edge-16x16-32k.yaml"));
  SearchOptions options;
  options.threads = 2;
  std::vector<std::vector<Point>> fronts;
  for (const Workload &w : block_and_splits()) {
    fronts.emplace_back();
    for (const FrontPoint &p : explore(w, hw, options).front)
      fronts.back().push_back({p.objectives.latency_s, p.objectives.energy_pj});
  }
  std::vector<Point> united;
  for (size_t i = 1; i < fronts.size(); ++i)
    united.insert(united.end(), fronts[i].begin(), fronts[i].end());
  ASSERT_FALSE(fronts[0].empty());
  EXPECT_TRUE(same_front(undominated(fronts[0]), undominated(united)));
  EXPECT_EQ(undominated(fronts[0]).size(), fronts[0].size());
  // On this hardware the first split alone (qk after q, pv after qk) is beaten: V's projection
  // chained into pv and the output projection saves energy.
  EXPECT_FALSE(same_front(fronts[0], undominated(fronts[1])));
}

// The splits share segments (q alone is in two of them, pv fused with the output projection in
// two): each is searched once, its front taken again by the other splits.
TEST(DagExplore, EachSegmentIsSearchedOnceWhateverTheSplitsThatHoldIt) {
  const Workload w = block_and_splits().front();
  SearchOptions options;
  options.threads = 2;
  const ExploreResult r =
      explore(w, load_hardware(test_common::repo_file("hw_configs/edge-16x16-32k.yaml")), options);
  std::map<std::string, int> searched;
  for (const ProblemSummary &s : r.summaries)
    ++searched[s.label];
  EXPECT_EQ(searched.size(), r.summaries.size());
  EXPECT_EQ(searched.count("q"), 1U);
  EXPECT_EQ(searched.count("pv+o fused"), 1U);

  const HierExploreResult h =
      explore_hier(load_hardware(test_common::repo_file("hw_configs/a16-timeloop.yaml")), w, {});
  std::map<std::vector<int>, int> segments;
  for (const HierSegmentFront &s : h.segments)
    ++segments[s.ops];
  EXPECT_EQ(segments.size(), h.segments.size());
  EXPECT_EQ(segments.size(), w.ops.size()); // every einsum and the softmax, alone
}

/// The (latency, energy) of each point of a front.
template <class Plan> std::vector<Point> points(const std::vector<Plan> &front) {
  std::vector<Point> out;
  for (const Plan &p : front)
    out.push_back({p.objectives.latency_s, p.objectives.energy_pj});
  return out;
}

/// The block's K and V projections stacked (they read Y alike), made explicit: qk and pv read
/// their results from DRAM, qk continues q's chain.
Workload explicit_stack() {
  return parse_workload("name: stacked\n"
                        "dims: {m: 16, n: 16, d: 16, k: 8, l: 8, e: 16, s: 2}\n"
                        "ops:\n"
                        "  - {name: q, einsum: \"Q[m,k] += X[m,d] * Wq[d,k]\"}\n"
                        "  - {name: kv, einsum: \"KV[s,n,k] += Y[n,d] * Wkv[s,d,k]\"}\n"
                        "  - {name: qk, einsum: \"S[m,n] += Q[m,k] * Kd[n,k]\"}\n"
                        "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                        "  - {name: pv, einsum: \"O[m,l] += P[m,n] * Vd[n,l]\"}\n"
                        "  - {name: o, einsum: \"Z[m,e] += O[m,l] * Wo[l,e]\"}\n",
                        "stacked.yaml");
}

/// The block's front with its siblings stacked is the union of its explicit splits' and the
/// stacked split's, and differs from the union without the stack (stacking pays: Y read once
/// for both projections); `front` gives a workload's (latency, energy) front.
template <class FrontOf> void expect_stacked_split_in_front(FrontOf &&front) {
  std::vector<Workload> explicit_splits = block_and_splits();
  const Workload stacked = with_sibling_stacks(explicit_splits.front());
  ASSERT_EQ(stacked.ops.size(), explicit_splits.front().ops.size() + 1);
  explicit_splits.front() = explicit_stack();
  std::vector<Point> united, unstacked;
  for (size_t i = 0; i < explicit_splits.size(); ++i)
    for (const Point &p : front(explicit_splits[i])) {
      united.push_back(p);
      if (i > 0)
        unstacked.push_back(p);
    }
  const std::vector<Point> stacked_front = front(stacked);
  EXPECT_TRUE(same_front(undominated(stacked_front), undominated(united)));
  EXPECT_FALSE(same_front(undominated(stacked_front), undominated(unstacked)));
}

TEST(DagExplore, StackedSiblingsAddTheFrontOfTheStackedSplit) {
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/edge-16x16-32k.yaml"));
  SearchOptions options;
  options.threads = 2;
  expect_stacked_split_in_front(
      [&](const Workload &w) { return points(explore(w, hw, options).front); });
}

TEST(DagExplore, StackedSiblingsOnAHierarchy) {
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/a16-timeloop.yaml"));
  HierSearchOptions options;
  options.threads = 2;
  expect_stacked_split_in_front(
      [&](const Workload &w) { return points(explore_hier(hw, w, options).front); });
}

TEST(DagExplore, HierarchyFrontIsTheUnionOfEverySplitsFront) {
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/a16-timeloop.yaml"));
  HierSearchOptions options;
  options.threads = 2;
  std::vector<Point> block_front, united;
  bool first = true;
  for (const Workload &w : block_and_splits()) {
    const HierExploreResult r = explore_hier(hw, w, options);
    for (const HierPlan &p : r.front)
      (first ? block_front : united).push_back({p.objectives.latency_s, p.objectives.energy_pj});
    first = false;
  }
  ASSERT_FALSE(block_front.empty());
  EXPECT_TRUE(same_front(undominated(block_front), undominated(united)));
}

} // namespace
} // namespace dse
