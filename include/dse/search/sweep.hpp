// Hardware sweeps: every (configuration, workload) pair explored with one candidate cache, so
// candidate generation and symbolic pruning run once per workload structure, not per
// configuration (on a general hierarchy: the exact front of explore_hier per pair); and the
// buffer-size curve (lowest DRAM traffic per global-buffer, or level-1, capacity).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "dse/search/explore.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

struct SweepCase {
  const Hardware *hw = nullptr;
  const Workload *workload = nullptr;
};

struct SweepOutcome {
  std::vector<ExploreResult> results; // one per case, in order (an empty front when it fits not)
  std::vector<std::optional<NoMappingFits>> no_fit; // per case: why no mapping fits, if none does
  double seconds = 0;
};

/// Explores every case with one CandidateCache (options.cache, or one of its own); a case whose
/// hardware fits no mapping is recorded as such and the sweep goes on. `progress` sees "case i/n:
/// label".
SweepOutcome run_sweep(const std::vector<SweepCase> &cases, const SearchOptions &options,
                       const ProgressReporter &progress = {});

/// Explores every case (each a general hierarchy) with explore_hier, in order, with `options`
/// but each case's hardware's first-read elision; `progress` sees "case i/n: workload on hw" as
/// each case finishes. Every case has a front: every tensor may bypass every on-chip level.
std::vector<HierExploreResult> run_hier_sweep(const std::vector<SweepCase> &cases,
                                              const HierSearchOptions &options,
                                              const ProgressReporter &progress = {});

/// The best mapping at one capacity: the one moving the fewest DRAM words (ties: lower latency,
/// then energy), and the best latency and energy reachable at that capacity.
struct BufferCurvePoint {
  double capacity_words = 0;
  double min_dram_words = 0;
  double latency_s = 0; // of the min-traffic mapping
  double energy_pj = 0; // of the min-traffic mapping
  double best_latency_s = 0;
  double best_energy_pj = 0;
  double best_edp = 0;
  std::optional<double> io_lower_bound; // single-GEMM workloads only
};

/// Reads a curve point off a front explored over latency, energy and DRAM traffic.
BufferCurvePoint buffer_curve_point(const ExploreResult &result, const Workload &workload,
                                    double capacity_words);
/// The same off a general hierarchy's front, at level 1's capacity. Level 1 may be bypassed, so
/// the I/O bound takes every on-chip word (hier_on_chip_words) as its fast memory.
BufferCurvePoint buffer_curve_point(const HierExploreResult &result, const Workload &workload,
                                    const Hierarchy &hierarchy);

/// Words held on chip: each on-chip level's capacity times its instances, and the two operands
/// and the sum each compute unit holds while it multiplies (a multicast word is held by every
/// unit it reaches, so with every level bypassed the units are the fast memory).
double hier_on_chip_words(const Hierarchy &hierarchy);

/// I/O lower bound of a workload made of one GEMM-like einsum `C[i,j] += A[i,k] * B[k,j]` with
/// `capacity_words` of buffer: max(MK + KN + MN, 2MNK/sqrt(S) - 2S) (Smith et al.); empty for
/// other workloads.
std::optional<double> gemm_io_lower_bound(const Workload &workload, double capacity_words);

} // namespace dse
