// Builds the candidate space: per prefix, each operator's local plans are pruned on their own
// contribution (sound because the metrics are sums of per-operator parts), combined, then pruned
// again within groups that share compute metrics (same recompute loops).
#include "dse/search/candidate_space.hpp"

#include <algorithm>

#include "dse/model/candidate_generation.hpp"
#include "dse/search/symbolic_pruning.hpp"
#include "dse/support/check.hpp"

namespace dse {

namespace {

/// A local plan survives if no other plan of the same operator under the same prefix is
/// provably no worse in every part of the metrics it contributes.
std::vector<LocalPlan> surviving_local_plans(const Problem &problem, const PrefixChoice &choice,
                                             int op, bool double_buffering, Pruning pruning,
                                             std::uint64_t &enumerated) {
  std::vector<LocalPlan> plans = enumerate_local_plans(problem, choice, op);
  DSE_CHECK(!plans.empty(), "no local plan for operator " + std::to_string(op));
  enumerated = plans.size();
  if (pruning == Pruning::None)
    return plans;
  // A plan's local metrics do not depend on the other operator's plan: any one completes it.
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
  std::vector<LocalPlan> kept;
  for (size_t i : undominated_rows(rows))
    kept.push_back(plans[i]);
  return kept;
}

/// Every combination of surviving local plans under one prefix choice.
void add_combinations(const Problem &problem, const PrefixChoice &choice,
                      const std::vector<std::vector<LocalPlan>> &plans,
                      std::vector<Dataflow> &out) {
  for (const std::vector<LocalPlan> &op_plans : plans)
    DSE_CHECK(!op_plans.empty(), "an operator without surviving local plans");
  std::vector<size_t> pick(plans.size(), 0);
  while (true) {
    std::vector<const LocalPlan *> parts;
    for (size_t o = 0; o < plans.size(); ++o)
      parts.push_back(&plans[o][pick[o]]);
    out.push_back(assemble_dataflow(problem, choice, parts));
    size_t o = 0;
    while (o < pick.size() && ++pick[o] == plans[o].size())
      pick[o++] = 0;
    if (o == pick.size())
      return;
  }
}

/// What the Q matrices rely on: one metrics entry per dataflow, each with one buffer row per
/// operator (2 + ops rows of Q per dataflow); groups tiling the dataflows in order; at least one
/// spatial combination (candidate ids divide by their count), each placing every operator.
void check_shape(const Problem &problem, const CandidateSpace &space) {
  DSE_CHECK(space.metrics.size() == space.dataflows.size(),
            std::to_string(space.metrics.size()) + " metrics for " +
                std::to_string(space.dataflows.size()) + " dataflows");
  for (const DataflowMetrics &m : space.metrics)
    DSE_CHECK(m.buffer_words.size() == problem.ops.size(),
              std::to_string(m.buffer_words.size()) + " buffer rows for " +
                  std::to_string(problem.ops.size()) + " operators");
  size_t next = 0;
  for (const RecomputeGroup &g : space.groups) {
    DSE_CHECK(g.first == next, "recompute group starting at dataflow " + std::to_string(g.first) +
                                   ", expected " + std::to_string(next));
    next += g.count;
  }
  DSE_CHECK(next == space.dataflows.size(), "recompute groups cover " + std::to_string(next) +
                                                " of " + std::to_string(space.dataflows.size()) +
                                                " dataflows");
  DSE_CHECK(!space.spatial.empty(), "no spatial combination");
  for (const std::vector<SpatialMapping> &combination : space.spatial)
    DSE_CHECK(combination.size() == problem.ops.size(),
              "a spatial combination of " + std::to_string(combination.size()) + " for " +
                  std::to_string(problem.ops.size()) + " operators");
}

} // namespace

CandidateSpace build_candidate_space(const Problem &problem, bool double_buffering, Pruning pruning,
                                     bool allow_recompute) {
  CandidateSpace space;
  std::vector<Dataflow> combined;
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    if (!allow_recompute && !prefix_recompute_dims(problem, choice.prefix).empty())
      continue;
    std::vector<std::vector<LocalPlan>> plans;
    std::uint64_t enumerated = 1;
    for (size_t o = 0; o < problem.ops.size(); ++o) {
      std::uint64_t count = 0;
      plans.push_back(surviving_local_plans(problem, choice, static_cast<int>(o), double_buffering,
                                            pruning, count));
      enumerated *= count;
    }
    space.stats.dataflows_enumerated += enumerated;
    add_combinations(problem, choice, plans, combined);
  }
  space.stats.dataflows_after_local = combined.size();

  // Group by recompute loops (a stable order: first appearance).
  std::vector<std::vector<int>> keys;
  std::vector<std::vector<size_t>> members;
  for (size_t i = 0; i < combined.size(); ++i) {
    const std::vector<int> key = combined[i].recompute_dims(problem);
    std::vector<int> sorted_key = key;
    std::sort(sorted_key.begin(), sorted_key.end());
    auto it = std::find(keys.begin(), keys.end(), sorted_key);
    if (it == keys.end()) {
      keys.push_back(sorted_key);
      members.emplace_back();
      it = keys.end() - 1;
    }
    members[static_cast<size_t>(it - keys.begin())].push_back(i);
  }

  for (size_t g = 0; g < keys.size(); ++g) {
    std::vector<DataflowMetrics> metrics;
    std::vector<MetricRow> rows;
    for (size_t i : members[g]) {
      metrics.push_back(dataflow_metrics(problem, combined[i], double_buffering));
      rows.push_back(metrics.back().as_vector());
    }
    std::vector<size_t> keep(rows.size());
    for (size_t i = 0; i < keep.size(); ++i)
      keep[i] = i;
    if (pruning == Pruning::Symbolic)
      keep = undominated_rows(rows);
    RecomputeGroup group{keys[g], space.dataflows.size(), keep.size()};
    for (size_t i : keep) {
      space.dataflows.push_back(combined[members[g][i]]);
      space.metrics.push_back(metrics[i]);
    }
    space.groups.push_back(group);
  }
  space.stats.dataflows_kept = space.dataflows.size();
  space.spatial = spatial_combinations(problem);
  space.stats.spatial_combinations = space.spatial.size();
  check_shape(problem, space);
  return space;
}

std::shared_ptr<const CandidateSpace> CandidateCache::get(const Problem &problem,
                                                          bool double_buffering, Pruning pruning,
                                                          bool allow_recompute) {
  const std::string key = problem.structure_key() + (double_buffering ? "|db" : "|sb") +
                          (pruning == Pruning::Symbolic ? "|p" : "|n") +
                          (allow_recompute ? "|r" : "|nr");
  {
    std::lock_guard lock(mutex_);
    if (auto it = spaces_.find(key); it != spaces_.end())
      return it->second;
  }
  auto space = std::make_shared<const CandidateSpace>(
      build_candidate_space(problem, double_buffering, pruning, allow_recompute));
  std::lock_guard lock(mutex_);
  return spaces_.emplace(key, space).first->second;
}

} // namespace dse
