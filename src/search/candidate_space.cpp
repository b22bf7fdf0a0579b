// Builds the candidate space: per prefix, each operator's local plans are pruned on their own
// contribution (sound because the metrics are sums of per-operator parts), combined, then pruned
// again within groups that share compute metrics (same recompute loops).
#include "dse/search/candidate_space.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <numeric>
#include <tbb/parallel_for.h>

#include "dse/model/candidate_generation.hpp"
#include "dse/search/local_plan_metrics.hpp"
#include "dse/search/symbolic_pruning.hpp"
#include "dse/support/check.hpp"
#include "dse/support/contains.hpp"

namespace dse {

namespace {

/// An operator's local plans under one prefix choice, with their local metrics.
struct LocalPlans {
  std::vector<LocalPlan> plans;
  std::vector<LocalMetrics> metrics;
};

/// The local plans of operator `op` that no other plan of it under the same prefix is provably
/// as good as in every part of the metrics it contributes (every plan without pruning).
LocalPlans surviving_local_plans(const Problem &problem, const PrefixChoice &choice, int op,
                                 bool double_buffering, Pruning pruning,
                                 std::uint64_t &enumerated) {
  LocalPlans all{enumerate_local_plans(problem, choice, op), {}};
  DSE_CHECK(!all.plans.empty(), "no local plan for operator " + std::to_string(op));
  enumerated = all.plans.size();
  all.metrics = local_plan_metrics(problem, choice, op, all.plans, double_buffering);
  if (pruning == Pruning::None)
    return all;
  LocalPlans kept;
  for (size_t i : undominated_rows(local_metric_rows(all.metrics))) {
    kept.plans.push_back(std::move(all.plans[i]));
    kept.metrics.push_back(std::move(all.metrics[i]));
  }
  return kept;
}

/// Every combination of surviving local plans under one prefix choice, and for each the local
/// metrics of its operators' plans.
void add_combinations(const Problem &problem, const PrefixChoice &choice,
                      const std::vector<LocalPlans> &plans, std::vector<Dataflow> &out,
                      std::vector<std::vector<const LocalMetrics *>> &locals) {
  for (const LocalPlans &op_plans : plans)
    DSE_CHECK(!op_plans.plans.empty(), "an operator without surviving local plans");
  std::vector<size_t> pick(plans.size(), 0);
  while (true) {
    std::vector<const LocalPlan *> parts;
    std::vector<const LocalMetrics *> metrics;
    for (size_t o = 0; o < plans.size(); ++o) {
      parts.push_back(&plans[o].plans[pick[o]]);
      metrics.push_back(&plans[o].metrics[pick[o]]);
    }
    out.push_back(assemble_dataflow(problem, choice, parts));
    locals.push_back(std::move(metrics));
    size_t o = 0;
    while (o < pick.size() && ++pick[o] == plans[o].plans.size())
      pick[o++] = 0;
    if (o == pick.size())
      return;
  }
}

bool dims_within(const std::vector<int> &dims, const std::vector<int> &allowed) {
  return std::all_of(dims.begin(), dims.end(), [&](int d) { return contains(allowed, d); });
}

/// Whether `cached` has one list per link, each of halo dims the link can cache.
bool caching_within(const Problem &problem, const std::vector<std::vector<int>> &cached) {
  if (cached.size() != problem.links.size())
    return false;
  for (size_t l = 0; l < cached.size(); ++l)
    if (!dims_within(cached[l], problem.cacheable_halo_dims(static_cast<int>(l))))
      return false;
  return true;
}

bool posynomial_within(const Posynomial &p, const std::vector<int> &dims) {
  for (const auto &[m, c] : p.terms()) {
    if (!std::isfinite(c))
      return false;
    for (const Factor &f : m.factors())
      if (!contains(dims, f.dim()))
        return false;
  }
  return true;
}

std::string dataflow_defect(const Problem &problem, const Dataflow &df) {
  if (df.subnests.size() != problem.ops.size() || df.retention.size() != problem.tensors.size())
    return "a dataflow of " + std::to_string(df.subnests.size()) + " sub-nests and " +
           std::to_string(df.retention.size()) + " retention depths";
  if (!dims_within(df.prefix, problem.dims))
    return "a prefix loop over a dimension the problem does not have";
  if (!caching_within(problem, df.cached))
    return "a cached halo dim that the problem cannot cache";
  for (size_t o = 0; o < df.subnests.size(); ++o)
    if (!dims_within(df.subnests[o], problem.ops[o].dims))
      return "a sub-nest loop over a dimension its operator does not have";
  for (size_t t = 0; t < df.retention.size(); ++t) {
    const int depth = df.retention[t];
    if (depth < 0 || static_cast<size_t>(depth) > df.path(problem.tensors[t].owner).size())
      return "retention depth " + std::to_string(depth) + " outside its operator's loops";
  }
  return {};
}

std::string metrics_defect(const Problem &problem, const DataflowMetrics &m) {
  if (m.buffer_words.size() != problem.ops.size())
    return std::to_string(m.buffer_words.size()) + " buffer rows for " +
           std::to_string(problem.ops.size()) + " operators";
  for (size_t k = 0; k < 2 + m.buffer_words.size(); ++k)
    if (!posynomial_within(m.row(k), problem.dims))
      return "a metric term over a dimension the problem does not have, or not finite";
  return {};
}

/// The indices of the members of one group (their metrics) that the pruning keeps: the
/// undominated ones, or every one without pruning.
std::vector<size_t> surviving_members(const std::vector<DataflowMetrics> &metrics,
                                      Pruning pruning) {
  if (pruning == Pruning::None) {
    std::vector<size_t> every(metrics.size());
    std::iota(every.begin(), every.end(), size_t{0});
    return every;
  }
  std::vector<MetricRowView> rows;
  for (const DataflowMetrics &m : metrics) {
    MetricRowView &row = rows.emplace_back();
    for (size_t k = 0; k < 2 + m.buffer_words.size(); ++k)
      row.push_back(&m.row(k));
  }
  return undominated_rows(rows);
}

std::string spatial_defect(const Problem &problem, const std::vector<SpatialMapping> &s) {
  if (s.size() != problem.ops.size())
    return "a spatial combination of " + std::to_string(s.size()) + " for " +
           std::to_string(problem.ops.size()) + " operators";
  for (size_t o = 0; o < s.size(); ++o)
    for (int d : {s[o].row_dim, s[o].col_dim})
      if (d != -1 && !contains(problem.ops[o].dims, d))
        return "a spatial dimension its operator does not have";
  return {};
}

} // namespace

std::string candidate_space_defect(const Problem &problem, const CandidateSpace &space) {
  if (space.metrics.size() != space.dataflows.size())
    return std::to_string(space.metrics.size()) + " metrics for " +
           std::to_string(space.dataflows.size()) + " dataflows";
  std::vector<std::string> defects(space.dataflows.size()); // each dataflow checked on the threads
  tbb::parallel_for(size_t{0}, space.dataflows.size(), [&](size_t d) {
    defects[d] = dataflow_defect(problem, space.dataflows[d]);
    if (defects[d].empty())
      defects[d] = metrics_defect(problem, space.metrics[d]);
  });
  for (size_t d = 0; d < defects.size(); ++d)
    if (!defects[d].empty())
      return "dataflow " + std::to_string(d) + ": " + defects[d];
  size_t next = 0;
  for (const RecomputeGroup &g : space.groups) {
    if (g.first != next)
      return "recompute group starting at dataflow " + std::to_string(g.first) + ", expected " +
             std::to_string(next);
    if (!dims_within(g.recompute_dims, problem.dims))
      return "a recompute loop over a dimension the problem does not have";
    if (!caching_within(problem, g.cached_dims))
      return "a group caching a halo dim that the problem cannot cache";
    for (size_t d = g.first; d < g.first + g.count && d < space.dataflows.size(); ++d)
      if (space.dataflows[d].cached != g.cached_dims)
        return "dataflow " + std::to_string(d) + " caches other halo dims than its group";
    next += g.count;
  }
  if (next != space.dataflows.size())
    return "recompute groups cover " + std::to_string(next) + " of " +
           std::to_string(space.dataflows.size()) + " dataflows";
  if (space.spatial.empty())
    return "no spatial combination";
  for (const std::vector<SpatialMapping> &combination : space.spatial)
    if (const std::string why = spatial_defect(problem, combination); !why.empty())
      return why;
  const PruningStats &s = space.stats;
  if (s.dataflows_kept != space.dataflows.size() ||
      s.spatial_combinations != space.spatial.size() ||
      s.dataflows_after_local < s.dataflows_kept ||
      s.dataflows_enumerated < s.dataflows_after_local)
    return "pruning statistics that do not match the space";
  return {};
}

CandidateSpace build_candidate_space(const Problem &problem, bool double_buffering, Pruning pruning,
                                     bool allow_recompute) {
  // Stage 1, one prefix choice per task: each operator's surviving local plans.
  std::vector<PrefixChoice> choices;
  for (PrefixChoice &choice : enumerate_prefix_choices(problem))
    if (allow_recompute || problem.runs_without_recompute(choice.prefix, choice.cached))
      choices.push_back(std::move(choice));
  std::vector<std::vector<LocalPlans>> plans(choices.size());
  std::vector<std::uint64_t> enumerated(choices.size(), 1);
  tbb::parallel_for(size_t{0}, choices.size(), [&](size_t c) {
    for (size_t o = 0; o < problem.ops.size(); ++o) {
      std::uint64_t count = 0;
      plans[c].push_back(surviving_local_plans(problem, choices[c], static_cast<int>(o),
                                               double_buffering, pruning, count));
      enumerated[c] *= count;
    }
  });
  CandidateSpace space;
  std::vector<Dataflow> combined;
  std::vector<std::vector<const LocalMetrics *>> locals;
  std::vector<size_t> choice_of; // per combined dataflow
  for (size_t c = 0; c < choices.size(); ++c) {
    space.stats.dataflows_enumerated += enumerated[c];
    add_combinations(problem, choices[c], plans[c], combined, locals);
    choice_of.resize(combined.size(), c);
  }
  space.stats.dataflows_after_local = combined.size();

  // Group by recompute loops and cached halo dims (a stable order: first appearance).
  std::vector<std::pair<std::vector<int>, std::vector<std::vector<int>>>> keys;
  std::vector<std::vector<size_t>> members;
  for (size_t i = 0; i < combined.size(); ++i) {
    std::pair key{combined[i].recompute_dims(problem), combined[i].cached};
    std::sort(key.first.begin(), key.first.end());
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(std::move(key));
      members.emplace_back();
      it = keys.end() - 1;
    }
    members[static_cast<size_t>(it - keys.begin())].push_back(i);
  }

