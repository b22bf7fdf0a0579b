// The exact front of a fused pair on a hierarchy of any depth: loop trees and level-1 tilings,
// each operator's nests below level 0 filtered to those no other nest beats in every additive
// part, and their pairs.
#include "dse/search/fused_hier_search.hpp"

#include <algorithm>
#include <map>

#include "dse/model/candidate_generation.hpp"
#include "dse/search/hier_space.hpp"
#include "dse/search/local_plan_metrics.hpp"
#include "dse/support/check.hpp"
#include "fused_inner_nests.hpp"

namespace dse {

namespace {

/// An operator's nest, its cost and the parts of that cost the pair's objectives add up.
struct OperatorNest {
  OpMapping mapping;
  FusedOperatorCost cost;
  std::vector<double> parts;
};

/// Operator `op`'s local plans under `choice`. Pruned: of the plans with the same sub-nest (the
/// same nests below level 0, whose costs do not depend on retention depths), those no other is
/// provably as good as in every part of the level-0 and level-1 metrics it contributes.
std::vector<LocalPlan> local_plans(const Problem &problem, const PrefixChoice &choice, int op,
                                   bool double_buffering, bool prune) {
  std::vector<LocalPlan> plans = enumerate_local_plans(problem, choice, op);
  if (!prune)
    return plans;
  std::map<std::vector<int>, std::vector<LocalPlan>> by_subnest;
  for (LocalPlan &plan : plans)
    by_subnest[plan.subnest].push_back(std::move(plan));
  std::vector<LocalPlan> kept;
  for (auto &[subnest, group] : by_subnest)
    for (size_t i :
         undominated_rows(local_plan_metrics(problem, choice, op, group, double_buffering)))
      kept.push_back(group[i]);
  return kept;
}

std::vector<Dataflow> loop_trees(const Problem &problem, bool double_buffering, bool prune) {
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
  return trees;
}

/// Every level-1 tiling: a divisor of each dimension of the pair (window dimensions whole).
std::vector<FusedTiles> level1_tilings(const Problem &problem) {
  const Workload &w = *problem.workload;
  const FusedTiles unit{std::vector<std::int64_t>(w.dims.size(), 1),
                        std::vector<std::int64_t>(w.dims.size(), 1)};
  std::vector<FusedTiles> tilings{unit};
  for (int d : problem.dims) {
    const auto at = static_cast<size_t>(d);
    const std::int64_t size = w.dim_size(d);
    const std::vector<std::int64_t> extents =
        problem.is_window[at] ? std::vector<std::int64_t>{size} : divisors(size);
    std::vector<FusedTiles> next;
    for (const FusedTiles &t : tilings)
      for (std::int64_t e : extents) {
        next.push_back(t);
        next.back().extent[at] = e;
        next.back().trips[at] = size / e;
      }
    tilings = std::move(next);
  }
  return tilings;
}

/// What the pair's objectives add up of an operator's nest, each non-decreasing in the
/// objectives: energy of the inner levels and the MACs, compute cycles, level-1 reads and
/// updates (their energy and time), and each inner level's transfer cycles.
std::vector<double> additive_parts(const Hardware &hw, const FusedOperatorCost &c) {
  std::vector<double> parts{c.macs * hw.hierarchy.mac_pj, c.macs / c.utilised_units, 0, 0};
  for (const std::optional<HierTensorCounts> &t : c.levels[1].tensors)
    if (t) {
      parts[2] += t->reads;
      parts[3] += t->updates;
    }
  for (size_t l = 2; l < c.levels.size(); ++l) {
    parts[0] += c.levels[l].energy_pj;
    parts.push_back(c.levels[l].transfer_cycles);
  }
  return parts;
}

bool weakly_dominates(const std::vector<double> &a, const std::vector<double> &b) {
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i] > b[i])
      return false;
  return true;
}

/// Adds `nest` to `kept` unless a kept nest is at most as costly in every part (so the first of
/// equal ones stays), dropping the kept nests it is at most as costly as.
void keep_if_undominated(OperatorNest &&nest, std::vector<OperatorNest> &kept) {
  if (std::any_of(kept.begin(), kept.end(),
                  [&](const OperatorNest &k) { return weakly_dominates(k.parts, nest.parts); }))
    return;
  std::erase_if(kept, [&](const OperatorNest &k) { return weakly_dominates(nest.parts, k.parts); });
  kept.push_back(std::move(nest));
}

bool fits_inner_levels(const Hardware &hw, const FusedOperatorCost &c) {
  for (size_t l = 2; l < c.levels.size(); ++l)
    if (const std::optional<std::int64_t> &capacity = hw.hierarchy.levels[l].capacity_words;
        capacity && c.levels[l].buffer_words > static_cast<double>(*capacity))
      return false;
  return true;
}

