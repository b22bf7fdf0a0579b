// Enumerates prefixes, sub-nest orders, retention depths and spatial mappings.
#include "dse/model/candidate_generation.hpp"

#include <algorithm>
#include <functional>

#include "dse/support/contains.hpp"

namespace dse {

namespace {

/// Calls `visit` with every ordered subset of `items` (including the empty one).
void for_each_ordered_subset(const std::vector<int> &items,
                             const std::function<void(const std::vector<int> &)> &visit) {
  std::vector<int> current;
  std::vector<bool> used(items.size(), false);
  std::function<void()> grow = [&]() {
    visit(current);
    for (size_t i = 0; i < items.size(); ++i) {
      if (used[i])
        continue;
      used[i] = true;
      current.push_back(items[i]);
      grow();
      current.pop_back();
      used[i] = false;
    }
  };
  grow();
}

/// Every subset of `items`, each in the order of `items`, the empty one first.
std::vector<std::vector<int>> subsets(const std::vector<int> &items) {
  std::vector<std::vector<int>> out{{}};
  for (int x : items)
    for (size_t i = 0, n = out.size(); i < n; ++i) {
      out.push_back(out[i]);
      out.back().push_back(x);
    }
  return out;
}

/// Depths worth considering for a tensor on `path`: 0 and right below each loop indexing it.
std::vector<int> depth_options(const std::vector<int> &path, const TensorAccess &access) {
  std::vector<int> out{0};
  for (size_t i = 0; i < path.size(); ++i)
    if (access.uses(path[i]))
      out.push_back(static_cast<int>(i) + 1);
  return out;
}

/// Whether every recompute and halo loop of link `link` in the prefix encloses its
/// intermediate's tile.
bool intermediate_depth_is_legal(const Problem &p, int link, const std::vector<int> &prefix,
                                 int inter_depth) {
  for (size_t i = 0; i < prefix.size(); ++i)
    if (p.encloses_intermediate(link, prefix[i]) && static_cast<int>(i) >= inter_depth)
      return false;
  return true;
}

/// Per link, the legal depths of its intermediate under `prefix`.
std::vector<std::vector<int>> intermediate_depths(const Problem &p,
                                                  const std::vector<int> &prefix) {
  std::vector<std::vector<int>> out;
  for (size_t l = 0; l < p.links.size(); ++l) {
    out.emplace_back();
    const TensorAccess &inter = p.tensors[static_cast<size_t>(p.links[l].intermediate)].access;
    for (int depth : depth_options(prefix, inter))
      if (intermediate_depth_is_legal(p, static_cast<int>(l), prefix, depth))
        out.back().push_back(depth);
  }
  return out;
}

/// Every combination of one option per slot (each slot's options in order, the first slot
/// changing slowest); one empty combination when there are no slots.
template <typename T>
std::vector<std::vector<T>> combinations(const std::vector<std::vector<T>> &options) {
  std::vector<std::vector<T>> out{{}};
  for (const std::vector<T> &slot : options) {
    std::vector<std::vector<T>> next;
    for (const std::vector<T> &partial : out)
      for (const T &option : slot) {
        next.push_back(partial);
        next.back().push_back(option);
      }
    out = std::move(next);
  }
  return out;
}

/// Every per-link choice of cached halo dims (each link caching any subset of its cacheable
/// ones).
std::vector<std::vector<std::vector<int>>> caching_choices(const Problem &p) {
  std::vector<std::vector<std::vector<int>>> per_link;
  for (size_t l = 0; l < p.links.size(); ++l)
    per_link.push_back(subsets(p.cacheable_halo_dims(static_cast<int>(l))));
  return combinations(per_link);
}

/// Whether the prefix has every halo dim (a producer read through a window computes the
/// consumer's tile plus its halo, so the consumer's loop over that dim is shared).
bool has_halo_dims(const Problem &p, const std::vector<int> &prefix) {
  return std::all_of(p.halo_dims.begin(), p.halo_dims.end(),
                     [&](int d) { return contains(prefix, d); });
}

/// Tensors owned by op (its inputs and output, not an intermediate).
std::vector<int> owned_tensors(const Problem &p, int op) {
  std::vector<int> out;
  for (int t : p.ops[static_cast<size_t>(op)].tensors)
    if (p.tensors[static_cast<size_t>(t)].role != TensorRole::Intermediate &&
        p.tensors[static_cast<size_t>(t)].owner == op)
      out.push_back(t);
  return out;
}

double factorial(size_t n) {
  double f = 1;
  for (size_t i = 2; i <= n; ++i)
    f *= static_cast<double>(i);
  return f;
}

/// Counts what enumerate_prefix_choices and enumerate_local_plans would list, per set of prefix
/// dimensions (the counts do not depend on the order of the prefix).
class LocalPlanCounter {
public:
  LocalPlanCounter(const Problem &p, bool allow_recompute, double stop_above)
      : p_(p), allow_recompute_(allow_recompute), stop_above_(stop_above),
        in_prefix_(p.workload->dims.size(), false), caching_(count_caching()) {}

