// The exact front of a fused pair on a hierarchy of any depth: loop trees and level-1 tilings,
// each operator's nests below level 0 filtered to those no other nest beats in every additive
// part, and their pairs.
#include "dse/search/fused_hier_search.hpp"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <tuple>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/fused_least_cost.hpp"
#include "dse/search/fused_inner_nests.hpp"
#include "dse/search/hier_space.hpp"
#include "dse/search/local_plan_metrics.hpp"
#include "dse/support/check.hpp"
#include "dse/support/thread_arena.hpp"

namespace dse {

namespace {

/// An operator's nest, its cost and the parts of that cost the pair's objectives add up.
struct OperatorNest {
  OpMapping mapping;
  FusedOperatorCost cost;
  std::vector<double> parts;
};

/// Operator `op`'s local plans under `choice`. Pruned: those no other plan is provably as good as
/// in every part of the level-0 and level-1 metrics it contributes and, since its nests below
/// level 0 read its level-0 loops, in every entry of level0_loops_row.
std::vector<LocalPlan> local_plans(const Problem &problem, const PrefixChoice &choice, int op,
                                   bool double_buffering, bool prune) {
  std::vector<LocalPlan> plans = enumerate_local_plans(problem, choice, op);
  if (!prune)
    return plans;
  std::vector<MetricRow> rows =
      local_metric_rows(local_plan_metrics(problem, choice, op, plans, double_buffering));
  for (size_t i = 0; i < plans.size(); ++i) {
    std::vector<int> path = choice.prefix;
    path.insert(path.end(), plans[i].subnest.begin(), plans[i].subnest.end());
    const MetricRow loops = level0_loops_row(problem, op, path, choice.prefix.size());
    rows[i].insert(rows[i].end(), loops.begin(), loops.end());
  }
  std::vector<LocalPlan> kept;
  for (size_t i : undominated_rows(rows))
    kept.push_back(std::move(plans[i]));
  return kept;
}

/// What a loop tree decides of every mapping's cost, as a row of forms over the level-1 tiling:
/// the outer part's (the inputs' level-0 reads, the outputs' level-0 updates, each operator's
/// live words at level 1, the attached operators' work: fused_outer_cost reads nothing else of
/// the tree) and, per operator, level0_loops_row. A tree whose row is provably at most another's
/// is at most as costly, with the same nests, at every tiling.
MetricRow loop_tree_row(const Hardware &hw, const Problem &problem, const Dataflow &tree) {
  const FusedOuterForms forms = fused_outer_forms(hw, problem, tree);
  Posynomial reads, updates;
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    if (problem.tensors[t].role == TensorRole::Input)
      reads += forms.traffic[t].reads;
    else if (problem.tensors[t].role == TensorRole::Output)
      updates += forms.traffic[t].writes;
  }
  MetricRow row{reads, updates};
  row.insert(row.end(), forms.live_words.begin(), forms.live_words.end());
  row.push_back(forms.vector_ops);
  for (int o = 0; o < 2; ++o) {
    const MetricRow loops = level0_loops_row(problem, o, tree.path(o), tree.prefix.size());
    row.insert(row.end(), loops.begin(), loops.end());
  }
  return row;
}

std::vector<Dataflow> loop_trees(const Hardware &hw, const Problem &problem, bool prune) {
  const bool double_buffering = hw.hierarchy.levels[1].double_buffering;
  std::vector<Dataflow> trees;
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    const std::vector<LocalPlan> producer =
        local_plans(problem, choice, 0, double_buffering, prune);
    const std::vector<LocalPlan> consumer =
        local_plans(problem, choice, 1, double_buffering, prune);
    for (const LocalPlan &p : producer)
      for (const LocalPlan &c : consumer)
        trees.push_back(assemble_dataflow(problem, choice, {&p, &c}));
  }
  if (!prune)
    return trees;
  std::vector<MetricRow> rows;
  for (const Dataflow &tree : trees)
    rows.push_back(loop_tree_row(hw, problem, tree));
  std::vector<Dataflow> kept;
  for (size_t i : undominated_rows(rows))
    kept.push_back(std::move(trees[i]));
  return kept;
}

