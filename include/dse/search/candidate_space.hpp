// The pruned candidate space of a problem: surviving dataflows with their symbolic metrics,
// grouped by recompute loops, and the spatial-mapping combinations they are crossed with.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "dse/model/dataflow.hpp"
#include "dse/model/metrics.hpp"

namespace dse {

enum class Pruning { None, Symbolic };

/// Dataflows sharing recompute loops share their compute metrics for a given spatial mapping.
struct RecomputeGroup {
  std::vector<int> recompute_dims;
  size_t first = 0; // dataflows [first, first + count) of the space
  size_t count = 0;
};

struct PruningStats {
  std::uint64_t dataflows_enumerated = 0;  // every prefix x sub-nest x retention combination
  std::uint64_t dataflows_after_local = 0; // after per-operator pruning under each prefix
  std::uint64_t dataflows_kept = 0;        // after pruning within recompute groups
  std::uint64_t spatial_combinations = 0;
  std::uint64_t candidates_before() const { return dataflows_enumerated * spatial_combinations; }
  std::uint64_t candidates_after() const { return dataflows_kept * spatial_combinations; }
};

struct CandidateSpace {
  std::vector<Dataflow> dataflows; // grouped by recompute loops, groups in a fixed order
  std::vector<DataflowMetrics> metrics;
  std::vector<RecomputeGroup> groups;
  std::vector<std::vector<SpatialMapping>> spatial;
  PruningStats stats;
};

/// Enumerates (and, with Pruning::Symbolic, prunes) the candidate space. Depends only on the
/// problem's structure and the double-buffering rule, never on sizes or other hardware numbers.
/// Without `allow_recompute`, fused dataflows that recompute the producer are left out.
CandidateSpace build_candidate_space(const Problem &problem, bool double_buffering, Pruning pruning,
                                     bool allow_recompute = true);

/// Reuses candidate spaces across shapes and hardware configurations with the same structure.
class CandidateCache {
public:
  std::shared_ptr<const CandidateSpace> get(const Problem &problem, bool double_buffering,
                                            Pruning pruning, bool allow_recompute = true);

private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const CandidateSpace>> spaces_;
};

} // namespace dse
