// Local metrics of local plans, and the order of their sub-nest loops.
#include "dse/search/local_plan_metrics.hpp"

#include <algorithm>

#include "dse/ir/hier_mapping.hpp"

namespace dse {

std::vector<MetricRow> local_plan_metrics(const Problem &problem, const PrefixChoice &choice,
                                          int op, const std::vector<LocalPlan> &plans,
                                          bool double_buffering) {
  std::vector<LocalPlan> others(problem.ops.size());
  std::vector<const LocalPlan *> parts(problem.ops.size());
  for (size_t o = 0; o < problem.ops.size(); ++o)
    if (static_cast<int>(o) != op) {
      others[o] = enumerate_local_plans(problem, choice, static_cast<int>(o)).front();
      parts[o] = &others[o];
    }
  std::vector<MetricRow> rows;
  for (const LocalPlan &plan : plans) {
    parts[static_cast<size_t>(op)] = &plan;
    const Dataflow df = assemble_dataflow(problem, choice, parts);
    rows.push_back(local_metrics(problem, df, op, double_buffering).as_vector());
  }
  return rows;
}

MetricRow loop_order_row(const Problem &problem, int op, const LocalPlan &plan) {
  std::vector<int> loops = plan.subnest; // entries in dimension order, the same for every order
  std::sort(loops.begin(), loops.end());
  const auto position = [&plan](int d) {
    return std::find(plan.subnest.begin(), plan.subnest.end(), d) - plan.subnest.begin();
  };
  MetricRow row;
  for (const TensorAccess *tensor : operator_tensors(problem.op(op)))
    for (int d : loops)
      for (int j : loops)
        if (!tensor->uses(d) && tensor->uses(j))
          row.push_back(Posynomial::constant(position(d) < position(j) ? 1 : 0));
  return row;
}

} // namespace dse
