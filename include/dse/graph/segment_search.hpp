// The matrix engine applied to graph segments: each lowered segment is explored once per
// distinct workload (layers of equal shape share one search) and its best point taken; a pair
// segment is searched fused only, its operators alone being segments of their own. On a general
// hierarchy (docs/HIERARCHY.md) each segment is one compute node with its attached operators,
// searched by explore_hier, or a pair of them (--hier-fusion), searched fused only by
// explore_hier_fused_pair.
#pragma once

#include <exception>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "dse/graph/adaptive_split.hpp"
#include "dse/graph/cost_front.hpp"
#include "dse/model/dma_balance.hpp"
#include "dse/search/explore.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

/// The DRAM words one part of a mapping moves for one tensor of its workload.
struct TensorDramWords {
  std::string tensor;
  double reads = 0;
  double writes = 0;
};

/// One part of a segment's mapping (operators searched apart run one after another): its counts
/// and the DRAM words behind them, per tensor.
struct SegmentPart {
  MetricTotals totals;
  std::vector<TensorDramWords> tensors;
};

/// The best mapping of a segment for one objective, and the segment's whole front.
struct SegmentCost {
  double latency_s = 0;
  double energy_pj = 0;
  double dram_words = 0;
  double buffer_words = 0;
  double macs = 0;
  bool fused = false;                 // the best point runs a producer->consumer pair fused
  std::string restreamed;             // the operand read from DRAM most often per word (loop order)
  std::vector<DmaUnitLoad> dma_units; // the DRAM words per DMA unit (empty without units)
  std::vector<SegmentPart> parts;     // of the best point, in the order they run (today's
                                      // model only: the schedule keeps tensors on chip with them)
  CostFront front; // every latency-energy trade-off of the segment, the best point among them
};

/// The latency, energy, DRAM words, MACs, buffer words and DMA loads of `parts` run one after
/// another (the search's objectives of each part, summed); the parts kept.
SegmentCost sequence_cost(std::vector<SegmentPart> parts, const Hardware &hw, LatencyModel model);

/// A segment's search: its best mapping, or explore's error when no mapping fits.
struct SegmentOutcome {
  std::optional<SegmentCost> cost;
  std::optional<UserError> no_fit; // set exactly when cost is not
};

class SegmentSearcher {
public:
  /// `options` are the per-segment search options (tile menu, threads, ...); the objectives
  /// searched are latency and energy, and the best point for `objective` is kept. Every segment
  /// shares options.cache (or one cache of the searcher's own).
  SegmentSearcher(const Hardware &hw, SearchOptions options, PlanObjective objective);

  /// The segment's best mapping, or why no mapping fits the global buffer.
  SegmentOutcome best(const Workload &workload);
  /// The same for a segment of two operators run fused only (their mappings alone are the
  /// operators' own segments, not searched with it); std::nullopt when they cannot run fused.
  std::optional<SegmentOutcome> best_fused(const Workload &workload);

  /// Searches these segments (whole or fused) now, in parallel; best and best_fused then take
  /// their outcomes as if they searched them when called (the same counts, the same errors).
  void prefetch(const std::vector<std::pair<Workload, bool>> &segments);

  int searches() const { return searches_; }
  int cache_hits() const { return hits_; }

private:
  /// What one search gave: its outcome (none when it searched nothing), or the error it threw.
  struct Searched {
    std::optional<SegmentOutcome> outcome;
    bool searched = false;
    std::exception_ptr error;
  };
  /// A segment's search: its outcome, or none when it searches nothing (the segment cannot run
  /// fused).
  using Search = std::function<std::optional<SegmentOutcome>()>;
  static std::string key_of(const Workload &workload, bool fused);
  Search search_of(const Workload &workload, bool fused, const SearchOptions &options) const;
  Searched run(const Search &search) const;
  /// The objective first, the other one as the tie-break.
  std::pair<double, double> rank(const Objectives &o) const;
  /// The best point of explore's front `r` for the objective, with the front.
  SegmentOutcome outcome_of(const ExploreResult &r) const;
  /// The same for the front of explore_hier (a general hierarchy), or with `fused` of
  /// explore_hier_fused_pair (std::nullopt when the pair's front is empty).
  std::optional<SegmentOutcome> outcome_of(const HierExploreResult &r, bool fused) const;
  /// The segment cost of point `pick` of the front `r`.
  SegmentCost cost_of(const ExploreResult &r, const FrontPoint &pick) const;
  /// The outcome stored under `key`, or else the outcome of `search` (none when it searched
  /// nothing), stored.
  std::optional<SegmentOutcome> memoized(const std::string &key, const Search &search);

  const Hardware &hw_;
  SearchOptions options_;
  PlanObjective objective_;
  std::map<std::string, std::optional<SegmentOutcome>> results_;
  std::map<std::string, Searched> prefetched_; // searched ahead, not yet asked for
  int searches_ = 0;
  int hits_ = 0;
};

} // namespace dse
