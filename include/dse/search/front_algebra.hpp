// The algebra of exact Pareto fronts of plans whose parts run one after another, for any point
// type: the Pareto filter, the Minkowski sum (one part, then another), the union (one part or
// another), the chain recurrence over every segmentation of a chain into single links and
// fused pairs (docs/DESIGN.md §4.5), and the points of every split of a workload into chains.
// Exact: nothing is thinned. A policy says what a point's objectives are, how two points run in
// sequence combine, and which of two points with equal objectives is kept; remaining ties keep the
// earlier point, so every result is deterministic.
#pragma once

#include <algorithm>
#include <concepts>
#include <cstddef>
#include <map>
#include <numeric>
#include <utility>
#include <vector>

#include "dse/ir/chain.hpp"
#include "dse/search/pareto_front.hpp"
#include "dse/support/check.hpp"

namespace dse {

/// What the algebra needs to know of a point type.
template <class P>
concept FrontPolicy = requires(const P &policy, const typename P::Point &a) {
  /// The minimised objectives, in the policy's order; unused entries 0.
  { policy.key(a) } -> std::same_as<ParetoFront::Key>;
  /// How many entries of the key are objectives (1 to kMaxObjectives).
  { policy.dimensions() } -> std::convertible_to<size_t>;
  /// The point of running `a`, then `b`.
  { policy.combine(a, a) } -> std::same_as<typename P::Point>;
  /// Of two points with equal keys, whether `a` is kept rather than `b`.
  { policy.tie_before(a, a) } -> std::same_as<bool>;
};

namespace front_detail {

/// The points of `points` that no other point dominates, taken in `order` (every index once, by
/// key, then tie_before, then input order): a point is kept when no point kept before it weakly
/// dominates it.
template <FrontPolicy Policy>
std::vector<typename Policy::Point>
undominated_in_order(const std::vector<typename Policy::Point> &points,
                     const std::vector<ParetoFront::Key> &keys, const std::vector<size_t> &order,
                     const Policy &policy) {
  const size_t dims = policy.dimensions();
  DSE_CHECK(dims >= 1 && dims <= kMaxObjectives,
            "a front policy of " + std::to_string(dims) + " objectives");
  const auto weakly_dominates = [&](size_t a, size_t b) {
    for (size_t i = 0; i < dims; ++i)
      if (keys[a][i] > keys[b][i])
        return false;
    return true;
  };
  std::vector<size_t> kept;
  for (size_t i : order) {
    // Every point that could dominate `i` comes before it. With two objectives the kept points
    // form a staircase, and the last one has the smallest second objective.
    const bool dominated = dims <= 2 ? !kept.empty() && weakly_dominates(kept.back(), i)
                                     : std::any_of(kept.begin(), kept.end(), [&](size_t k) {
                                         return weakly_dominates(k, i);
                                       });
    if (!dominated)
      kept.push_back(i);
  }
  std::vector<typename Policy::Point> front;
  front.reserve(kept.size());
  for (size_t i : kept)
    front.push_back(points[i]);
  return front;
}

template <FrontPolicy Policy>
std::vector<ParetoFront::Key> keys_of(const std::vector<typename Policy::Point> &points,
                                      const Policy &policy) {
  std::vector<ParetoFront::Key> keys;
  keys.reserve(points.size());
  for (const auto &p : points)
    keys.push_back(policy.key(p));
  return keys;
}

/// minkowski_sum with at most two objectives: the kept points form a staircase (a point is kept
/// when its second objective is below every earlier point's), so the sums are taken one run
/// (one point of `b`) at a time, each run merged into the staircase of the runs before it.
/// A point dropped at any merge has an earlier point with no larger second objective, which the
/// filter over every sum would drop it for too, so the result is the same, point for point.
template <FrontPolicy Policy>
std::vector<typename Policy::Point> staircase_sum(const std::vector<typename Policy::Point> &a,
                                                  const std::vector<typename Policy::Point> &b,
                                                  const Policy &policy) {
  // A sum by its two objectives and the points of `a` and `b` it adds; the point itself is made
  // again only for the rare ties of objectives and for the points kept.
  struct Sum {
    double first, second;
    size_t i, j;
  };
  const auto point = [&](const Sum &s) { return policy.combine(a[s.i], b[s.j]); };
  // By key, then tie_before, then the index of the sum taken a-major (pareto_filter's order).
  const auto before = [&](const Sum &x, const Sum &y) {
    if (x.first != y.first || x.second != y.second)
      return std::pair(x.first, x.second) < std::pair(y.first, y.second);
    const typename Policy::Point px = point(x), py = point(y);
    if (policy.tie_before(px, py))
      return true;
    if (policy.tie_before(py, px))
      return false;
    return std::pair(x.i, x.j) < std::pair(y.i, y.j);
  };
  std::vector<Sum> kept, run, merged;
  for (size_t j = 0; j < b.size(); ++j) {
    run.clear();
    for (size_t i = 0; i < a.size(); ++i) {
      const ParetoFront::Key key = policy.key(policy.combine(a[i], b[j]));
      run.push_back({key[0], key[1], i, j});
    }
    if (!std::is_sorted(run.begin(), run.end(), before))
      std::sort(run.begin(), run.end(), before);
    merged.clear();
    const auto keep = [&](const Sum &s) {
      if (merged.empty() || s.second < merged.back().second)
        merged.push_back(s);
    };
    auto x = kept.begin(), y = run.begin();
    while (x != kept.end() || y != run.end())
      keep(y == run.end() || (x != kept.end() && before(*x, *y)) ? *x++ : *y++);
    std::swap(kept, merged);
  }
  std::vector<typename Policy::Point> front;
  front.reserve(kept.size());
  for (const Sum &s : kept)
    front.push_back(point(s));
  return front;
}

} // namespace front_detail

/// The points of `points` that no other point dominates, ordered by key, then tie_before, then
/// input order. A point dominates another when no objective is larger; of points with equal
/// keys the first in that order is kept.
template <FrontPolicy Policy>
std::vector<typename Policy::Point> pareto_filter(const std::vector<typename Policy::Point> &points,
                                                  const Policy &policy) {
  const std::vector<ParetoFront::Key> keys = front_detail::keys_of(points, policy);
  std::vector<size_t> order(points.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return keys[a] != keys[b] ? keys[a] < keys[b] : policy.tie_before(points[a], points[b]);
  });
  return front_detail::undominated_in_order(points, keys, order, policy);
}

