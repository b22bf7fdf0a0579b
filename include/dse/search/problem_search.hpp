// Search of one problem: the blocked, parallel Q*B evaluation folded into a Pareto front
// (docs/DESIGN.md §4.3), and the brute-force evaluator it is checked against.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/tiling.hpp"
#include "dse/search/candidate_cache.hpp"
#include "dse/search/pareto_front.hpp"
#include "dse/search/space_limits.hpp"

namespace dse {

/// What a search is about to decide, known once its candidate space is built.
struct SearchEstimate {
  std::uint64_t candidates = 0; // after pruning
  std::uint64_t tilings = 0;
  double mappings = 0;         // candidates x tilings, every one decided exactly
  double expected_seconds = 0; // at conservative rates per tiling and mapping
};

struct SearchOptions {
  TileMenu menu = TileMenu::Divisors;
  LatencyModel latency_model = LatencyModel::Roofline;
  std::vector<Objective> objectives{Objective::Latency, Objective::Energy};
  Pruning pruning = Pruning::Symbolic;
  bool fusion = true;        // false: chains are searched one operator at a time
  bool recompute = true;     // false: no fused dataflow recomputes its producer
  bool window_fusion = true; // false: only pairs read with bare indices are fused
  /// Longest run of consecutive operators of a chain that explore searches fused (2: pairs).
  std::size_t max_fused = 3;
  int threads = 0;               // 0: every core
  std::size_t block_tilings = 0; // tilings per Q*B block; 0: automatic
  /// Whether boxes of tilings whose bound the front rejects are skipped (docs/DESIGN.md §4.3);
  /// false evaluates every tiling column, with the same front.
  bool prune_boxes = true;
  /// Candidate spaces shared by every search given these options (copies share it); without
  /// one, each search builds its own and explore makes one per call.
  std::shared_ptr<CandidateCache> cache;
  SpaceLimits limits; // checked before either space is built
  /// Called once the candidate space is built, before any tiling is evaluated.
  std::function<void(const SearchEstimate &)> estimate;
  /// Called from worker threads (serialised) with the mappings decided so far and the total.
  std::function<void(std::uint64_t done, std::uint64_t total)> progress;
};

struct SearchStats {
  PruningStats pruning;
  std::uint64_t tilings = 0;
  std::uint64_t mappings = 0; // candidates x tilings, every one decided exactly
  // The counts below depend on how the threads share the boxes (each worker bounds with its own
  // front); the front does not.
  std::uint64_t feasible_mappings = 0;   // mappings found to fit the buffer (computed for those
                                         // whose bound the front admits, or every one visited)
  std::uint64_t boxes = 0;               // boxes of tilings visited (docs/DESIGN.md §4.3)
  std::uint64_t columns = 0;             // tiling columns visited (each a column of B)
  std::uint64_t objectives_computed = 0; // mappings whose objectives were computed: they fit and
                                         // their dataflow's bound did not reject them
  double matrix_flops = 0; // of the Q x B products and box bounds (two per entry of Q)
  std::size_t basis_functions = 0;
  double seconds = 0;
};

/// What the reports show of a front point beyond its totals, decoded from its ids.
struct PointMapping {
  Candidate candidate;
  Tiling tiling;
  std::vector<double> op_buffer_words; // per operator of the problem: GB words live while it runs
};

struct ProblemFront {
  ParetoFront front;
  /// The front's points decoded, in the order of front.points().
  std::vector<PointMapping> mappings;
  SearchStats stats;
  /// When the front is empty (no mapping fits), the smallest global-buffer need over every
  /// mapping (words), which explains it; 0 otherwise.
  double min_buffer_words = 0;
  /// The candidate space the front's candidate ids refer to (id = dataflow * |spatial| + s).
  std::shared_ptr<const CandidateSpace> space;
};

Candidate candidate_of(const CandidateSpace &space, std::uint64_t id);

/// Pruned, matrix-encoded, blocked and parallel search.
ProblemFront search_problem(const Problem &problem, const Hardware &hw,
                            const SearchOptions &options);

/// Whether the problem's spaces are within the options' limits (what search_problem checks).
bool within_search_limits(const Problem &problem, const Hardware &hw, const SearchOptions &options);

/// Readies in options.cache, in parallel in the caller's task arena, the candidate spaces and Q
/// matrices that searching `problems` will ask for, those of problems beyond the space limits
/// left out (their searches report them). Without a cache, does nothing.
void prepare_candidate_spaces(const std::deque<Problem> &problems, const Hardware &hw,
                              const SearchOptions &options);

/// Every (candidate, tiling) pair evaluated one by one from the posynomials, without matrices:
/// the reference the matrix search must equal. By default the whole unpruned space
/// (options.pruning is ignored); `max_tilings` > 0 stops after that many tilings, which with
/// Pruning::Symbolic times the evaluator on the same candidates as the matrix search.
ProblemFront brute_force_problem(const Problem &problem, const Hardware &hw,
                                 const SearchOptions &options, Pruning pruning = Pruning::None,
                                 std::uint64_t max_tilings = 0);

} // namespace dse
