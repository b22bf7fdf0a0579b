// The pruned candidate space of a problem: surviving dataflows with their symbolic metrics,
// grouped by recompute loops, and the spatial-mapping combinations they are crossed with.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/model/dataflow.hpp"
#include "dse/model/metrics.hpp"

namespace dse {

enum class Pruning { None, Symbolic };

/// Dataflows sharing recompute loops share their compute metrics for a given spatial mapping.
struct RecomputeGroup {
  std::vector<int> recompute_dims;
  std::vector<std::vector<int>> cached_dims; // per link, the halo dims whose overlap they keep
  size_t first = 0;                          // dataflows [first, first + count) of the space
  size_t count = 0;
  bool operator==(const RecomputeGroup &) const = default;
};

struct PruningStats {
  std::uint64_t dataflows_enumerated = 0;  // every prefix x sub-nest x retention combination
  std::uint64_t dataflows_after_local = 0; // after per-operator pruning under each prefix
  std::uint64_t dataflows_kept = 0;        // after pruning within recompute groups
  std::uint64_t spatial_combinations = 0;
  std::uint64_t candidates_before() const { return dataflows_enumerated * spatial_combinations; }
  std::uint64_t candidates_after() const { return dataflows_kept * spatial_combinations; }
  bool operator==(const PruningStats &) const = default;
};

struct CandidateSpace {
  std::vector<Dataflow> dataflows; // grouped by recompute loops, groups in a fixed order
  std::vector<DataflowMetrics> metrics;
  std::vector<RecomputeGroup> groups;
  std::vector<std::vector<SpatialMapping>> spatial;
  PruningStats stats;
  bool operator==(const CandidateSpace &) const = default;
};

/// Enumerates (and, with Pruning::Symbolic, prunes) the candidate space. Depends only on the
/// problem's structure and the double-buffering rule, never on sizes or other hardware numbers.
/// Without `allow_recompute`, fused dataflows that recompute the producer are left out. Prefix
/// choices, dataflows and recompute groups are processed in parallel (TBB, in the caller's task
/// arena); the result is the same for any number of threads.
CandidateSpace build_candidate_space(const Problem &problem, bool double_buffering, Pruning pruning,
                                     bool allow_recompute = true);

/// What the searches rely on, checked on every space built or read back: one metrics entry per
/// dataflow, each with one buffer row per operator (2 + ops rows of Q per dataflow); groups tiling
/// the dataflows in order; at least one spatial combination (candidate ids divide by their count),
/// each placing every operator; every loop, depth and term within the problem; statistics that
/// match. Returns the first defect, or an empty string.
std::string candidate_space_defect(const Problem &problem, const CandidateSpace &space);

} // namespace dse