/// The front of running a plan from `a`, then one from `b`: every combination, Pareto-filtered
/// (the same points, in the same order, as pareto_filter over the sums taken `a`-major). The sums
/// are held `b`-major: `x + y` for a fixed `y` comes in the order of `a`, already sorted when `a`
/// is a front, so the order is made by merging |b| sorted runs rather than sorting them all
/// (with at most two objectives, each run is merged into the staircase of those before it:
/// staircase_sum). Empty when either is empty (no plan fits).
template <FrontPolicy Policy>
std::vector<typename Policy::Point> minkowski_sum(const std::vector<typename Policy::Point> &a,
                                                  const std::vector<typename Policy::Point> &b,
                                                  const Policy &policy) {
  if (policy.dimensions() <= 2)
    return front_detail::staircase_sum(a, b, policy);
  std::vector<typename Policy::Point> sums;
  sums.reserve(a.size() * b.size());
  for (const auto &y : b)
    for (const auto &x : a)
      sums.push_back(policy.combine(x, y));
  const std::vector<ParetoFront::Key> keys = front_detail::keys_of(sums, policy);
  // By key, then tie_before, then the index of the sum taken a-major (pareto_filter's order).
  const auto before = [&](size_t i, size_t j) {
    if (keys[i] != keys[j])
      return keys[i] < keys[j];
    if (policy.tie_before(sums[i], sums[j]))
      return true;
    if (policy.tie_before(sums[j], sums[i]))
      return false;
    return std::pair(i % a.size(), i / a.size()) < std::pair(j % a.size(), j / a.size());
  };
  std::vector<size_t> order(sums.size());
  std::iota(order.begin(), order.end(), size_t{0});
  const auto run = [&](size_t r) { return order.begin() + static_cast<std::ptrdiff_t>(r); };
  for (size_t r = 0; r < sums.size(); r += a.size())
    if (!std::is_sorted(run(r), run(r + a.size()), before))
      std::sort(run(r), run(r + a.size()), before);
  for (size_t width = a.size(); width < sums.size(); width *= 2)
    for (size_t r = 0; r + width < sums.size(); r += 2 * width)
      std::inplace_merge(run(r), run(r + width), run(std::min(r + 2 * width, sums.size())), before);
  return front_detail::undominated_in_order(sums, keys, order, policy);
}

