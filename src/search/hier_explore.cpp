// A workload's front on a hierarchy of any depth: segment fronts (einsums, vector passes, fused
// pairs) combined chain by chain, in sequence.
#include "dse/search/hier_explore.hpp"

#include "dse/ir/chain.hpp"
#include "dse/ir/einsum_renaming.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/search/front_algebra.hpp"

namespace dse {

namespace {

/// Plans run one after another: latency, energy and DRAM words add up, the buffer need is the
/// larger one.
class HierSequencePolicy {
public:
  using Point = HierPlan;
  explicit HierSequencePolicy(std::vector<Objective> objectives)
      : objectives_(std::move(objectives)) {}

  ParetoFront::Key key(const HierPlan &p) const {
    return ParetoFront::key_of(p.objectives, objectives_);
  }
  size_t dimensions() const { return objectives_.size(); }
  bool tie_before(const HierPlan &, const HierPlan &) const { return false; }

  HierPlan combine(const HierPlan &x, const HierPlan &y) const {
    HierPlan s = x;
    s.parts.insert(s.parts.end(), y.parts.begin(), y.parts.end());
    s.objectives = objectives_in_sequence(x.objectives, y.objectives);
    return s;
  }

private:
  std::vector<Objective> objectives_;
};

HierPlan pass_plan(const Hardware &hw, const HierVectorPass &pass, size_t segment) {
  HierPlan plan;
  plan.parts = {{segment, 0}};
  Objectives &o = plan.objectives;
  o.latency_s = pass.latency_cycles / (hw.clock_ghz * 1e9);
  o.energy_pj = pass.energy_pj;
  o.edp = o.latency_s * o.energy_pj;
  o.dram_words = pass.dram_reads + pass.dram_updates;
  return plan;
}

/// `search` with every mapping's dimensions renamed by `to` (per workload dimension, the one it
/// becomes, -1 for dimensions the einsum does not use).
HierSearchResult renamed_search(HierSearchResult search, const std::vector<int> &to) {
  const auto rename = [&to](std::vector<std::int64_t> &factors) {
    std::vector<std::int64_t> out(factors.size(), 1);
    for (size_t d = 0; d < factors.size(); ++d)
      if (to[d] >= 0)
        out[static_cast<size_t>(to[d])] = factors[d];
    factors = std::move(out);
  };
  for (HierFrontPoint &point : search.front) {
    for (LevelMapping &level : point.mapping.levels) {
      std::erase_if(level.order, [&to](int d) { return to[static_cast<size_t>(d)] < 0; });
      for (int &d : level.order)
        d = to[static_cast<size_t>(d)];
      rename(level.factor);
    }
    for (std::vector<FanoutMapping> &fanout : point.mapping.fanouts)
      for (FanoutMapping &f : fanout) {
        rename(f.x);
        rename(f.y);
      }
  }
  return search;
}

/// Every tensor may bypass every on-chip level, so only mapspace constraints, or keeping every
/// tensor in level 1, can leave an einsum without a mapping.
void require_some_mapping(const Hardware &hw, const Operator &op, const HierSearchResult &r,
                          bool level1_keeps_all) {
  if (!r.front.empty())
    return;
  const SourceLocation where{hw.source_file, 0, 0};
  if (level1_keeps_all)
    throw UserError(where, "no mapping of '" + op.name + "' keeps every tensor in level 1 '" +
                               hw.hierarchy.levels[1].name + "' of '" + hw.name +
                               "' (its tiles do not fit, or mapspace constraints bypass it)");
  throw UserError(where, "no mapping of '" + op.name + "' satisfies the mapspace constraints of '" +
                             hw.name +
                             "' (fixed factors that do not divide its dimensions, or rules "
                             "that exclude every keep set, order or spatial assignment)");
}

class HierExplorer {
public:
  /// Parts are searched and combined over composable objectives (an EDP front is a filter of
  /// the sums of latency-energy fronts).
  HierExplorer(const Hardware &hw, const Workload &workload, const HierSearchOptions &options)
      : hw_(hw), workload_(workload), options_(composable(options)), policy_(options_.objectives),
        attached_words_(attached_input_words(workload)),
        fusion_(options.fusion && hw.hierarchy.mapspace.empty() &&
                hw.hierarchy.levels[1].holds == role::kAll) {}

  /// The chain's front: per link the operators alone, or the link fused with the next. A
  /// segment that an earlier chain (of another split of the workload) had too is taken, not
  /// searched again.
  std::vector<HierPlan> chain_front(const Chain &chain) {
    const auto search = [&](size_t i, size_t j) {
      if (j == i + 1)
        return link_alone(chain.links[i]);
      if (!fuses(chain.links[i], chain.links[i + 1]))
        return std::vector<HierPlan>{};
      return fused_pair(chain.links[i], chain.links[i + 1]);
    };
    const auto segment = [&](size_t i, size_t j) { return segments_.of(chain, i, j, search); };
    return segmented_front(chain.links.size(), 2, segment, HierPlan{}, policy_);
  }

  /// The front of the chain's two links run fused, none of them alone; std::nullopt when the
  /// chain is not one fusible pair.
  std::optional<std::vector<HierPlan>> pair_front(const Chain &chain) {
    if (chain.links.size() != 2 || !fuses(chain.links[0], chain.links[1]))
      return std::nullopt;
    return fused_pair(chain.links[0], chain.links[1]);
  }

