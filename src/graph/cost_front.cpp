// Pareto filtering, Minkowski sums and unions of latency-energy fronts.
#include "dse/graph/cost_front.hpp"

#include <algorithm>
#include <tuple>

namespace dse {

namespace {

auto order_key(const CostPoint &p) {
  return std::make_tuple(p.latency_s, p.energy_pj, p.dram_words, p.fused_pairs);
}

} // namespace

CostFront pareto_front_of(CostFront points) {
  std::sort(points.begin(), points.end(),
            [](const CostPoint &a, const CostPoint &b) { return order_key(a) < order_key(b); });
  CostFront front;
  for (const CostPoint &p : points)
    if (front.empty() || p.energy_pj < front.back().energy_pj)
      front.push_back(p); // faster points all spend more: p is beaten by none of them
  return front;
}

CostFront minkowski_sum(const CostFront &a, const CostFront &b) {
  CostFront sums;
  sums.reserve(a.size() * b.size());
  for (const CostPoint &x : a)
    for (const CostPoint &y : b)
      sums.push_back({x.latency_s + y.latency_s, x.energy_pj + y.energy_pj,
                      x.dram_words + y.dram_words, x.fused_pairs + y.fused_pairs});
  return pareto_front_of(std::move(sums));
}

CostFront front_union(const CostFront &a, const CostFront &b) {
  CostFront all = a;
  all.insert(all.end(), b.begin(), b.end());
  return pareto_front_of(std::move(all));
}

} // namespace dse
