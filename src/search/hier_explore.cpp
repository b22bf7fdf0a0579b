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

std::vector<HierPlan> single_operator_plans(const HierSearchResult &search) {
  std::vector<HierPlan> plans;
  for (size_t i = 0; i < search.front.size(); ++i)
    plans.push_back(HierPlan{search.front[i].objectives, {i}});
  return plans;
}

HierOperatorFront vector_pass_front(const Hardware &hw, const Workload &workload, size_t op,
                                    double elements, const HierSearchOptions &options) {
  HierOperatorFront front;
  front.op = static_cast<int>(op);
  front.pass = evaluate_hier_vector_pass(hw, workload.ops[op], elements, options.latency_model);
  return front;
}

HierPlan pass_plan(const Hardware &hw, const HierVectorPass &pass) {
  HierPlan plan;
  plan.parts = {0};
  Objectives &o = plan.objectives;
  o.latency_s = pass.latency_cycles / (hw.clock_ghz * 1e9);
  o.energy_pj = pass.energy_pj;
  o.edp = o.latency_s * o.energy_pj;
  o.dram_words = pass.dram_reads + pass.dram_updates;
  return plan;
}

/// Every tensor may bypass every on-chip level, so only mapspace constraints can leave an einsum
/// without a mapping.
void require_some_mapping(const Hardware &hw, const Operator &op,
                          const std::vector<HierPlan> &plans) {
  if (plans.empty())
    throw UserError(SourceLocation{hw.source_file, 0, 0},
                    "no mapping of '" + op.name + "' satisfies the mapspace constraints of '" +
                        hw.name +
                        "' (fixed factors that do not divide its dimensions, or rules "
                        "that exclude every keep set, order or spatial assignment)");
}

} // namespace

HierExploreResult explore_hier(const Hardware &hw, const Workload &workload,
                               const HierSearchOptions &options) {
  const HierSequencePolicy policy(options.objectives);
  const std::vector<double> attached_words = attached_input_words(workload);
  HierExploreResult result;
  for (size_t op = 0; op < workload.ops.size(); ++op) {
    std::vector<HierPlan> plans;
    if (workload.ops[op].kind == OpKind::Einsum) {
      result.operators.push_back({static_cast<int>(op),
                                  search_hier_front(hw, workload, workload.ops[op], options),
                                  std::nullopt});
      plans = single_operator_plans(result.operators.back().search);
      require_some_mapping(hw, workload.ops[op], plans);
    } else {
      result.operators.push_back(vector_pass_front(hw, workload, op, attached_words[op], options));
      plans = {pass_plan(hw, *result.operators.back().pass)};
    }
    result.front =
        op == 0 ? pareto_filter(plans, policy) : minkowski_sum(result.front, plans, policy);
  }
  return result;
}

} // namespace dse
