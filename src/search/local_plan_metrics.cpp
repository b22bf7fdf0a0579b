// Local metrics of local plans.
#include "dse/search/local_plan_metrics.hpp"

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

} // namespace dse