/// Per workload dimension, its level-1 extents: the divisors of a dimension of the pair (window
/// dimensions whole), 1 for the others.
std::vector<std::vector<std::int64_t>> level1_extents(const Problem &problem) {
  const Workload &w = *problem.workload;
  std::vector<std::vector<std::int64_t>> extents(w.dims.size(), {1});
  for (int d : problem.dims) {
    const std::int64_t size = w.dim_size(d);
    extents[static_cast<size_t>(d)] = problem.is_window[static_cast<size_t>(d)]
                                          ? std::vector<std::int64_t>{size}
                                          : divisors(size);
  }
  return extents;
}

/// Per workload dimension, the least and the largest value of each level-1 atom over its extents.
std::pair<AtomTable, AtomTable> atom_ranges(const Problem &problem,
                                            const std::vector<std::vector<std::int64_t>> &extents) {
  const Workload &w = *problem.workload;
  std::pair<AtomTable, AtomTable> ranges;
  for (size_t d = 0; d < w.dims.size(); ++d) {
    const std::int64_t size = w.dim_size(static_cast<int>(d));
    AtomValues lo = atom_values(size, extents[d].front(), 1, 1), hi = lo;
    for (std::int64_t e : extents[d]) {
      const AtomValues v = atom_values(size, e, 1, 1);
      for (size_t a = 0; a < v.size(); ++a) {
        lo[a] = std::min(lo[a], v[a]);
        hi[a] = std::max(hi[a], v[a]);
      }
    }
    ranges.first.per_dim.push_back(lo);
    ranges.second.per_dim.push_back(hi);
  }
  return ranges;
}

/// What the pair's objectives add up of an operator's nest, each part non-decreasing in every
/// objective and only the parts some objective reads: the nest's energy (the MACs', the inner
/// levels' and level 1's reads and updates); with latency, the compute cycles, level 1's reads
/// and updates as its port counts them (their sum through a shared port, each through its own),
/// and each inner level's transfer cycles where the level has a bandwidth. Level 0's traffic and
/// level 1's words and fills are the outer part's.
class AdditiveParts {
public:
  AdditiveParts(const Hardware &hw, const std::vector<Objective> &objectives) : hw_(hw) {
    const auto reads = [&](Objective o) {
      return std::find(objectives.begin(), objectives.end(), o) != objectives.end();
    };
    energy_ = reads(Objective::Energy) || reads(Objective::Edp);
    time_ = reads(Objective::Latency) || reads(Objective::Edp);
  }

  /// The parts of `c` into `parts` (its storage reused).
  void operator()(const FusedOperatorCost &c, std::vector<double> &parts) const {
    const Hierarchy &h = hw_.hierarchy;
    const StorageLevel &level1 = h.levels[1];
    double energy = c.macs * h.mac_pj, reads = 0, updates = 0;
    for (const std::optional<HierTensorCounts> &t : c.levels[1].tensors)
      if (t) {
        reads += t->reads;
        updates += t->updates;
      }
    energy += reads * level1.read_pj + updates * level1.update_pj;
    for (size_t l = 2; l < c.levels.size(); ++l)
      energy += c.levels[l].energy_pj;
    parts.clear();
    if (energy_)
      parts.push_back(energy);
    if (!time_)
      return;
    parts.push_back(c.macs / c.utilised_units);
    if (level1.read_words_per_cycle || level1.write_words_per_cycle)
      parts.insert(parts.end(), {reads, updates});
    else if (level1.shared_words_per_cycle)
      parts.push_back(reads + updates);
    for (size_t l = 2; l < c.levels.size(); ++l)
      if (has_bandwidth(h.levels[l]))
        parts.push_back(c.levels[l].transfer_cycles);
  }

private:
  static bool has_bandwidth(const StorageLevel &level) {
    return level.shared_words_per_cycle || level.read_words_per_cycle ||
           level.write_words_per_cycle;
  }

  const Hardware &hw_;
  bool energy_ = false, time_ = false;
};

bool weakly_dominates(const std::vector<double> &a, const std::vector<double> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] > b[i])
      return false;
  return true;
}

/// Whether a kept nest is at most as costly as `parts` in every part.
bool dominated(const std::vector<double> &parts, const std::vector<OperatorNest> &kept) {
  return std::any_of(kept.begin(), kept.end(),
                     [&](const OperatorNest &k) { return weakly_dominates(k.parts, parts); });
}

