// Chains are segmented into fused runs of operators and single operators; each segment is
// searched and the segment fronts are combined exactly (docs/DESIGN.md §4.1, §4.5).
#include "dse/search/explore.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>

#include "dse/ir/chain.hpp"
#include "dse/search/front_algebra.hpp"
#include "dse/support/thread_arena.hpp"
#include "problem_matrices.hpp"

namespace dse {

namespace {

/// Front points of parts run one after another, compared on `objectives`: latency, energy and
/// traffic add, the buffer need is the larger one; ties keep the earlier point.
class SequencePolicy {
public:
  using Point = FrontPoint;
  explicit SequencePolicy(std::vector<Objective> objectives) : objectives_(std::move(objectives)) {}

  ParetoFront::Key key(const FrontPoint &p) const {
    return ParetoFront::key_of(p.objectives, objectives_);
  }
  size_t dimensions() const { return objectives_.size(); }
  bool tie_before(const FrontPoint &, const FrontPoint &) const { return false; }

  FrontPoint combine(const FrontPoint &x, const FrontPoint &y) const {
    FrontPoint s = x;
    s.parts.insert(s.parts.end(), y.parts.begin(), y.parts.end());
    s.objectives = objectives_in_sequence(x.objectives, y.objectives);
    MetricTotals &t = s.totals;
    t.dram_reads += y.totals.dram_reads;
    t.dram_writes += y.totals.dram_writes;
    t.gb_reads += y.totals.gb_reads;
    t.gb_writes += y.totals.gb_writes;
    t.macs += y.totals.macs;
    t.cycles += y.totals.cycles;
    t.vector_ops += y.totals.vector_ops;
    t.buffer_words = std::max(t.buffer_words, y.totals.buffer_words);
    return s;
  }

private:
  std::vector<Objective> objectives_;
};

std::string segment_label(const Problem &p) {
  std::string label;
  for (size_t o = 0; o < p.ops.size(); ++o)
    label += (o ? "+" : "") + p.op(static_cast<int>(o)).name;
  return p.fused() ? label + " fused" : label;
}

class Explorer {
public:
  Explorer(const Workload &w, const Hardware &hw, const SearchOptions &options,
           const ProgressReporter &progress, const EstimateReporter &estimate)
      : workload_(w), hw_(hw), options_(options), progress_(progress), estimate_(estimate) {
    options_.objectives = composable_objectives(options.objectives);
    if (!options_.cache)
      options_.cache = std::make_shared<CandidateCache>();
  }

  /// The chain's front. A segment that an earlier chain (of another split of the workload) had
  /// too is the same problem: its front is taken, not searched again.
  std::vector<FrontPoint> chain_front(const Chain &chain) {
    prepare_chain(chain);
    const auto search_segment = [&](size_t i, size_t j) {
      std::optional<Problem> problem = segment_problem(chain, i, j);
      return problem ? search(std::move(*problem)) : std::vector<FrontPoint>{};
    };
    const auto segment = [&](size_t i, size_t j) {
      return segments_.of(chain, i, j, search_segment);
    };
    return segmented_front(chain.links.size(), longest_segment(), segment, FrontPoint{},
                           SequencePolicy(options_.objectives));
  }

  /// The front of the chain's links all run fused, or std::nullopt when they cannot be.
  std::optional<std::vector<FrontPoint>> fused_front(const Chain &chain) {
    std::optional<Problem> fused = fused_problem(chain);
    if (!fused)
      return std::nullopt;
    return search(std::move(*fused));
  }

  /// Appends the problems that chain_front (or, with fused_only, fused_front) searches for
  /// `chain`, in the order it searches them.
  void add_problems(const Chain &chain, bool fused_only, std::deque<Problem> &out) {
    if (fused_only) {
      if (std::optional<Problem> p = fused_problem(chain))
        out.push_back(std::move(*p));
      return;
    }
    for (size_t i = chain.links.size(); i-- > 0;)
      for (size_t j = i + 1; j <= std::min(chain.links.size(), i + longest_segment()); ++j)
        if (std::optional<Problem> p = segment_problem(chain, i, j))
          out.push_back(std::move(*p));
  }