  // Stage 2, group by group: every dataflow's metrics (the sums of its plans' local metrics and
  // its prefix choice's shared words, taken from the choice's first dataflow), then the survivors
  // of the group, whose metrics alone are kept (the others are dropped while the group is hot).
  std::vector<Posynomial> shared(choices.size());
  tbb::parallel_for(size_t{0}, combined.size(), [&](size_t i) {
    if (i == 0 || choice_of[i - 1] != choice_of[i])
      shared[choice_of[i]] = shared_buffer_words(problem, combined[i], double_buffering);
  });
  std::vector<std::vector<size_t>> keep(keys.size());
  std::vector<std::vector<DataflowMetrics>> kept_metrics(keys.size());
  tbb::parallel_for(size_t{0}, keys.size(), [&](size_t g) {
    std::vector<DataflowMetrics> metrics(members[g].size());
    tbb::parallel_for(size_t{0}, members[g].size(), [&](size_t k) {
      const size_t i = members[g][k];
      metrics[k] = combine_local_metrics(problem, locals[i], shared[choice_of[i]]);
    });
    keep[g] = surviving_members(metrics, pruning);
    for (size_t k : keep[g])
      kept_metrics[g].push_back(std::move(metrics[k]));
  });
  for (size_t g = 0; g < keys.size(); ++g) {
    space.groups.push_back({keys[g].first, keys[g].second, space.dataflows.size(), keep[g].size()});
    for (size_t k : keep[g])
      space.dataflows.push_back(std::move(combined[members[g][k]]));
    std::move(kept_metrics[g].begin(), kept_metrics[g].end(), std::back_inserter(space.metrics));
  }
  space.stats.dataflows_kept = space.dataflows.size();
  space.spatial = spatial_combinations(problem);
  space.stats.spatial_combinations = space.spatial.size();
  const std::string defect = candidate_space_defect(problem, space);
  DSE_CHECK(defect.empty(), defect);
  return space;
}

} // namespace dse