/// Adds nest `m` to `kept` unless a kept nest is at most as costly in every part (so the first of
/// equal ones stays), dropping the kept nests it is at most as costly as; the nest is copied
/// only when kept.
void keep_if_undominated(const OpMapping &m, const FusedOperatorCost &cost,
                         const std::vector<double> &parts, std::vector<OperatorNest> &kept) {
  if (dominated(parts, kept))
    return;
  std::erase_if(kept, [&](const OperatorNest &k) { return weakly_dominates(parts, k.parts); });
  kept.push_back({m, cost, parts});
}

/// Everything operator `o`'s nests' costs depend on under a loop tree and tiling: the level-1
/// extents of its dimensions and what it reads of the tree's level-0 loops.
struct NestKey {
  int op = 0;
  std::vector<std::int64_t> extents;
  FusedLevel0Trips trips;

  auto operator<=>(const NestKey &other) const {
    return std::tie(op, extents, trips.to_last_indexing, trips.all, trips.productions) <=>
           std::tie(other.op, other.extents, other.trips.to_last_indexing, other.trips.all,
                    other.trips.productions);
  }
};

NestKey nest_key(const Problem &problem, const Dataflow &tree, const FusedTiles &tiles, int o) {
  NestKey key{o, {}, fused_level0_trips(problem, tree, tiles, o)};
  for (int d : problem.ops[static_cast<size_t>(o)].dims)
    key.extents.push_back(tiles.extent[static_cast<size_t>(d)]);
  return key;
}

/// What a tiling of a loop tree starts from: whether it fits level 1 and, if so, its outer part,
/// both operators' nest keys and least costs.
struct TilingStart {
  bool fits = false;
  FusedOuterCost outer;
  std::array<NestKey, 2> keys;
  std::array<FusedOperatorCost, 2> least;
};

/// Nest fronts built together on the threads: enough to keep two to four threads busy, few enough
/// that the front rarely skips the later tilings of a batch, whose fronts are then built in vain.
constexpr size_t kNestFrontsPerBatch = 8;
/// Tilings started per batch at most (their starts are held until they are searched).
constexpr size_t kTilingsPerBatch = 256;
/// Tilings started together on the threads.
constexpr size_t kStartsPerChunk = 32;

class FusedSearch {
public:
  FusedSearch(const Hardware &hw, const Problem &problem, const HierSearchOptions &options)
      : hw_(hw), problem_(problem), options_(options), parts_(hw, options.objectives),
        front_(options.objectives) {}

  FusedHierSearchResult run() {
    const std::vector<Dataflow> trees = loop_trees(hw_, problem_, options_.prune);
    result_.statistics.loop_trees = trees.size();
    for (size_t t = 0; t < trees.size(); ++t) {
      const FusedOuterForms forms = fused_outer_forms(hw_, problem_, trees[t]);
      size_t tilings = 0; // the tree's, in tilings_ (its storage reused)
      for_each_tiling(trees[t], forms, [&](const FusedTiles &tiles) {
        if (tilings == tilings_.size())
          tilings_.push_back(tiles);
        else
          tilings_[tilings] = tiles;
        ++tilings;
      });
      for (size_t first = 0; first < tilings;) {
        const size_t started = prepare_nest_fronts(trees[t], forms, tilings, first);
        for (size_t i = 0; i < started; ++i, ++first)
          search_tiling(t, trees[t], tilings_[first], starts_[i]);
      }
    }
    for (const ParetoPoint &p : front_.points())
      result_.front.push_back(std::move(found_.at(p.tiling)));
    return std::move(result_);
  }

private:
  /// Calls `leaf` with every level-1 tiling of `tree`, chosen dimension by dimension, each
  /// dimension's extents largest first (large tiles tend to fill the front early, so that the
  /// bounds cut more); when pruning, a partly chosen tiling whose least cost the front rejects,
  /// or whose least level-1 words overflow level 1, is not completed.
  template <class Leaf>
  void for_each_tiling(const Dataflow &tree, const FusedOuterForms &forms, const Leaf &leaf) {
    const size_t dims = problem_.workload->dims.size();
    FusedTiles tiles{std::vector<std::int64_t>(dims, 1), std::vector<std::int64_t>(dims, 1)};
    choose_extent(tree, forms, 0, tiles, leaf);
  }