  double count() {
    for (int d : p_.halo_dims)
      in_prefix_[static_cast<size_t>(d)] = true;
    add_subsets_from(0);
    return total_;
  }

private:
  /// Adds the prefix set marked so far and every set that extends it with dims from `next` on.
  void add_subsets_from(size_t next) {
    if (total_ > stop_above_)
      return;
    double plans = 0;
    for (size_t o = 0; o < p_.ops.size(); ++o)
      plans += local_plans(static_cast<int>(o));
    total_ += prefix_choices() * plans;
    for (size_t i = next; i < p_.prefix_dims.size(); ++i) {
      const int d = p_.prefix_dims[i];
      if (contains(p_.halo_dims, d) || (!allow_recompute_ && contains(p_.recompute_dims, d)))
        continue;
      in_prefix_[static_cast<size_t>(d)] = true;
      add_subsets_from(i + 1);
      in_prefix_[static_cast<size_t>(d)] = false;
    }
  }

  /// Orders of the prefix set times, per order, the legal depths of every intermediate, times
  /// the caching choices (one for a single operator).
  double prefix_choices() const {
    if (!p_.fused())
      return 1;
    std::vector<int> order;
    for (int d : p_.prefix_dims)
      if (in_prefix_[static_cast<size_t>(d)])
        order.push_back(d);
    std::sort(order.begin(), order.end());
    double out = 0;
    do {
      double depths = 1;
      for (const std::vector<int> &legal : intermediate_depths(p_, order))
        depths *= static_cast<double>(legal.size());
      out += depths;
    } while (std::next_permutation(order.begin(), order.end()));
    return out * caching_;
  }

  /// Caching choices: every one with recompute allowed; without, those that recompute no
  /// overlap.
  double count_caching() const {
    double out = 0;
    for (const std::vector<std::vector<int>> &cached : caching_choices(p_))
      out += allow_recompute_ || p_.runs_without_recompute({}, cached) ? 1 : 0;
    return out;
  }

  /// Orders of op's own loops times the depth options of each tensor it owns.
  double local_plans(int op) const {
    std::vector<int> path;
    for (int d : p_.prefix_dims)
      if (in_prefix_[static_cast<size_t>(d)])
        path.push_back(d);
    size_t own = 0;
    for (int d : p_.ops[static_cast<size_t>(op)].tiled_dims)
      if (!in_prefix_[static_cast<size_t>(d)]) {
        path.push_back(d);
        ++own;
      }
    double plans = factorial(own);
    for (int t : owned_tensors(p_, op))
      plans *= static_cast<double>(
          depth_options(path, p_.tensors[static_cast<size_t>(t)].access).size());
    return plans;
  }

