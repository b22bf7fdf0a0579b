// Latency-energy fronts of plans made of parts that run one after another: the front of a
// sequence is the Pareto-optimal part of the Minkowski sum of its parts' fronts, and the front
// of a choice between alternatives is the Pareto-optimal part of their union. Exact: nothing is
// thinned.
#pragma once

#include <vector>

namespace dse {

/// A plan's totals: a segment's mapping, or a sequence of segments.
struct CostPoint {
  double latency_s = 0;
  double energy_pj = 0;
  double dram_words = 0;
  int fused_pairs = 0; // producer->consumer pairs run fused
};

/// Points no other point beats on both latency and energy, latency ascending (energy then
/// descending); of equal points, the one first in (dram words, fused pairs) order.
using CostFront = std::vector<CostPoint>;

/// The Pareto-optimal points of `points`, ordered as a CostFront.
CostFront pareto_front_of(CostFront points);

/// The front of running a plan from `a`, then one from `b`: every sum, Pareto-filtered. Empty
/// when either is empty (no plan fits).
CostFront minkowski_sum(const CostFront &a, const CostFront &b);

/// The front of picking a plan from `a` or from `b`.
CostFront front_union(const CostFront &a, const CostFront &b);

} // namespace dse