/// The operator's level-0 loops (prefix loops, then its sub-nest) with their trips: with the
/// level-1 extents of its dimensions, everything its nests' costs depend on.
std::vector<std::int64_t> nest_key(const Problem &problem, const Dataflow &tree,
                                   const FusedTiles &tiles, int o) {
  std::vector<std::int64_t> key{o};
  for (int d : problem.ops[static_cast<size_t>(o)].dims)
    key.push_back(tiles.extent[static_cast<size_t>(d)]);
  const auto add_loops = [&](const std::vector<int> &loops, std::int64_t scope) {
    for (int d : loops)
      if (const std::int64_t trips = tiles.trips[static_cast<size_t>(d)]; trips > 1)
        key.insert(key.end(), {d, trips, scope});
  };
  add_loops(tree.prefix, 1);
  add_loops(tree.subnests[static_cast<size_t>(o)], 0);
  return key;
}

class FusedSearch {
public:
  FusedSearch(const Hardware &hw, const Problem &problem, const HierSearchOptions &options)
      : hw_(hw), problem_(problem), options_(options), front_(options.objectives) {}

  FusedHierSearchResult run() {
    const std::vector<Dataflow> trees =
        loop_trees(problem_, hw_.hierarchy.levels[1].double_buffering, options_.prune);
    const std::vector<FusedTiles> tilings = level1_tilings(problem_);
    result_.statistics.loop_trees = trees.size();
    for (size_t t = 0; t < trees.size(); ++t) {
      const FusedOuterForms forms = fused_outer_forms(hw_, problem_, trees[t]);
      for (const FusedTiles &tiles : tilings)
        search_tiling(t, trees[t], forms, tiles);
    }
    for (const ParetoPoint &p : front_.points())
      result_.front.push_back(std::move(found_.at(p.tiling)));
    return std::move(result_);
  }

private:
  void search_tiling(size_t tree_id, const Dataflow &tree, const FusedOuterForms &forms,
                     const FusedTiles &tiles) {
    const FusedOuterCost outer =
        fused_outer_cost(problem_, forms, tiles, options_.first_read_elision);
    const std::optional<std::int64_t> &capacity = hw_.hierarchy.levels[1].capacity_words;
    if (capacity && outer.level1.buffer_words > static_cast<double>(*capacity))
      return;
    ++result_.statistics.tilings;
    if (options_.prune && bound_rejects(outer, tiles, tree)) {
      ++result_.statistics.tilings_skipped;
      return;
    }
    const std::vector<OperatorNest> &producer = nests(tree, tiles, 0);
    const std::vector<OperatorNest> &consumer = nests(tree, tiles, 1);
    for (const OperatorNest &p : producer)
      for (const OperatorNest &c : consumer)
        add(tree_id, tree, tiles, outer, p, c);
  }

  /// Whether a point of the front is at most the pair's least cost under this loop tree and
  /// tiling: its outer part and the operators' MACs at full utilisation, nothing else.
  bool bound_rejects(const FusedOuterCost &outer, const FusedTiles &tiles, const Dataflow &tree) {
    const auto least = [&](int o) {
      FusedOperatorCost c;
      c.levels.resize(hw_.hierarchy.levels.size());
      c.macs = 1;
      for (int d : problem_.ops[static_cast<size_t>(o)].dims)
        c.macs *= static_cast<double>(tiles.extent[static_cast<size_t>(d)] *
                                      tiles.trips[static_cast<size_t>(d)]);
      if (o == 0)
        for (int d : tree.recompute_dims(problem_))
          c.macs *= static_cast<double>(tiles.trips[static_cast<size_t>(d)]);
      c.utilised_units = static_cast<double>(hw_.hierarchy.compute_units());
      return c;
    };
    const FusedHierCost bound =
        combine_fused_cost(hw_, problem_, outer, least(0), least(1), options_.latency_model);
    const ParetoFront::Key key = front_.key_of(hier_objectives(hw_, bound.totals));
    const size_t n = front_.objectives().size();
    return std::any_of(front_.points().begin(), front_.points().end(), [&](const ParetoPoint &p) {
      return std::equal(p.key.begin(), p.key.begin() + n, key.begin(),
                        [](double a, double b) { return a <= b; });
    });
  }

  const std::vector<OperatorNest> &nests(const Dataflow &tree, const FusedTiles &tiles, int o) {
    std::vector<std::int64_t> key = nest_key(problem_, tree, tiles, o);
    if (auto it = cache_.find(key); it != cache_.end())
      return it->second;
    std::vector<OperatorNest> kept;
    for_each_inner_nest(hw_, problem_, o, tiles, options_.prune, [&](const OpMapping &m) {
      ++result_.statistics.nests;
      FusedOperatorCost cost =
          fused_operator_cost(hw_, problem_, tree, tiles, o, m, options_.first_read_elision);
      if (!fits_inner_levels(hw_, cost))
        return;
      std::vector<double> parts = additive_parts(hw_, cost);
      if (options_.prune)
        keep_if_undominated({m, std::move(cost), std::move(parts)}, kept);
      else
        kept.push_back({m, std::move(cost), std::move(parts)});
    });
    ++result_.statistics.nest_fronts;
    return cache_.emplace(std::move(key), std::move(kept)).first->second;
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
  ParetoFront front_;
  FusedHierSearchResult result_;
  std::map<std::uint64_t, FusedHierFrontPoint> found_; // by point id, for the front's points
  std::map<std::vector<std::int64_t>, std::vector<OperatorNest>> cache_;
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
