// Explores each distinct segment workload once and keeps its best point for the plan objective,
// with the operand the chosen loop order re-streams most from DRAM.
#include "dse/graph/segment_search.hpp"

#include <algorithm>
#include <atomic>
#include <sstream>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include "dse/graph/lowering.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/support/check.hpp"
#include "dse/support/thread_arena.hpp"

namespace dse {

/// Searches per thread from which a batch runs each search on one thread. Measured on the vector
/// DSP, one thread per search plans ResNet-18's 26 searches 20% faster, a BERT layer's 8 10%
/// slower.
constexpr size_t kSearchesPerThread = 8;

SegmentSearcher::SegmentSearcher(const Hardware &hw, SearchOptions options, PlanObjective objective)
    : hw_(hw), options_(std::move(options)), objective_(objective) {
  options_.objectives = {Objective::Latency, Objective::Energy};
  if (!options_.cache)
    options_.cache = std::make_shared<CandidateCache>();
}

namespace {

/// Words of a tensor as its access spans them (an index `2*p+r` spans 2*(P-1)+R).
double tensor_words(const Workload &w, const TensorAccess &access) {
  double words = 1;
  for (const IndexExpr &e : access.indices) {
    std::int64_t extent = 1;
    for (const IndexTerm &t : e.terms)
      extent += t.coef * (w.dim_size(t.dim) - 1);
    words *= static_cast<double>(extent);
  }
  return words;
}

/// Each part of the point with the DRAM words of its tensors.
std::vector<SegmentPart> parts_of(const ExploreResult &r, const FrontPoint &point,
                                  const Hardware &hw, LatencyModel model) {
  std::vector<SegmentPart> parts;
  for (const MappingPart &part : point.parts) {
    const Problem &p = r.problems[part.problem];
    const MappingReport report = evaluate_mapping(p, part.candidate, part.tiling, hw, model);
    SegmentPart out{part.totals, {}};
    for (const TensorReport &t : report.tensors) // the problem's tensors, then residuals
      out.tensors.push_back({t.name, t.dram_reads, t.dram_writes});
    parts.push_back(std::move(out));
  }
  return parts;
}

/// "W0 x3.2": the input read most often per word under the point's loop order, if re-read.
std::string restreamed_operand(const ExploreResult &r, const FrontPoint &point,
                               const std::vector<SegmentPart> &parts) {
  std::string best;
  double most = 1;
  for (size_t i = 0; i < parts.size(); ++i) {
    const Problem &p = r.problems[point.parts[i].problem];
    for (size_t t = 0; t < p.tensors.size(); ++t) {
      if (p.tensors[t].role != TensorRole::Input)
        continue;
      const double factor =
          parts[i].tensors[t].reads / tensor_words(*p.workload, p.tensors[t].access);
      if (factor > most * (1 + 1e-9)) {
        most = factor;
        std::ostringstream out;
        out.precision(3);
        out << p.tensors[t].name << " x" << factor;
        best = out.str();
      }
    }
  }
  return best;
}

bool runs_fused(const ExploreResult &r, const FrontPoint &point) {
  return std::any_of(point.parts.begin(), point.parts.end(),
                     [&](const MappingPart &part) { return r.problems[part.problem].fused(); });
}

} // namespace

SegmentCost sequence_cost(std::vector<SegmentPart> parts, const Hardware &hw, LatencyModel model) {
  const CostWeights w = cost_weights(hw, model);
  SegmentCost c;
  for (const SegmentPart &part : parts) {
    const Objectives o = objectives(part.totals, w);
    c.latency_s += o.latency_s;
    c.energy_pj += o.energy_pj;
    c.dram_words += o.dram_words;
    c.buffer_words = std::max(c.buffer_words, o.buffer_words);
    c.macs += part.totals.macs;
    // Parts run one after another, each balanced over the units on its own.
    add_dma_loads(c.dma_units, dma_unit_loads(part.totals.dram_reads, part.totals.dram_writes, hw));
  }
  c.parts = std::move(parts);
  return c;
}

std::pair<double, double> SegmentSearcher::rank(const Objectives &o) const {
  return plan_rank(o, objective_);
}

namespace {

/// The point of `front` that `rank` puts first (the earliest of equals); null when it is empty.
template <class Point, class Rank>
const Point *best_point(const std::vector<Point> &front, const Rank &rank) {
  const Point *pick = nullptr;
  for (const Point &p : front)
    if (!pick || rank(p.objectives) < rank(pick->objectives))
      pick = &p;
  return pick;
}

} // namespace

SegmentOutcome SegmentSearcher::outcome_of(const ExploreResult &r) const {
  const FrontPoint *pick = best_point(r.front, [this](const Objectives &o) { return rank(o); });
  SegmentOutcome out;
  if (pick)
    out.cost = cost_of(r, *pick);
  return out;
}

namespace {

/// The MACs that `plan` runs, recomputed ones included.
double plan_macs(const HierExploreResult &r, const HierPlan &plan) {
  double macs = 0;
  for (const HierPlanPart &part : plan.parts) {
    const HierSegmentFront &s = r.segments[part.segment];
    if (s.pair)
      macs += s.fused.front[part.point].cost.totals.macs;
    else if (!s.pass)
      macs += s.search.front[part.point].cost.macs;
  }
  return macs;
}

} // namespace

std::optional<SegmentOutcome> SegmentSearcher::outcome_of(const HierExploreResult &r,
                                                          bool fused) const {
  const HierPlan *pick = best_point(r.front, [this](const Objectives &o) { return rank(o); });
  SegmentOutcome out;
  if (!pick)
    return fused ? std::nullopt : std::optional(out);
  SegmentCost &c = out.cost.emplace();
  c.latency_s = pick->objectives.latency_s;
  c.energy_pj = pick->objectives.energy_pj;
  c.dram_words = pick->objectives.dram_words;
  c.buffer_words = pick->objectives.buffer_words;
  c.macs = plan_macs(r, *pick);
  c.fused = fused;
  for (const HierPlan &p : r.front)
    c.front.push_back(
        {p.objectives.latency_s, p.objectives.energy_pj, p.objectives.dram_words, fused ? 1 : 0});
  c.front = pareto_filter(c.front, PlanFrontPolicy{});
  return out;
}

SegmentCost SegmentSearcher::cost_of(const ExploreResult &r, const FrontPoint &pick) const {
  // The parts' DMA loads as sequence_cost sums them; the objectives exactly as searched.
  SegmentCost c =
      sequence_cost(parts_of(r, pick, hw_, options_.latency_model), hw_, options_.latency_model);
  c.latency_s = pick.objectives.latency_s;
  c.energy_pj = pick.objectives.energy_pj;
  c.dram_words = pick.objectives.dram_words;
  c.buffer_words = pick.objectives.buffer_words;
  c.macs = pick.totals.macs;
  c.fused = runs_fused(r, pick);
  CostFront front;
  for (const FrontPoint &p : r.front)
    front.push_back({p.objectives.latency_s, p.objectives.energy_pj, p.objectives.dram_words,
                     runs_fused(r, p) ? 1 : 0});
  c.front = pareto_filter(front, PlanFrontPolicy{});
  c.restreamed = restreamed_operand(r, pick, c.parts);
  return c;
}

SegmentSearcher::Searched SegmentSearcher::run(const Search &search) const {
  Searched out;
  try {
    out.outcome = search();
    out.searched = out.outcome.has_value();
  } catch (const NoMappingFits &e) {
    out.searched = true;
    out.outcome = SegmentOutcome{std::nullopt, e};
  } catch (...) {
    out.error = std::current_exception();
  }
  return out;
}

std::optional<SegmentOutcome> SegmentSearcher::memoized(const std::string &key,
                                                        const Search &search) {
  if (const auto it = results_.find(key); it != results_.end()) {
    ++hits_;
    return it->second;
  }
  Searched done;
  if (const auto it = prefetched_.find(key); it != prefetched_.end()) {
    done = std::move(it->second);
    prefetched_.erase(it);
  } else {
    done = run(search);
  }
  if (done.error)
    std::rethrow_exception(done.error);
  searches_ += done.searched ? 1 : 0;
  results_[key] = done.outcome;
  return done.outcome;
}

std::string SegmentSearcher::key_of(const Workload &workload, bool fused) {
  return (fused ? "fused " : "whole ") + workload_key(workload);
}

SegmentSearcher::Search SegmentSearcher::search_of(const Workload &workload, bool fused,
                                                   const SearchOptions &options) const {
  if (!hw_.is_legacy())
    return [this, &workload, &options, fused] {
      HierSearchOptions hier;
      hier.objectives = options.objectives;
      hier.latency_model = options.latency_model;
      hier.first_read_elision = hw_.hierarchy.first_read_elision;
      hier.threads = options.threads;
      if (!fused)
        return outcome_of(explore_hier(hw_, workload, hier), false);
      hier.fusion = true;
      const std::optional<HierExploreResult> pair = explore_hier_fused_pair(hw_, workload, hier);
      return pair ? outcome_of(*pair, true) : std::nullopt;
    };
  if (fused)
    return [this, &workload, &options] {
      const std::optional<ExploreResult> r = explore_fused_chain(workload, hw_, options);
      return r ? std::optional(outcome_of(*r)) : std::nullopt;
    };
  return [this, &workload, &options] {
    return std::optional(outcome_of(explore(workload, hw_, options)));
  };
}

void SegmentSearcher::prefetch(const std::vector<std::pair<Workload, bool>> &segments) {
  std::vector<std::pair<std::string, const std::pair<Workload, bool> *>> todo;
  for (const auto &segment : segments) {
    const std::string key = key_of(segment.first, segment.second);
    if (!results_.count(key) && !prefetched_.count(key) &&
        std::none_of(todo.begin(), todo.end(), [&](const auto &t) { return t.first == key; }))
      todo.emplace_back(key, &segment);
  }
  std::vector<Searched> done(todo.size());
  // On the searches' threads (--threads). With many more searches than threads, one thread per
  // search: a search on one thread bounds its boxes with its whole front, where threads sharing
  // a search each bound with their own; with few, each search shares the threads. The fused
  // segments' candidate spaces, large and often shared by segments of different sizes, are built
  // on every thread while the other segments are searched; the fused segments are searched then.
  tbb::task_arena arena = thread_arena(options_.threads);
  SearchOptions per_search = options_;
  if (todo.size() >= kSearchesPerThread * static_cast<size_t>(arena.max_concurrency()))
    per_search.threads = 1;
  std::vector<size_t> whole, fused;
  std::vector<std::pair<const Workload *, bool>> fused_explores;
  for (size_t i = 0; i < todo.size(); ++i) {
    (todo[i].second->second ? fused : whole).push_back(i);
    if (todo[i].second->second && hw_.is_legacy())
      fused_explores.emplace_back(&todo[i].second->first, true);
  }
  const auto search_one = [&](size_t i) {
    const auto &[workload, is_fused] = *todo[i].second;
    done[i] = run(search_of(workload, is_fused, per_search));
  };
  // The fused searches go largest first (by the product of their sizes) to the next free thread,
  // so that the last one to end is a small one.
  const auto size_of = [&](size_t i) {
    double product = 1;
    for (const Dimension &d : todo[i].second->first.dims)
      product *= static_cast<double>(d.size);
    return product;
  };
  std::stable_sort(fused.begin(), fused.end(),
                   [&](size_t a, size_t b) { return size_of(a) > size_of(b); });
  arena.execute([&] {
    tbb::task_group spaces;
    if (!fused_explores.empty())
      spaces.run([&] { prepare_explores(fused_explores, hw_, options_); });
    tbb::parallel_for(size_t{0}, whole.size(), [&](size_t k) { search_one(whole[k]); });
    spaces.wait();
    std::atomic<size_t> next{0};
    tbb::parallel_for(0, arena.max_concurrency(), [&](int) {
      for (size_t k = next++; k < fused.size(); k = next++)
        search_one(fused[k]);
    });
  });
  for (size_t i = 0; i < todo.size(); ++i)
    prefetched_[todo[i].first] = std::move(done[i]);
}

SegmentOutcome SegmentSearcher::best(const Workload &workload) {
  return *memoized(key_of(workload, false), search_of(workload, false, options_));
}

std::optional<SegmentOutcome> SegmentSearcher::best_fused(const Workload &workload) {
  return memoized(key_of(workload, true), search_of(workload, true, options_));
}

} // namespace dse
