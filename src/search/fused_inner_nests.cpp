// Enumeration of one fused operator's nests below level 0: per spatial row and keep vector, the
// tiling built from the innermost level out, dimension by dimension (capacity-filtered when
// pruning), then the loop orders of levels 1 to L.
#include "dse/search/fused_inner_nests.hpp"

#include <map>

#include "dse/search/hier_space.hpp"

namespace dse {

namespace {

using FanoutRow = std::vector<std::vector<FanoutMapping>>;

/// The workload with the operator's dimensions at their level-1 extents.
Workload level1_workload(const Problem &problem, int o, const FusedTiles &tiles) {
  Workload w = *problem.workload;
  for (int d : problem.ops[static_cast<size_t>(o)].dims)
    w.dims[static_cast<size_t>(d)].size = tiles.extent[static_cast<size_t>(d)];
  return w;
}

/// The smallest prime factor of `n >= 2`.
std::int64_t smallest_prime_factor(std::int64_t n) {
  for (std::int64_t q = 2; q * q <= n; ++q)
    if (n % q == 0)
      return q;
  return n;
}

/// The nests of one operator under one spatial row and keep vector at a time.
class InnerNests {
public:
  InnerNests(const Hardware &hw, const Workload &w, const Operator &op,
             const std::vector<bool> &refilled_at_level1, bool prune,
             const std::function<bool(const OpMapping &)> &rejected,
             const std::function<void(const OpMapping &)> &visit)
      : h_(hw.hierarchy), w_(w), op_(op), tensors_(operator_tensors(op)), dims_(op.dims()),
        refilled_at_level1_(refilled_at_level1), prune_(prune), rejected_(rejected), visit_(visit) {
  }

  /// Every nest of `row` under each of `keeps`.
  void search_row(const FanoutRow &row, const std::vector<std::vector<std::uint32_t>> &keeps) {
    const size_t levels = h_.levels.size(), all_dims = w_.dims.size();
    m_.levels.assign(levels, LevelMapping{{}, std::vector<std::int64_t>(all_dims, 1), 0});
    m_.fanouts = row;
    spatial_.assign(levels, std::vector<std::int64_t>(all_dims, 1));
    extent_.assign(levels + 1, std::vector<std::int64_t>(all_dims, 1));
    left_.assign(all_dims, 1);
    for (size_t gap = 0; gap < levels; ++gap)
      for (const FanoutMapping &f : row[gap])
        for (int d : dims_)
          spatial_[gap][static_cast<size_t>(d)] *= f.factor(d);
    for (const std::vector<std::uint32_t> &keep : keeps) {
      for (size_t l = 0; l < levels; ++l)
        m_.levels[l].keep = keep[l];
      if (prune_ && rejected_(m_))
        continue;
      for (int d : dims_) {
        const auto at = static_cast<size_t>(d);
        left_[at] = w_.dim_size(d);
        for (size_t gap = 0; gap < levels; ++gap)
          left_[at] /= spatial_[gap][at];
      }
      choose_level(levels - 1);
    }
  }

private:
  /// Levels are chosen from the innermost (L) out; level 1 takes what is left.
  void choose_level(size_t level) {
    if (level == 1) {
      for (int d : dims_)
        set_factor(1, static_cast<size_t>(d), left_[static_cast<size_t>(d)]);
      return complete_tiling();
    }
    for (int d : dims_)
      set_factor(level, static_cast<size_t>(d), 1);
    choose_factor(level, 0);
  }

  /// Chooses level `level`'s factor of dims_[i] among the divisors of what is left, in increasing
  /// order: when pruning, the first that overflows the level (its tiles counted once, a lower
  /// bound) ends the loop. With every factor of the level chosen, whether a dimension loops above
  /// it is known (what is left goes to the levels outside), so the exact words are checked.
  void choose_factor(size_t level, size_t i) {
    if (i == dims_.size()) {
      if (prune_ && !fits(level, extent_[level], loops_left()))
        return;
      return choose_level(level - 1);
    }
    const auto d = static_cast<size_t>(dims_[i]);
    const std::int64_t available = left_[d];
    for (std::int64_t f : divisors(available)) {
      set_factor(level, d, f);
      if (prune_ && !fits(level, extent_[level], 0))
        break;
      left_[d] = available / f;
      choose_factor(level, i + 1);
    }
    left_[d] = available;
    set_factor(level, d, 1);
  }

  void set_factor(size_t level, size_t d, std::int64_t f) {
    m_.levels[level].factor[d] = f;
    extent_[level][d] = f * spatial_[level][d] * extent_[level + 1][d];
  }

  /// Dimensions (a bit each) of which the levels outside the ones chosen still take a part.
  std::uint64_t loops_left() const {
    std::uint64_t loops = 0;
    for (int d : dims_)
      if (left_[static_cast<size_t>(d)] > 1)
        loops |= std::uint64_t{1} << d;
    return loops;
  }

  /// Dimensions that loop in a block of levels 1 to `level` - 1 of the chosen tiling.
  std::uint64_t loops_between(size_t level) const {
    std::uint64_t loops = 0;
    for (size_t l = 1; l < level; ++l)
      for (int d : dims_)
        if (m_.levels[l].factor[static_cast<size_t>(d)] > 1)
          loops |= std::uint64_t{1} << d;
    return loops;
  }

