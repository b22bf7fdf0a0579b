// Latency-energy fronts of network plans made of segments that run one after another, combined
// with the front algebra of the search (Minkowski sums for sequences, unions for alternatives).
#pragma once

#include <tuple>
#include <vector>

#include "dse/search/front_algebra.hpp"

namespace dse {

/// A plan's totals: a segment's mapping, or a sequence of segments.
struct CostPoint {
  double latency_s = 0;
  double energy_pj = 0;
  double dram_words = 0;
  int fused_segments = 0; // runs of linked compute nodes run fused
};

/// Points no other point beats on both latency and energy, latency ascending (energy then
/// descending).
using CostFront = std::vector<CostPoint>;

/// Plans compared on latency and energy; of equal points, the one first in (DRAM words, fused
/// pairs) order is kept. Everything adds up in a sequence.
struct PlanFrontPolicy {
  using Point = CostPoint;
  ParetoFront::Key key(const CostPoint &p) const { return {p.latency_s, p.energy_pj}; }
  size_t dimensions() const { return 2; }
  bool tie_before(const CostPoint &a, const CostPoint &b) const {
    return std::tie(a.dram_words, a.fused_segments) < std::tie(b.dram_words, b.fused_segments);
  }
  CostPoint combine(const CostPoint &a, const CostPoint &b) const {
    return {a.latency_s + b.latency_s, a.energy_pj + b.energy_pj, a.dram_words + b.dram_words,
            a.fused_segments + b.fused_segments};
  }
};

} // namespace dse