  const Problem &p_;
  bool allow_recompute_;
  double stop_above_;
  std::vector<bool> in_prefix_; // per workload dim
  double caching_;
  double total_ = 0;
};

} // namespace

double count_local_plans(const Problem &problem, bool allow_recompute, double stop_above) {
  return LocalPlanCounter(problem, allow_recompute, stop_above).count();
}

std::vector<PrefixChoice> enumerate_prefix_choices(const Problem &problem) {
  if (!problem.fused())
    return {PrefixChoice{}};
  std::vector<PrefixChoice> out;
  const std::vector<std::vector<std::vector<int>>> caching = caching_choices(problem);
  for_each_ordered_subset(problem.prefix_dims, [&](const std::vector<int> &prefix) {
    if (!has_halo_dims(problem, prefix))
      return;
    for (const std::vector<int> &depths : combinations(intermediate_depths(problem, prefix)))
      for (const std::vector<std::vector<int>> &cached : caching)
        out.push_back({prefix, depths, cached});
  });
  return out;
}

std::vector<LocalPlan> enumerate_local_plans(const Problem &problem, const PrefixChoice &choice,
                                             int op) {
  std::vector<int> own_loops;
  for (int d : problem.ops[static_cast<size_t>(op)].tiled_dims)
    if (!contains(choice.prefix, d))
      own_loops.push_back(d);
  std::sort(own_loops.begin(), own_loops.end());
  const std::vector<int> tensors = owned_tensors(problem, op);

  std::vector<LocalPlan> out;
  do {
    std::vector<int> path = choice.prefix;
    path.insert(path.end(), own_loops.begin(), own_loops.end());
    std::vector<std::vector<int>> options;
    for (int t : tensors)
      options.push_back(depth_options(path, problem.tensors[static_cast<size_t>(t)].access));
    // Odometer over the depth options of every owned tensor.
    std::vector<size_t> pick(tensors.size(), 0);
    while (true) {
      LocalPlan plan{own_loops, {}};
      for (size_t i = 0; i < tensors.size(); ++i)
        plan.depths.push_back(options[i][pick[i]]);
      out.push_back(std::move(plan));
      size_t i = 0;
      while (i < pick.size() && ++pick[i] == options[i].size())
        pick[i++] = 0;
      if (i == pick.size())
        break;
    }
  } while (std::next_permutation(own_loops.begin(), own_loops.end()));
  return out;
}

Dataflow assemble_dataflow(const Problem &problem, const PrefixChoice &choice,
                           const std::vector<const LocalPlan *> &plans) {
  Dataflow df;
  df.prefix = choice.prefix;
  df.cached = choice.cached;
  df.retention.assign(problem.tensors.size(), 0);
  for (size_t l = 0; l < problem.links.size(); ++l)
    df.retention[static_cast<size_t>(problem.links[l].intermediate)] =
        choice.intermediate_depths.at(l);
  for (size_t o = 0; o < plans.size(); ++o) {
    df.subnests.push_back(plans[o]->subnest);
    const std::vector<int> tensors = owned_tensors(problem, static_cast<int>(o));
    for (size_t i = 0; i < tensors.size(); ++i)
      df.retention[static_cast<size_t>(tensors[i])] = plans[o]->depths[i];
  }
  return df;
}

std::vector<SpatialMapping> spatial_options(const Problem &problem, int op) {
  const ProblemOp &pop = problem.ops[static_cast<size_t>(op)];
  std::vector<int> eligible;
  for (int d : pop.tiled_dims) {
    int plain_uses = 0;
    bool in_output = false;
    for (size_t i = 0; i < pop.accesses.size(); ++i)
      for (const IndexExpr &e : pop.accesses[i].indices)
        if (e.is_plain() && e.terms[0].dim == d) {
          ++plain_uses;
          in_output = in_output || i + 1 == pop.accesses.size();
        }
    if (in_output || plain_uses >= 2)
      eligible.push_back(d);
  }
  std::vector<SpatialMapping> out;
  for (size_t a = 0; a < eligible.size(); ++a)
    for (size_t b = a + 1; b < eligible.size(); ++b)
      out.push_back({eligible[a], eligible[b]});
  if (out.empty())
    out.push_back({eligible.empty() ? -1 : eligible[0], -1});
  return out;
}

std::vector<std::vector<SpatialMapping>> spatial_combinations(const Problem &problem) {
  std::vector<std::vector<SpatialMapping>> out{{}};
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    std::vector<std::vector<SpatialMapping>> next;
    for (const auto &partial : out)
      for (const SpatialMapping &s : spatial_options(problem, static_cast<int>(o))) {
        next.push_back(partial);
        next.back().push_back(s);
      }
    out = std::move(next);
  }
  return out;
}

} // namespace dse