  template <class Leaf>
  void choose_extent(const Dataflow &tree, const FusedOuterForms &forms, size_t at,
                     FusedTiles &tiles, const Leaf &leaf) {
    if (at == problem_.dims.size())
      return leaf(tiles);
    const auto d = static_cast<size_t>(problem_.dims[at]);
    const std::int64_t size = problem_.workload->dim_size(static_cast<int>(d));
    for (auto e = extents_[d].rbegin(); e != extents_[d].rend(); ++e) {
      tiles.extent[d] = *e;
      tiles.trips[d] = size / *e;
      if (options_.prune && at + 1 < problem_.dims.size() &&
          partial_tiling_rejected(tree, forms, at + 1, tiles)) {
        ++result_.statistics.partial_tilings_cut;
        continue;
      }
      choose_extent(tree, forms, at + 1, tiles, leaf);
    }
    tiles.extent[d] = tiles.trips[d] = 1;
  }

  /// Starts the tilings from `tilings_[first]` on (of the tree's `tilings`) into starts_, on
  /// every thread, until kNestFrontsPerBatch nest fronts are wanted or kTilingsPerBatch are
  /// started, and returns how many; builds those fronts on every thread first. They are the fronts
  /// that the tilings will read as the front stands now (it only grows, so the search of the
  /// tilings may skip some but reads no others). Each front is a function of its key alone and the
  /// batches do not depend on the thread count, so neither do the search and its statistics.
  size_t prepare_nest_fronts(const Dataflow &tree, const FusedOuterForms &forms, size_t tilings,
                             size_t first) {
    std::map<NestKey, const FusedTiles *> wanted;
    size_t started = 0; // starts_[0, started): the batch's, tilings_[first, first + started)
    const size_t most = std::min(tilings - first, kTilingsPerBatch);
    while (started < most && wanted.size() < kNestFrontsPerBatch) {
      // A chunk started on the threads (a start reads no front), then judged in order; the
      // starts past the batch's end are dropped (the next batch makes them again).
      const size_t chunk = std::min(kStartsPerChunk, most - started);
      if (starts_.size() < started + chunk)
        starts_.resize(started + chunk);
      arena_.execute([&] {
        tbb::parallel_for(size_t{0}, chunk, [&](size_t i) {
          start_tiling(tree, forms, tilings_[first + started + i], starts_[started + i]);
        });
      });
      for (size_t i = 0; i < chunk && wanted.size() < kNestFrontsPerBatch; ++i, ++started) {
        const TilingStart &start = starts_[started];
        if (start.fits && !least_rejected(start))
          for (const NestKey &key : start.keys)
            if (!cache_.count(key))
              wanted.try_emplace(key, &tilings_[first + started]);
      }
    }
    if (wanted.empty())
      return started;
    std::vector<std::pair<const NestKey *, const FusedTiles *>> todo;
    for (const auto &[key, tiles] : wanted)
      todo.emplace_back(&key, tiles);
    std::vector<NestFront> built(todo.size());
    arena_.execute([&] {
      tbb::parallel_for(size_t{0}, todo.size(), [&](size_t i) {
        built[i] = nest_front(tree, *todo[i].second, *todo[i].first);
      });
    });
    for (size_t i = 0; i < todo.size(); ++i)
      remember(*todo[i].first, std::move(built[i]));
    return started;
  }

  /// Whether every completion of `tiles` (problem dimensions from `chosen` on still to choose)
  /// overflows level 1 or is rejected by the front: the outer part at its least over the
  /// unchosen extents (fused_outer_cost_bound), and each operator's least nest cost with the
  /// unchosen dimensions at extent and trips 1 (tiles and level-0 trips only grow the arrivals
  /// at level 1) and its MACs at the dimensions' sizes.
  bool partial_tiling_rejected(const Dataflow &tree, const FusedOuterForms &forms, size_t chosen,
                               const FusedTiles &tiles) const {
    thread_local AtomTable lo, hi; // their storage reused
    lo = atom_ranges_.first;
    hi = atom_ranges_.second;
    const Workload &w = *problem_.workload;
    for (size_t i = 0; i < chosen; ++i) {
      const auto d = static_cast<size_t>(problem_.dims[i]);
      lo.per_dim[d] = hi.per_dim[d] =
          atom_values(w.dim_size(static_cast<int>(d)), tiles.extent[d], 1, 1);
    }
    const FusedOuterCost outer =
        fused_outer_cost_bound(problem_, forms, lo, hi, options_.first_read_elision);
    const std::optional<std::int64_t> &capacity = hw_.hierarchy.levels[1].capacity_words;
    if (capacity && outer.level1.buffer_words > static_cast<double>(*capacity))
      return true;
    thread_local std::array<FusedOperatorCost, 2> least; // their storage reused
    for (int o = 0; o < 2; ++o) {
      FusedOperatorCost &c = least[static_cast<size_t>(o)];
      const FusedLevel0Trips trips = fused_level0_trips(problem_, tree, tiles, o);
      fused_least_operator_cost(hw_, problem_, tiles, o, trips, nullptr, c);
      c.macs = trips.productions;
      for (int d : problem_.ops[static_cast<size_t>(o)].dims)
        c.macs *= static_cast<double>(w.dim_size(d));
    }
    return front_rejects(outer, least[0], least[1]);
  }

