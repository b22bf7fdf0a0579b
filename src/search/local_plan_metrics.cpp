// Local metrics of local plans, and the order of their sub-nest loops.
#include "dse/search/local_plan_metrics.hpp"

#include <algorithm>

#include "dse/ir/hier_mapping.hpp"

namespace dse {

std::vector<LocalMetrics> local_plan_metrics(const Problem &problem, const PrefixChoice &choice,
                                             int op, const std::vector<LocalPlan> &plans,
                                             bool double_buffering) {
  std::vector<LocalPlan> others(problem.ops.size());
  std::vector<const LocalPlan *> parts(problem.ops.size());
  for (size_t o = 0; o < problem.ops.size(); ++o)
    if (static_cast<int>(o) != op) {
      others[o] = enumerate_local_plans(problem, choice, static_cast<int>(o)).front();
      parts[o] = &others[o];
    }
  std::vector<LocalMetrics> out;
  for (const LocalPlan &plan : plans) {
    parts[static_cast<size_t>(op)] = &plan;
    const Dataflow df = assemble_dataflow(problem, choice, parts);
    out.push_back(local_metrics(problem, df, op, double_buffering));
  }
  return out;
}

std::vector<MetricRow> local_metric_rows(const std::vector<LocalMetrics> &metrics) {
  std::vector<MetricRow> rows;
  for (const LocalMetrics &m : metrics)
    rows.push_back(m.as_vector());
  return rows;
}

MetricRow level0_loops_row(const Problem &problem, int op, const std::vector<int> &path,
                           size_t prefix_length) {
  const auto position = [&path](int d) {
    return static_cast<size_t>(std::find(path.begin(), path.end(), d) - path.begin());
  };
  const auto indexes = [&](const TensorAccess &tensor, int d) {
    const size_t at = position(d);
    return at < prefix_length || (at < path.size() && tensor.uses(d));
  };
  const ProblemOp &problem_op = problem.ops[static_cast<size_t>(op)];
  MetricRow row;
  for (const TensorAccess *tensor : operator_tensors(problem.op(op)))
    for (int d : problem.dims)
      for (int j : problem.dims) {
        const bool counted =
            indexes(*tensor, d) || (indexes(*tensor, j) && position(d) <= position(j));
        row.push_back(Posynomial::constant(position(d) < path.size() && counted ? 1 : 0));
      }
  Posynomial all = Posynomial::constant(1), productions = Posynomial::constant(1);
  for (size_t i = 0; i < path.size(); ++i) {
    const Posynomial trips = Posynomial::atom(path[i], Atom::Trips);
    all = all * trips;
    if (i < prefix_length &&
        std::find(problem_op.dims.begin(), problem_op.dims.end(), path[i]) == problem_op.dims.end())
      productions = productions * trips;
  }
  row.push_back(all);
  row.push_back(productions);
  return row;
}

} // namespace dse