/// The front of running a plan from `a` or one from `b`.
template <FrontPolicy Policy>
std::vector<typename Policy::Point> front_union(const std::vector<typename Policy::Point> &a,
                                                const std::vector<typename Policy::Point> &b,
                                                const Policy &policy) {
  std::vector<typename Policy::Point> both = a;
  both.insert(both.end(), b.begin(), b.end());
  return pareto_filter(both, policy);
}

/// The front of a chain of `links` links over every segmentation into runs of at most `longest`
/// consecutive links: from the end, F[i] = the union over i < j <= i + longest of (segment(i, j),
/// then F[j]), with F[links] = {empty_plan}. `segment(i, j)` (links i to j - 1 run as one
/// segment; an empty front when they cannot be) is asked for with i from the last link to the
/// first and, for each, j ascending.
template <FrontPolicy Policy, class SegmentFront>
std::vector<typename Policy::Point>
segmented_front(size_t links, size_t longest, SegmentFront &&segment,
                const typename Policy::Point &empty_plan, const Policy &policy) {
  std::vector<std::vector<typename Policy::Point>> from(links + 1);
  from[links] = {empty_plan};
  for (size_t i = links; i-- > 0;) {
    from[i] = minkowski_sum(segment(i, i + 1), from[i + 1], policy);
    for (size_t j = i + 2; j <= std::min(links, i + longest); ++j)
      from[i] = front_union(from[i], minkowski_sum(segment(i, j), from[j], policy), policy);
  }
  return from[0];
}

/// The fronts of chain segments, each searched once: the same run of links in chains of different
/// splits of a workload (chain_splits) is the same problem, so its front is taken again.
template <class Point> class SegmentFronts {
public:
  /// The front of links i to j - 1 of `chain`: `search(i, j)`'s, asked the first time these
  /// links come.
  template <class Search>
  const std::vector<Point> &of(const Chain &chain, size_t i, size_t j, Search &&search) {
    std::vector<ChainLink> links(chain.links.begin() + static_cast<std::ptrdiff_t>(i),
                                 chain.links.begin() + static_cast<std::ptrdiff_t>(j));
    if (const auto seen = fronts_.find(links); seen != fronts_.end())
      return seen->second;
    std::vector<Point> front = search(i, j);
    return fronts_.emplace(std::move(links), std::move(front)).first->second;
  }

private:
  std::map<std::vector<ChainLink>, std::vector<Point>> fronts_;
};

/// The points of every split of a workload into chains (chain_splits): per split, its chains'
/// fronts run one after another, and the splits' points together, not filtered. `chain_front`
/// is asked once per chain, however many splits hold it, in the order the splits reach it.
template <FrontPolicy Policy, class ChainFront>
std::vector<typename Policy::Point>
every_split_points(const std::vector<std::vector<Chain>> &splits, ChainFront &&chain_front,
                   const Policy &policy) {
  using Point = typename Policy::Point;
  std::map<std::vector<int>, std::vector<Point>> chain_fronts;
  std::vector<Point> out;
  for (const std::vector<Chain> &split : splits) {
    std::vector<Point> sum{Point{}};
    for (const Chain &chain : split) {
      auto [at, added] = chain_fronts.try_emplace(chain_einsums(chain));
      if (added)
        at->second = chain_front(chain);
      sum = minkowski_sum(sum, at->second, policy);
    }
    out.insert(out.end(), sum.begin(), sum.end());
  }
  return out;
}

} // namespace dse