  /// Fills `start` (its storage reused) for `tiles` under `tree`.
  void start_tiling(const Dataflow &tree, const FusedOuterForms &forms, const FusedTiles &tiles,
                    TilingStart &start) const {
    start.outer = fused_outer_cost(problem_, forms, tiles, options_.first_read_elision);
    const std::optional<std::int64_t> &capacity = hw_.hierarchy.levels[1].capacity_words;
    start.fits = !capacity || start.outer.level1.buffer_words <= static_cast<double>(*capacity);
    if (!start.fits)
      return;
    for (size_t o = 0; o < 2; ++o) {
      start.keys[o] = nest_key(problem_, tree, tiles, static_cast<int>(o));
      fused_least_operator_cost(hw_, problem_, tiles, static_cast<int>(o), start.keys[o].trips,
                                nullptr, start.least[o]);
    }
  }

  /// Whether, when pruning, the front rejects the least cost of every mapping of the tiling.
  bool least_rejected(const TilingStart &start) const {
    return options_.prune && front_rejects(start.outer, start.least[0], start.least[1]);
  }

  void search_tiling(size_t tree_id, const Dataflow &tree, const FusedTiles &tiles,
                     const TilingStart &start) {
    if (!start.fits)
      return;
    ++result_.statistics.tilings;
    if (least_rejected(start)) {
      ++result_.statistics.tilings_skipped;
      return;
    }
    const std::vector<OperatorNest> &producer = built_nests(start.keys[0]);
    const std::vector<OperatorNest> &consumer = built_nests(start.keys[1]);
    for (const OperatorNest &p : producer) {
      if (options_.prune && front_rejects(start.outer, p.cost, start.least[1]))
        continue;
      for (const OperatorNest &c : consumer)
        add(tree_id, tree, tiles, start.outer, p, c);
    }
  }

  /// Whether a point of the front is at most the cost of the outer part with these operator
  /// costs (each a nest's or a least cost, fused_least_operator_cost): every objective grows with
  /// each operator's additive parts, so the front then rejects every mapping they bound.
  bool front_rejects(const FusedOuterCost &outer, const FusedOperatorCost &producer,
                     const FusedOperatorCost &consumer) const {
    thread_local FusedHierCost bound; // its storage reused
    combine_fused_cost(hw_, problem_, outer, producer, consumer, options_.latency_model, bound);
    const ParetoFront::Key key = front_.key_of(hier_objectives(hw_, bound.totals));
    const size_t n = front_.objectives().size();
    return std::any_of(front_.points().begin(), front_.points().end(), [&](const ParetoPoint &p) {
      return std::equal(p.key.begin(), p.key.begin() + n, key.begin(),
                        [](double a, double b) { return a <= b; });
    });
  }

  /// An operator's nests kept under one key, and how many were evaluated.
  struct NestFront {
    std::vector<OperatorNest> kept;
    std::uint64_t nests = 0;
  };