  void report_infeasible_if_empty(const std::vector<FrontPoint> &front) const {
    if (!front.empty())
      return;
    std::string worst;
    double need = 0;
    for (size_t i = 0; i < result_.problems.size(); ++i)
      if (min_need_[i] > hw_.gb_capacity_words() && min_need_[i] > need) {
        need = min_need_[i];
        worst = segment_label(result_.problems[i]);
      }
    throw NoMappingFits(SourceLocation{hw_.source_file, 0, 0},
                        "global buffer '" + hw_.global_buffer().name + "' holds " +
                            std::to_string(hw_.gb_capacity_words()) +
                            " words, too small for any mapping of '" + worst + "' in workload '" +
                            workload_.name + "' (it needs at least " +
                            std::to_string(static_cast<long long>(std::ceil(need))) + " words)");
  }

  ExploreResult &result() { return result_; }

private:
  /// Builds the chain's distinct candidate spaces in parallel before its problems are searched.
  void prepare_chain(const Chain &chain) {
    std::deque<Problem> problems;
    add_problems(chain, false, problems);
    thread_arena(options_.threads).execute([&] {
      prepare_candidate_spaces(problems, hw_, options_);
    });
  }

  size_t longest_segment() const {
    return options_.fusion ? std::max<size_t>(1, options_.max_fused) : 1;
  }

  /// The chain's links all run fused as one problem, or std::nullopt when they cannot be.
  std::optional<Problem> fused_problem(const Chain &chain) {
    if (chain.links.size() < 2 || chain.links.size() > longest_segment())
      return std::nullopt;
    return segment_problem(chain, 0, chain.links.size());
  }

  /// Links i to j - 1 as one problem: a link alone, or a run of them fused when fusion is on and
  /// they can be (without recompute, only when every overlapping halo can be cached). A run
  /// longer than a pair is left out, with a note, when its spaces exceed the limits: the shorter
  /// segments inside it still cover the chain.
  std::optional<Problem> segment_problem(const Chain &chain, size_t i, size_t j) {
    if (j == i + 1)
      return make_single_problem(workload_, chain.links[i]);
    const std::vector<ChainLink> links(chain.links.begin() + static_cast<std::ptrdiff_t>(i),
                                       chain.links.begin() + static_cast<std::ptrdiff_t>(j));
    if (!options_.fusion || !fusable(links))
      return std::nullopt;
    Problem fused = make_chain_problem(workload_, links);
    if (!options_.recompute && !fused.runs_without_recompute({}, fused.cacheable_halos()))
      return std::nullopt;
    if (links.size() > 2 && !within_search_limits(fused, hw_, options_)) {
      const std::string note = segment_label(fused) +
                               ": left out, its spaces exceed the limits (raise them with "
                               "--max-tilings and --max-loop-nests, or lower --max-fused)";
      if (std::find(result_.notes.begin(), result_.notes.end(), note) == result_.notes.end())
        result_.notes.push_back(note);
      return std::nullopt;
    }
    return fused;
  }

  /// Whether the links can run fused: each pair (through bare indices only without window
  /// fusion) and the windows composed down the run.
  bool fusable(const std::vector<ChainLink> &links) const {
    for (size_t k = 0; k + 1 < links.size(); ++k)
      if (!(options_.window_fusion ? can_fuse_with_halo : can_fuse)(workload_, links[k],
                                                                    links[k + 1]))
        return false;
    return chain_fusion_problem(workload_, links).empty();
  }

  std::vector<FrontPoint> search(Problem problem) {
    result_.problems.push_back(std::move(problem));
    const size_t index = result_.problems.size() - 1;
    const Problem &p = result_.problems.back();
    SearchOptions options = options_;
    if (progress_)
      options.progress = [this, label = segment_label(p)](std::uint64_t done, std::uint64_t total) {
        progress_(label, done, total);
      };
    if (estimate_)
      options.estimate = [this, label = segment_label(p)](const SearchEstimate &e) {
        estimate_(label, e);
      };
    const ProblemFront found = search_problem(p, hw_, options);
    result_.summaries.push_back({segment_label(p), found.stats});
    min_need_.push_back(found.min_buffer_words);
    std::vector<FrontPoint> out;
    for (size_t i = 0; i < found.front.size(); ++i) {
      const ParetoPoint &point = found.front.points()[i];
      const PointMapping &mapping = found.mappings[i];
      MappingPart part{index,        mapping.candidate,      mapping.tiling, point.objectives,
                       point.totals, mapping.op_buffer_words};
      out.push_back({point.objectives, point.totals, {part}});
    }
    return out;
  }