  /// Whether inner level `level`'s kept tiles at `extent` fit: a double-buffered tile counts
  /// twice when it is refilled, that is when a loop at level 0 or over `loops_above` indexes it.
  bool fits(size_t level, const std::vector<std::int64_t> &extent,
            std::uint64_t loops_above) const {
    const StorageLevel &storage = h_.levels[level];
    if (!storage.capacity_words)
      return true;
    double words = 0;
    for (size_t t = 0; t < tensors_.size(); ++t) {
      if ((m_.levels[level].keep >> t & 1U) == 0)
        continue;
      bool refilled = refilled_at_level1_[t];
      for (int d : dims_)
        refilled = refilled || ((loops_above >> d & 1U) != 0 && tensors_[t]->uses(d));
      words += tensors_[t]->words(extent) * (storage.double_buffering && refilled ? 2 : 1);
    }
    return words <= static_cast<double>(*storage.capacity_words);
  }

  /// Whether a prime factor of some dimension moves from one inner block to a deeper one where
  /// the dimension also loops, both loops staying, and the moved tiles still fit: the moved
  /// tiling is then no worse in any count (docs/HIERARCHY.md §6.4) and is searched instead.
  bool has_fitting_inward_move() {
    for (size_t from = 1; from + 1 < h_.levels.size(); ++from)
      for (int dim : dims_) {
        const auto d = static_cast<size_t>(dim);
        const std::int64_t source = m_.levels[from].factor[d];
        const std::int64_t p = source < 4 ? 0 : smallest_prime_factor(source);
        if (p == 0 || source / p < 2)
          continue;
        for (size_t to = from + 1; to < h_.levels.size(); ++to) {
          if (m_.levels[to].factor[d] < 2)
            continue;
          bool all_fit = true;
          for (size_t l = from + 1; l <= to && all_fit; ++l) {
            moved_ = extent_[l];
            moved_[d] *= p;
            all_fit = fits(l, moved_, loops_between(l));
          }
          if (all_fit)
            return true;
        }
      }
    return false;
  }

  void complete_tiling() {
    if (prune_ && has_fitting_inward_move())
      return;
    choose_orders(1);
  }

  /// Orders of levels [level, L]; when pruning, the innermost level's first order stands for
  /// the others (every count reads the blocks above a level only).
  void choose_orders(size_t level) {
    if (level == h_.levels.size())
      return visit_(m_);
    const std::vector<std::vector<int>> &orders = orders_of(level);
    const size_t tried = prune_ && level + 1 == h_.levels.size() ? 1 : orders.size();
    for (size_t i = 0; i < tried; ++i) {
      m_.levels[level].order = orders[i];
      choose_orders(level + 1);
    }
  }

  /// The orders of the dimensions that loop at `level` (computed once per set of them).
  const std::vector<std::vector<int>> &orders_of(size_t level) {
    std::vector<int> present;
    for (int d : dims_)
      if (m_.levels[level].factor[static_cast<size_t>(d)] > 1)
        present.push_back(d);
    auto it = orders_.find(present);
    if (it == orders_.end())
      it = orders_.emplace(present, level_orders(op_, present, prune_)).first;
    return it->second;
  }

  const Hierarchy &h_;
  const Workload &w_;
  const Operator &op_;
  const OperatorTensors tensors_;
  const std::vector<int> dims_;
  const std::vector<bool> &refilled_at_level1_;
  const bool prune_;
  const std::function<bool(const OpMapping &)> &rejected_;
  const std::function<void(const OpMapping &)> &visit_;
  OpMapping m_;
  std::vector<std::vector<std::int64_t>> spatial_; // [gap][dim]: product of the gap's fan-outs
  std::vector<std::vector<std::int64_t>> extent_;  // [level][dim]; [L + 1]: the compute units
  std::vector<std::int64_t> left_;                 // per dim: what the levels outside take
  std::vector<std::int64_t> moved_;
  std::map<std::vector<int>, std::vector<std::vector<int>>> orders_; // by the dimensions present
};

/// The spatial rows of `op` without a fan-out between levels 0 and 1; when `by_utilisation`, in
/// decreasing utilisation (ties in row order).
std::vector<FanoutRow> rows_below_level1(const Hierarchy &h, const Workload &w, const Operator &op,
                                         bool by_utilisation) {
  const std::vector<int> dims = op.dims();
  std::vector<FanoutRow> rows = spatial_rows(h, w, op);
  std::erase_if(rows, [&](const FanoutRow &row) {
    OpMapping probe;
    probe.fanouts = row;
    return fans_out_below_level0(probe, dims);
  });
  if (!by_utilisation)
    return rows;
  std::vector<FanoutRow> ordered;
  for (size_t r : rows_by_utilisation(rows, dims))
    ordered.push_back(std::move(rows[r]));
  return ordered;
}

} // namespace

void for_each_inner_nest(const Hardware &hw, const Problem &problem, int o, const FusedTiles &tiles,
                         const std::vector<bool> &refilled_at_level1, bool prune,
                         const std::function<bool(const OpMapping &)> &rejected,
                         const std::function<void(const OpMapping &)> &visit) {
  const Hierarchy &h = hw.hierarchy;
  const Workload w = level1_workload(problem, o, tiles);
  const Operator &op = w.ops[static_cast<size_t>(problem.ops[static_cast<size_t>(o)].workload_op)];
  const std::uint32_t all = (std::uint32_t{1} << operator_tensors(op).size()) - 1;
  std::vector<std::vector<std::uint32_t>> keeps = keep_vectors(h, w, op);
  std::erase_if(keeps, [all](const std::vector<std::uint32_t> &k) { return k[1] != all; });
  InnerNests nests(hw, w, op, refilled_at_level1, prune, rejected, visit);
  for (const FanoutRow &row : rows_below_level1(h, w, op, prune))
    nests.search_row(row, keeps);
}

} // namespace dse