  HierExploreResult &result() { return result_; }
  const HierSequencePolicy &policy() const { return policy_; }

private:
  /// Whether the pair of links is searched fused: fusion on for this hardware, and can_fuse.
  bool fuses(const ChainLink &producer, const ChainLink &consumer) const {
    return fusion_ && can_fuse(workload_, producer, consumer);
  }

  /// The link's einsum searched alone (or an earlier einsum's front renamed), then each attached
  /// operator's pass.
  std::vector<HierPlan> link_alone(const ChainLink &link) {
    const auto op = static_cast<size_t>(link.einsum_op);
    HierSegmentFront einsum;
    einsum.ops = {link.einsum_op};
    if (const std::optional<Renamed> earlier = renamed_einsum(workload_.ops[op])) {
      einsum.renamed_from = earlier->segment;
      einsum.search = renamed_search(result_.segments[earlier->segment].search, earlier->to);
    } else {
      einsum.search = search_hier_front(hw_, workload_, workload_.ops[op], options_);
    }
    require_some_mapping(hw_, workload_.ops[op], einsum.search, options_.level1_keeps_all);
    const size_t segment = add(std::move(einsum));
    std::vector<HierPlan> plans;
    const HierSearchResult &search = result_.segments[segment].search;
    for (size_t i = 0; i < search.front.size(); ++i)
      plans.push_back(HierPlan{search.front[i].objectives, {{segment, i}}});
    plans = pareto_filter(plans, policy_);
    for (int attached : link.attached_ops) {
      HierSegmentFront pass;
      pass.ops = {attached};
      pass.pass = evaluate_hier_vector_pass(hw_, workload_.ops[static_cast<size_t>(attached)],
                                            attached_words_[static_cast<size_t>(attached)],
                                            options_.latency_model);
      const size_t at = add(std::move(pass));
      plans = minkowski_sum(plans, {pass_plan(hw_, *result_.segments[at].pass, at)}, policy_);
    }
    return plans;
  }

  /// An earlier einsum searched alone (its segment) and the renaming of its dimensions into
  /// another einsum's.
  struct Renamed {
    size_t segment;
    std::vector<int> to;
  };

  /// The einsum searched alone before that `op` is renamed, if any: its search is `op`'s renamed,
  /// as the search reads dimensions by their sizes and roles only (not where mapspace rules name
  /// them).
  std::optional<Renamed> renamed_einsum(const Operator &op) const {
    if (!hw_.hierarchy.mapspace.empty())
      return std::nullopt;
    for (size_t s = 0; s < result_.segments.size(); ++s) {
      const HierSegmentFront &earlier = result_.segments[s];
      if (earlier.pass || earlier.pair || earlier.renamed_from)
        continue;
      const Einsum &einsum = workload_.ops[static_cast<size_t>(earlier.ops.front())].einsum;
      if (std::optional<std::vector<int>> to = einsum_renaming(workload_, einsum, op.einsum))
        return Renamed{s, std::move(*to)};
    }
    return std::nullopt;
  }

  std::vector<HierPlan> fused_pair(const ChainLink &producer, const ChainLink &consumer) {
    HierSegmentFront pair;
    for (const ChainLink *link : {&producer, &consumer}) {
      pair.ops.push_back(link->einsum_op);
      pair.ops.insert(pair.ops.end(), link->attached_ops.begin(), link->attached_ops.end());
    }
    pair.pair = make_fused_problem(workload_, producer, consumer);
    pair.fused = search_fused_hier_front(hw_, *pair.pair, options_);
    const size_t segment = add(std::move(pair));
    std::vector<HierPlan> plans;
    const FusedHierSearchResult &fused = result_.segments[segment].fused;
    for (size_t i = 0; i < fused.front.size(); ++i)
      plans.push_back(HierPlan{fused.front[i].objectives, {{segment, i}}});
    return pareto_filter(plans, policy_);
  }

  size_t add(HierSegmentFront &&segment) {
    result_.segments.push_back(std::move(segment));
    return result_.segments.size() - 1;
  }

  static HierSearchOptions composable(HierSearchOptions options) {
    options.objectives = composable_objectives(options.objectives);
    return options;
  }

  const Hardware &hw_;
  const Workload &workload_;
  const HierSearchOptions options_;
  const HierSequencePolicy policy_;
  const std::vector<double> attached_words_;
  const bool fusion_;
  HierExploreResult result_;
  SegmentFronts<HierPlan> segments_;
};

} // namespace

HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options) {
  HierExplorer explorer(hw, workload, options);
  // The workload's front is every split's, filtered.
  const std::vector<HierPlan> front = every_split_points(
      chain_splits(workload), [&](const Chain &chain) { return explorer.chain_front(chain); },
      explorer.policy());
  HierExploreResult result = std::move(explorer.result());
  result.front = pareto_filter(front, HierSequencePolicy(options.objectives));
  return result;
}

std::optional<HierExploreResult> explore_hier_fused_pair(const Hardware &hw,
                                                         const Workload &workload,
                                                         const HierSearchOptions &options) {
  const std::vector<std::vector<Chain>> splits = chain_splits(workload);
  const Chain *chain = only_chain(splits);
  if (!chain)
    return std::nullopt;
  HierExplorer explorer(hw, workload, options);
  const std::optional<std::vector<HierPlan>> front = explorer.pair_front(*chain);
  if (!front)
    return std::nullopt;
  HierExploreResult result = std::move(explorer.result());
  result.front = pareto_filter(*front, HierSequencePolicy(options.objectives));
  return result;
}

} // namespace dse
