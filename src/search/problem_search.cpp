// The matrix search of one problem: Q (candidates x basis functions) times B (basis functions x
// tilings), its tilings visited as a tree of boxes spread over cores with TBB, each worker folding
// into its own Pareto front (src/search/problem_matrices.hpp, src/search/tiling_boxes.hpp); and
// the brute-force evaluator it is checked against.
#include "dse/search/problem_search.hpp"

#include <chrono>
#include <limits>
#include <tbb/info.h>

#include "dse/support/thread_arena.hpp"
#include "problem_matrices.hpp"
#include "tiling_boxes.hpp"

namespace dse {

Candidate candidate_of(const CandidateSpace &space, std::uint64_t id) {
  const std::uint64_t s = id % space.spatial.size();
  const std::uint64_t d = id / space.spatial.size();
  return {space.dataflows.at(d), space.spatial.at(s)};
}

namespace {

std::shared_ptr<const CandidateSpace> candidate_space(const Problem &problem, const Hardware &hw,
                                                      const SearchOptions &options) {
  const bool db = hw.global_buffer().double_buffering;
  std::shared_ptr<const CandidateSpace> space;
  thread_arena(options.threads).execute([&] {
    space = options.cache ? options.cache->get(problem, db, options.pruning, options.recompute)
                          : std::make_shared<const CandidateSpace>(build_candidate_space(
                                problem, db, options.pruning, options.recompute));
  });
  return space;
}

/// Thread time per tiling (its basis values and best spatial mappings) and per mapping decided,
/// measured on the development machine and rounded up, so that the expected time errs long.
constexpr double kSecondsPerTiling = 2e-6;
constexpr double kSecondsPerMapping = 5e-9;

SearchEstimate estimate_search(std::uint64_t candidates, std::uint64_t tilings, int threads) {
  SearchEstimate e;
  e.candidates = candidates;
  e.tilings = tilings;
  e.mappings = static_cast<double>(candidates) * static_cast<double>(tilings);
  const int workers = threads > 0 ? threads : tbb::info::default_concurrency();
  e.expected_seconds =
      (static_cast<double>(tilings) * kSecondsPerTiling + e.mappings * kSecondsPerMapping) /
      static_cast<double>(std::max(workers, 1));
  return e;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ProblemFront make_result(const SearchOptions &options, std::shared_ptr<const CandidateSpace> space,
                         std::uint64_t tilings) {
  ProblemFront r{ParetoFront(options.objectives),
                 {},
                 {},
                 std::numeric_limits<double>::infinity(),
                 std::move(space)};
  r.stats.pruning = r.space->stats;
  r.stats.tilings = tilings;
  r.stats.mappings = r.space->stats.candidates_after() * tilings;
  return r;
}

/// Decodes the front's points: candidate, tiling and each operator's buffer words. The smallest
/// buffer need is kept only to explain an empty front.
void decode_front(ProblemFront &result, const TilingSpace &tilings, const Hardware &hw) {
  if (result.front.size() > 0)
    result.min_buffer_words = 0;
  const CandidateSpace &space = *result.space;
  for (const ParetoPoint &point : result.front.points()) {
    PointMapping m{candidate_of(space, point.candidate), tilings.tiling(point.tiling), {}};
    const AtomTable atoms =
        atom_table(tilings.sizes(), m.tiling, hw.effective_rows(), hw.effective_cols());
    const DataflowMetrics &metrics = space.metrics[point.candidate / space.spatial.size()];
    for (const Posynomial &words : metrics.buffer_words)
      m.op_buffer_words.push_back(evaluate(words, atoms));
    result.mappings.push_back(std::move(m));
  }
}

/// Pruning also drops the tile sizes that are never better than a smaller one with the same trip
/// count (docs/DESIGN.md §4.3); without pruning every size of the menu is tried.
TileSizes tile_sizes_for(Pruning pruning) {
  return pruning == Pruning::Symbolic ? TileSizes::SmallestPerTripCount : TileSizes::Every;
}

} // namespace

ProblemFront search_problem(const Problem &problem, const Hardware &hw,
                            const SearchOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  const TileSizes sizes = tile_sizes_for(options.pruning);
  check_space_limits(problem, options.menu, array_size, sizes, options.recompute, options.limits);
  const TilingSpace tilings(problem, options.menu, array_size, sizes);
  ProblemFront result = make_result(options, candidate_space(problem, hw, options), tilings.size());
  const std::uint64_t candidates = result.space->stats.candidates_after();
  if (options.estimate)
    options.estimate(estimate_search(candidates, tilings.size(), options.threads));
  const std::shared_ptr<const SymbolicMatrices> symbolic =
      options.cache
          ? options.cache->matrices(problem, result.space)
          : std::make_shared<const SymbolicMatrices>(symbolic_matrices(problem, *result.space));
  Prepared p = prepare(problem, hw, *result.space, *symbolic, tilings, options);
  plan_boxes(p, tilings, options);
  result.stats.basis_functions = p.basis.factors.size();

  search_boxes(p, tilings, options, options.progress, result);
  if (result.front.size() == 0 && p.prune_boxes) {
    // Nothing fits: the least buffer need, which the error reports, is exact only when every
    // column is evaluated (a box can be dropped for its least need alone).
    p.prune_boxes = false;
    search_boxes(p, tilings, options, nullptr, result);
  }
  decode_front(result, tilings, hw);
  result.stats.seconds = seconds_since(start);
  return result;
}

bool within_search_limits(const Problem &problem, const Hardware &hw,
                          const SearchOptions &options) {
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  return within_space_limits(problem, options.menu, array_size, tile_sizes_for(options.pruning),
                             options.recompute, options.limits);
}

void prepare_candidate_spaces(const std::deque<Problem> &problems, const Hardware &hw,
                              const SearchOptions &options) {
  if (!options.cache)
    return;
  std::vector<const Problem *> within;
  for (const Problem &p : problems)
    if (within_search_limits(p, hw, options))
      within.push_back(&p);
  options.cache->prepare(within, hw.global_buffer().double_buffering, options.pruning,
                         options.recompute);
}

ProblemFront brute_force_problem(const Problem &problem, const Hardware &hw,
                                 const SearchOptions &options, Pruning pruning,
                                 std::uint64_t max_tilings) {
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  const TileSizes sizes = tile_sizes_for(pruning);
  check_space_limits(problem, options.menu, array_size, sizes, options.recompute, options.limits);
  const TilingSpace tilings(problem, options.menu, array_size, sizes);
  ProblemFront result =
      make_result(options,
                  std::make_shared<const CandidateSpace>(build_candidate_space(
                      problem, hw.global_buffer().double_buffering, pruning, options.recompute)),
                  max_tilings > 0 ? std::min(max_tilings, tilings.size()) : tilings.size());
  result.stats.columns = result.stats.tilings;
  const CandidateSpace &space = *result.space;
  const std::vector<ComputeMetrics> compute = group_compute_metrics(problem, space);
  const CostWeights weights = cost_weights(hw, options.latency_model);
  const double capacity = static_cast<double>(hw.gb_capacity_words());
  const size_t spatial = space.spatial.size();
  for (std::uint64_t t = 0; t < result.stats.tilings; ++t) {
    const AtomTable atoms =
        atom_table(tilings.sizes(), tilings.tiling(t), hw.effective_rows(), hw.effective_cols());
    for (const RecomputeGroup &g : space.groups)
      for (size_t d = g.first; d < g.first + g.count; ++d)
        for (size_t s = 0; s < spatial; ++s) {
          const size_t group = static_cast<size_t>(&g - space.groups.data());
          ParetoPoint point;
          point.totals = evaluate_totals(space.metrics[d], compute[group * spatial + s], atoms);
          result.min_buffer_words = std::min(result.min_buffer_words, point.totals.buffer_words);
          if (point.totals.buffer_words > capacity)
            continue;
          ++result.stats.feasible_mappings;
          ++result.stats.objectives_computed;
          point.objectives = objectives(point.totals, weights);
          point.candidate = d * spatial + s;
          point.tiling = t;
          result.front.set_key(point);
          result.front.insert(point);
        }
  }
  decode_front(result, tilings, hw);
  result.stats.seconds = seconds_since(start);
  return result;
}

} // namespace dse
