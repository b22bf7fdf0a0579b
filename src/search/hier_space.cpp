// Enumeration of spatial rows, keep vectors and loop orders of the hierarchical mapping space,
// within the mapspace constraints.
#include "dse/search/hier_space.hpp"

#include <algorithm>
#include <map>

namespace dse {

namespace {

using FanoutRow = std::vector<std::vector<FanoutMapping>>;

/// One fan-out's factor choices: per dimension (in `dims` order) a factor on x and one on y.
struct AxisChoice {
  std::vector<std::int64_t> x, y;
};

/// Whether dimension `d` may take a factor above 1 on the axis (x when `on_x`) given the factor
/// it already has on x.
bool axis_allows(const FanoutConstraint &rule, size_t d, bool on_x, std::int64_t on_x_already) {
  if (on_x)
    return (rule.x >> d & 1U) != 0;
  return (rule.y >> d & 1U) != 0 && !(rule.one_axis_per_dim && on_x_already > 1);
}

/// Every (x, y) factor choice of `fanout` over `dims` that `rule` allows, each dimension's
/// product dividing what is left of it (`left`, indexed by workload dim), deduplicated by the
/// product per dimension.
std::vector<AxisChoice> fanout_choices(const Fanout &fanout, const FanoutConstraint &rule,
                                       const Operator &op, const std::vector<int> &dims,
                                       const std::vector<std::int64_t> &left,
                                       size_t workload_dims) {
  std::vector<AxisChoice> out;
  std::map<std::vector<std::int64_t>, bool> seen;
  AxisChoice c{std::vector<std::int64_t>(workload_dims, 1),
               std::vector<std::int64_t>(workload_dims, 1)};
  // Depth-first over (dim, axis) slots; x room and y room shrink as factors are placed.
  const auto place = [&](auto &&self, size_t slot, std::int64_t x_room, std::int64_t y_room) {
    if (slot == 2 * dims.size()) {
      std::vector<std::int64_t> product;
      std::int64_t used = 1;
      for (int d : dims) {
        product.push_back(c.x[static_cast<size_t>(d)] * c.y[static_cast<size_t>(d)]);
        used *= product.back();
      }
      if (utilisation_allowed(rule, fanout, used) && seen.emplace(product, true).second)
        out.push_back(c);
      return;
    }
    const auto d = static_cast<size_t>(dims[slot / 2]);
    const bool on_x = slot % 2 == 0;
    const std::int64_t room = on_x ? x_room : y_room;
    const std::int64_t remaining = on_x ? left[d] : left[d] / c.x[d];
    const bool summed = !op.einsum.output.uses(static_cast<int>(d));
    const bool allowed = axis_allows(rule, d, on_x, c.x[d]) && !(summed && !fanout.reduction);
    for (std::int64_t f : divisors(remaining)) {
      if (f > room || (f > 1 && !allowed))
        break;
      (on_x ? c.x : c.y)[d] = f;
      self(self, slot + 1, on_x ? x_room / f : x_room, on_x ? y_room : y_room / f);
    }
    (on_x ? c.x : c.y)[d] = 1;
  };
  place(place, 0, fanout.x, fanout.y);
  return out;
}

} // namespace

std::vector<std::int64_t> divisors(std::int64_t n) {
  std::vector<std::int64_t> low, high;
  for (std::int64_t i = 1; i * i <= n; ++i)
    if (n % i == 0) {
      low.push_back(i);
      if (i != n / i)
        high.push_back(n / i);
    }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

std::vector<FanoutRow> spatial_rows(const Hierarchy &h, const Workload &workload,
                                    const Operator &op) {
  const BoundMapspace rules = bind_mapspace(h, workload, op);
  const std::vector<int> dims = op.dims();
  std::vector<std::int64_t> left(workload.dims.size(), 1);
  for (int d : dims)
    left[static_cast<size_t>(d)] = workload.dim_size(d);
  std::vector<FanoutRow> rows;
  FanoutRow row(h.fanouts.size());
  const auto visit = [&](auto &&self, size_t gap, size_t f) {
    if (gap == h.fanouts.size()) {
      rows.push_back(row);
      return;
    }
    if (f == h.fanouts[gap].size())
      return self(self, gap + 1, 0);
    for (const AxisChoice &c : fanout_choices(h.fanouts[gap][f], rules.fanouts[gap][f], op, dims,
                                              left, workload.dims.size())) {
      for (int d : dims)
        left[static_cast<size_t>(d)] /= c.x[static_cast<size_t>(d)] * c.y[static_cast<size_t>(d)];
      row[gap].push_back(FanoutMapping{c.x, c.y});
      self(self, gap, f + 1);
      row[gap].pop_back();
      for (int d : dims)
        left[static_cast<size_t>(d)] *= c.x[static_cast<size_t>(d)] * c.y[static_cast<size_t>(d)];
    }
  };
  visit(visit, 0, 0);
  return rows;
}

std::vector<size_t>
rows_by_utilisation(const std::vector<std::vector<std::vector<FanoutMapping>>> &rows,
                    const std::vector<int> &dims) {
  std::vector<double> units(rows.size(), 1);
  for (size_t r = 0; r < rows.size(); ++r)
    for (const std::vector<FanoutMapping> &gap : rows[r])
      for (const FanoutMapping &f : gap)
        for (int d : dims)
          units[r] *= static_cast<double>(f.factor(d));
  std::vector<size_t> order(rows.size());
  for (size_t r = 0; r < order.size(); ++r)
    order[r] = r;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return units[a] > units[b]; });
  return order;
}