  const Workload &workload_;
  const Hardware &hw_;
  SearchOptions options_;
  ProgressReporter progress_;
  EstimateReporter estimate_;
  ExploreResult result_;
  std::vector<double> min_need_;
  SegmentFronts<FrontPoint> segments_;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Fails when a front point's objective is not finite: sizes, energies and rates whose products
/// leave the range of a double (each input is bounded, their products are not).
void require_finite(const std::vector<FrontPoint> &front, const Workload &workload,
                    const Hardware &hw) {
  for (const FrontPoint &p : front) {
    const Objectives &o = p.objectives;
    const std::pair<const char *, double> values[] = {{"latency_s", o.latency_s},
                                                      {"energy_pj", o.energy_pj},
                                                      {"edp", o.edp},
                                                      {"dram_words", o.dram_words}};
    for (const auto &[name, value] : values)
      if (!std::isfinite(value))
        throw UserError(SourceLocation{workload.source_file, 0, 0},
                        std::string(name) + " of workload '" + workload.name + "' on '" + hw.name +
                            "' is not finite: its dimension sizes, with the hardware's "
                            "energies and rates, exceed the range of a double");
  }
}

/// The explorer's problems with the exact front of `points` over the requested objectives.
ExploreResult finished(Explorer &explorer, const std::vector<FrontPoint> &points,
                       const Workload &workload, const Hardware &hw, const SearchOptions &options,
                       std::chrono::steady_clock::time_point start) {
  ExploreResult result = std::move(explorer.result());
  result.front = pareto_filter(points, SequencePolicy(options.objectives));
  require_finite(result.front, workload, hw);
  result.seconds = seconds_since(start);
  return result;
}

} // namespace

ExploreResult explore(const Workload &workload, const Hardware &hw, const SearchOptions &options,
                      const ProgressReporter &progress, const EstimateReporter &estimate) {
  const auto start = std::chrono::steady_clock::now();
  Explorer explorer(workload, hw, options, progress, estimate);
  // The workload's front is every split's, filtered.
  const std::vector<FrontPoint> front = every_split_points(
      chain_splits(workload),
      [&](const Chain &chain) {
        std::vector<FrontPoint> chain_front = explorer.chain_front(chain);
        explorer.report_infeasible_if_empty(chain_front);
        return chain_front;
      },
      SequencePolicy(composable_objectives(options.objectives)));
  return finished(explorer, front, workload, hw, options, start);
}

void prepare_explores(const std::vector<std::pair<const Workload *, bool>> &explores,
                      const Hardware &hw, const SearchOptions &options) {
  if (!options.cache)
    return;
  std::deque<Problem> problems;
  for (const auto &[workload, fused_only] : explores) {
    try {
      Explorer explorer(*workload, hw, options, {}, {});
      const std::vector<std::vector<Chain>> splits = chain_splits(*workload);
      if (fused_only && !only_chain(splits))
        continue;
      for (const std::vector<Chain> &split : splits)
        for (const Chain &chain : split)
          explorer.add_problems(chain, fused_only, problems);
    } catch (const UserError &) {
      // The workload's search throws it again, where its caller expects it.
    }
  }
  prepare_candidate_spaces(problems, hw, options);
}

std::optional<ExploreResult> explore_fused_chain(const Workload &workload, const Hardware &hw,
                                                 const SearchOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<std::vector<Chain>> splits = chain_splits(workload);
  const Chain *chain = only_chain(splits);
  if (!chain)
    return std::nullopt;
  Explorer explorer(workload, hw, options, {}, {});
  std::optional<std::vector<FrontPoint>> front = explorer.fused_front(*chain);
  if (!front)
    return std::nullopt;
  explorer.report_infeasible_if_empty(*front);
  return finished(explorer, *front, workload, hw, options, start);
}

} // namespace dse
