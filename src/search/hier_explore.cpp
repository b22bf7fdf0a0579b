// A workload's front on a hierarchy of any depth: per-operator fronts summed in sequence.
#include "dse/search/hier_explore.hpp"

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
    ParetoFront::Key key{};
    for (size_t i = 0; i < objectives_.size(); ++i)
      key[i] = objective_value(p.objectives, objectives_[i]);
    return key;
  }
  size_t dimensions() const { return objectives_.size(); }
  bool tie_before(const HierPlan &, const HierPlan &) const { return false; }

  HierPlan combine(const HierPlan &x, const HierPlan &y) const {
    HierPlan s = x;
    s.parts.insert(s.parts.end(), y.parts.begin(), y.parts.end());
    Objectives &o = s.objectives;
    o.latency_s += y.objectives.latency_s;
    o.energy_pj += y.objectives.energy_pj;
    o.dram_words += y.objectives.dram_words;
    o.buffer_words = std::max(o.buffer_words, y.objectives.buffer_words);
    o.edp = o.latency_s * o.energy_pj;
    return s;
  }

private:
  std::vector<Objective> objectives_;
};

std::vector<HierPlan> single_operator_plans(const HierSearchResult &search) {
  std::vector<HierPlan> plans;
  for (size_t i = 0; i < search.front.size(); ++i)
    plans.push_back(HierPlan{search.front[i].objectives, {i}});
  return plans;
}

void require_einsums(const Workload &workload) {
  for (const Operator &op : workload.ops)
    if (op.kind != OpKind::Einsum)
      throw UserError(op.where, "general hierarchies search einsum operators only so far; '" +
                                    op.name + "' is not an einsum");
}

} // namespace

HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options) {
  require_einsums(workload);
  const HierSequencePolicy policy(options.objectives);
  HierExploreResult result;
  for (size_t op = 0; op < workload.ops.size(); ++op) {
    result.operators.push_back(
        {static_cast<int>(op), search_hier_front(hw, workload, workload.ops[op], options)});
    const std::vector<HierPlan> plans = single_operator_plans(result.operators.back().search);
    result.front =
        op == 0 ? pareto_filter(plans, policy) : minkowski_sum(result.front, plans, policy);
  }
  return result;
}

} // namespace dse