  /// The nest front of `key`, whose tiles are `tiles` under `tree`: a function of the key alone.
  NestFront nest_front(const Dataflow &tree, const FusedTiles &tiles, const NestKey &key) const {
    const int o = key.op;
    std::vector<bool> refilled_at_level1;
    for (double trips : key.trips.to_last_indexing)
      refilled_at_level1.push_back(trips > 1);
    NestFront front;
    std::vector<OperatorNest> &kept = front.kept;
    FusedOperatorCost cost; // of the nest or shape at hand, its storage reused
    std::vector<double> parts;
    const auto shape_rejected = [&](const OpMapping &shape) {
      fused_least_operator_cost(hw_, problem_, tiles, o, key.trips, &shape, cost);
      parts_(cost, parts);
      return dominated(parts, kept);
    };
    for_each_inner_nest(hw_, problem_, o, tiles, refilled_at_level1, options_.prune, shape_rejected,
                        [&](const OpMapping &m) {
                          ++front.nests;
                          fused_operator_cost(hw_, problem_, tree, tiles, o, m,
                                              options_.first_read_elision, cost);
                          if (!fused_operator_fits(hw_, cost))
                            return;
                          parts_(cost, parts);
                          if (options_.prune)
                            keep_if_undominated(m, cost, parts, kept);
                          else
                            kept.push_back({m, cost, parts});
                        });
    return front;
  }

  void remember(const NestKey &key, NestFront &&front) {
    ++result_.statistics.nest_fronts;
    result_.statistics.nests += front.nests;
    cache_.emplace(key, std::move(front.kept));
  }

  /// The nest front of `key`, which the batch of its tiling built (prepare_nest_fronts): a tiling
  /// searched was started, fits and was not rejected then, and the front has only grown since.
  const std::vector<OperatorNest> &built_nests(const NestKey &key) const {
    const auto it = cache_.find(key);
    DSE_CHECK(it != cache_.end(), "a searched tiling's nest front was not built by its batch");
    return it->second;
  }

  void add(size_t tree_id, const Dataflow &tree, const FusedTiles &tiles,
           const FusedOuterCost &outer, const OperatorNest &producer,
           const OperatorNest &consumer) {
    ++result_.statistics.mappings;
    FusedHierCost cost = combine_fused_cost(hw_, problem_, outer, producer.cost, consumer.cost,
                                            options_.latency_model);
    ParetoPoint point;
    point.objectives = hier_objectives(hw_, cost.totals);
    front_.set_key(point);
    point.candidate = tree_id;
    point.tiling = next_id_++;
    if (!front_.admits(point.key, point.candidate, point.tiling))
      return;
    front_.insert(point);
    found_.emplace(point.tiling,
                   FusedHierFrontPoint{point.objectives,
                                       mapping(tree, tiles, producer.mapping, consumer.mapping),
                                       std::move(cost)});
  }

  /// The whole mapping, level 0's factors and orders filled in.
  FusedHierMapping mapping(const Dataflow &tree, const FusedTiles &tiles, const OpMapping &producer,
                           const OpMapping &consumer) const {
    FusedHierMapping m{tree, {producer, consumer}};
    for (int o = 0; o < 2; ++o) {
      LevelMapping &level0 = m.ops[static_cast<size_t>(o)].levels[0];
      for (int d : problem_.ops[static_cast<size_t>(o)].dims)
        level0.factor[static_cast<size_t>(d)] = tiles.trips[static_cast<size_t>(d)];
      level0.order = fused_level0_order(problem_, tree, o);
    }
    return m;
  }

  const Hardware &hw_;
  const Problem &problem_;
  const HierSearchOptions &options_;
  const AdditiveParts parts_;
  ParetoFront front_;
  FusedHierSearchResult result_;
  std::map<std::uint64_t, FusedHierFrontPoint> found_; // by point id, for the front's points
  std::map<NestKey, std::vector<OperatorNest>> cache_;
  std::vector<FusedTiles> tilings_; // of the loop tree at hand
  std::vector<TilingStart> starts_; // of the batch at hand
  tbb::task_arena arena_ = thread_arena(options_.threads);
  const std::vector<std::vector<std::int64_t>> extents_ = level1_extents(problem_);
  const std::pair<AtomTable, AtomTable> atom_ranges_ = atom_ranges(problem_, extents_);
  std::uint64_t next_id_ = 0;
};

} // namespace

FusedHierSearchResult search_fused_hier_front(const Hardware &hw, const Problem &problem,
                                              const HierSearchOptions &options) {
  DSE_CHECK(problem.fused() && hw.hierarchy.levels.size() >= 2 && hw.hierarchy.mapspace.empty(),
            "fused search needs a fused pair, an on-chip level and no mapspace rules");
  return FusedSearch(hw, problem, options).run();
}

} // namespace dse