std::vector<std::vector<std::uint32_t>> keep_vectors(const Hierarchy &h, const Workload &workload,
                                                     const Operator &op) {
  const BoundMapspace rules = bind_mapspace(h, workload, op);
  const size_t tensors = operator_tensors(op).size();
  const std::uint32_t all = (1U << tensors) - 1;
  std::vector<std::vector<std::uint32_t>> out{{all}};
  for (size_t l = 1; l < h.levels.size(); ++l) {
    std::vector<std::vector<std::uint32_t>> next;
    for (const std::vector<std::uint32_t> &prefix : out)
      for (std::uint32_t mask = 0; mask <= all; ++mask) {
        bool allowed = true;
        for (size_t t = 0; t < tensors; ++t)
          if ((mask >> t & 1U) != 0 && (h.levels[l].holds & tensor_role(op, t)) == 0)
            allowed = false;
        const LevelConstraint &rule = rules.levels[l];
        if (!allowed || (mask & rule.keep) != rule.keep || (mask & rule.bypass) != 0)
          continue;
        next.push_back(prefix);
        next.back().push_back(mask);
      }
    out = std::move(next);
  }
  return out;
}

namespace {

/// Per tensor, the loops of `order` that do not index it and precede its innermost indexing
/// loop (a bit per position in `order`'s sorted dimension list).
std::vector<std::uint32_t> enclosing_sets(const Operator &op, const std::vector<int> &order) {
  std::vector<int> sorted = order;
  std::sort(sorted.begin(), sorted.end());
  const auto bit = [&sorted](int d) {
    return 1U << static_cast<unsigned>(std::find(sorted.begin(), sorted.end(), d) - sorted.begin());
  };
  std::vector<std::uint32_t> sets;
  for (const TensorAccess *t : operator_tensors(op)) {
    std::uint32_t before_last_relevant = 0, irrelevant_so_far = 0;
    for (int d : order) {
      if (t->uses(d))
        before_last_relevant = irrelevant_so_far;
      else
        irrelevant_so_far |= bit(d);
    }
    sets.push_back(before_last_relevant);
  }
  return sets;
}

bool subsets(const std::vector<std::uint32_t> &a, const std::vector<std::uint32_t> &b) {
  for (size_t t = 0; t < a.size(); ++t)
    if ((a[t] & ~b[t]) != 0)
      return false;
  return true;
}

} // namespace

std::vector<std::vector<int>> level_orders(const Operator &op, const std::vector<int> &present,
                                           bool prune, const LevelConstraint &rule) {
  std::vector<int> order = present;
  std::sort(order.begin(), order.end());
  std::vector<std::vector<int>> all; // the allowed orders only: a forbidden one removes none
  do
    if (order_allowed(rule, order))
      all.push_back(order);
  while (std::next_permutation(order.begin(), order.end()));
  if (!prune)
    return all;
  std::vector<std::vector<std::uint32_t>> sets;
  for (const std::vector<int> &o : all)
    sets.push_back(enclosing_sets(op, o));
  std::vector<std::vector<int>> kept;
  for (size_t b = 0; b < all.size(); ++b) {
    bool dominated = false;
    for (size_t a = 0; a < all.size() && !dominated; ++a)
      dominated = a != b && subsets(sets[a], sets[b]) && (sets[a] != sets[b] || a < b);
    if (!dominated)
      kept.push_back(all[b]);
  }
  return kept;
}

} // namespace dse
