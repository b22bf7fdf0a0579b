// The exact hierarchical search: spatial rows x keep vectors x tilings (innermost level first,
// capacity-filtered, maximal when pruning) x loop orders, into one Pareto front.
#include "dse/search/hier_search.hpp"

#include <algorithm>
#include <map>

#include "dse/search/hier_space.hpp"

namespace dse {

namespace {

using FanoutRow = std::vector<std::vector<FanoutMapping>>;

/// The search of one operator: the fixed parts and the tiling being built.
class Search {
public:
  Search(const Hardware &hw, const Workload &w, const Operator &op, const HierSearchOptions &o)
      : hw_(hw), h_(hw.hierarchy), w_(w), op_(op), options_(o), dims_(op.dims()),
        tensors_(operator_tensors(op)), front_(o.objectives) {}

  HierSearchResult run();

private:
  void search_row(const FanoutRow &row);
  void choose_level(int level);
  void choose_factor(int level, size_t dim_index);
  void complete_tiling();
  bool fits(int level, const std::vector<std::int64_t> &extent, bool exact) const;
  std::vector<std::int64_t> extent_at(int level) const;
  bool has_inward_move_that_fits() const;
  void search_orders(size_t level);
  void evaluate();

  const Hardware &hw_;
  const Hierarchy &h_;
  const Workload &w_;
  const Operator &op_;
  const HierSearchOptions &options_;
  std::vector<int> dims_;
  std::vector<const TensorAccess *> tensors_;
  ParetoFront front_;
  std::map<std::uint64_t, HierFrontPoint> admitted_;
  HierSearchStatistics stats_;

  std::vector<std::uint32_t> keep_;
  OpMapping mapping_;
  std::vector<std::int64_t> left_;           // per workload dim: what the outer levels take
  std::vector<std::vector<double>> spatial_; // [gap][dim] product of the gap's fan-outs
};

HierSearchResult Search::run() {
  const std::vector<FanoutRow> rows = spatial_rows(h_, w_, op_);
  const std::vector<std::vector<std::uint32_t>> keeps = keep_vectors(h_, op_);
  stats_.spatial_rows = rows.size();
  stats_.keep_vectors = keeps.size();
  mapping_.levels.assign(h_.levels.size(),
                         LevelMapping{{}, std::vector<std::int64_t>(w_.dims.size(), 1), 0});
  for (const FanoutRow &row : rows)
    for (const std::vector<std::uint32_t> &keep : keeps) {
      keep_ = keep;
      for (size_t l = 0; l < keep.size(); ++l)
        mapping_.levels[l].keep = keep[l];
      search_row(row);
    }
  HierSearchResult result;
  result.statistics = stats_;
  for (const ParetoPoint &p : front_.points())
    result.front.push_back(admitted_.at(p.tiling));
  return result;
}

void Search::search_row(const FanoutRow &row) {
  mapping_.fanouts = row;
  spatial_.assign(h_.fanouts.size(), std::vector<double>(w_.dims.size(), 1.0));
  left_.assign(w_.dims.size(), 1);
  for (int d : dims_)
    left_[static_cast<size_t>(d)] = w_.dim_size(d);
  for (size_t gap = 0; gap < row.size(); ++gap)
    for (const FanoutMapping &f : row[gap])
      for (int d : dims_) {
        spatial_[gap][static_cast<size_t>(d)] *= static_cast<double>(f.factor(d));
        left_[static_cast<size_t>(d)] /= f.factor(d);
      }
  choose_level(h_.depth() - 1);
}

/// Extents of level `level`'s tile from the factors chosen at it and inside it.
std::vector<std::int64_t> Search::extent_at(int level) const {
  std::vector<std::int64_t> extent(w_.dims.size(), 1);
  for (int d : dims_) {
    const auto at = static_cast<size_t>(d);
    for (int l = level; l < h_.depth(); ++l)
      extent[at] *= mapping_.levels[static_cast<size_t>(l)].factor[at] *
                    static_cast<std::int64_t>(spatial_[static_cast<size_t>(l)][at]);
  }
  return extent;
}

/// Whether the kept tiles of `level` with these extents fit its capacity; `exact` counts
/// double-buffered tiles twice where an outer loop indexes them (they are refilled), otherwise
/// once (a bound while the outer levels are not chosen yet).
bool Search::fits(int level, const std::vector<std::int64_t> &extent, bool exact) const {
  const StorageLevel &s = h_.levels[static_cast<size_t>(level)];
  if (!s.capacity_words)
    return true;
  double words = 0;
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if ((keep_[static_cast<size_t>(level)] >> t & 1U) == 0)
      continue;
    double tile = 1;
    for (const IndexExpr &index : tensors_[t]->indices) {
      double span = 1;
      for (const IndexTerm &term : index.terms)
        span += static_cast<double>(term.coef) *
                static_cast<double>(extent[static_cast<size_t>(term.dim)] - 1);
      tile *= span;
    }
    bool refilled = false;
    for (int outer = 0; exact && outer < level; ++outer)
      for (int d : dims_)
        refilled |= tensors_[t]->uses(d) &&
                    mapping_.levels[static_cast<size_t>(outer)].factor[static_cast<size_t>(d)] > 1;
    words += tile * (s.double_buffering && refilled ? 2 : 1);
  }
  return words <= static_cast<double>(*s.capacity_words);
}

void Search::choose_level(int level) {
  if (level == 0) {
    for (int d : dims_)
      mapping_.levels[0].factor[static_cast<size_t>(d)] = left_[static_cast<size_t>(d)];
    complete_tiling();
    return;
  }
  choose_factor(level, 0);
}

/// Chooses level `level`'s factor of dims_[dim_index] among the divisors of what is left, in
/// increasing order: the tile only grows, so the first factor that overflows ends the loop.
void Search::choose_factor(int level, size_t dim_index) {
  if (dim_index == dims_.size())
    return choose_level(level - 1);
  const auto d = static_cast<size_t>(dims_[dim_index]);
  std::int64_t &factor = mapping_.levels[static_cast<size_t>(level)].factor[d];
  const std::int64_t available = left_[d];
  for (std::int64_t f : divisors(available)) {
    factor = f;
    if (!fits(level, extent_at(level), false))
      break;
    left_[d] = available / f;
    choose_factor(level, dim_index + 1);
  }
  left_[d] = available;
  factor = 1;
}

/// Whether moving a prime factor of some dimension from one level's block to a deeper one where
/// the dimension also loops (both loops staying) still fits every capacity: the moved tiling is
/// then no worse in any count (§6.4), so this one need not be searched.
bool Search::has_inward_move_that_fits() const {
  const bool buffer_objective =
      std::count(options_.objectives.begin(), options_.objectives.end(), Objective::Buffer) > 0;
  for (int d : dims_) {
    const auto at = static_cast<size_t>(d);
    for (int from = buffer_objective ? 1 : 0; from + 1 < h_.depth(); ++from) {
      const std::int64_t source = mapping_.levels[static_cast<size_t>(from)].factor[at];
      for (int to = from + 1; to < h_.depth(); ++to) {
        if (mapping_.levels[static_cast<size_t>(to)].factor[at] < 2)
          continue;
        for (std::int64_t p = 2; p <= source; ++p) {
          if (source % p != 0 || source / p < 2 || divisors(p).size() != 2)
            continue;
          bool all_fit = true;
          for (int l = from + 1; l <= to && all_fit; ++l) {
            std::vector<std::int64_t> extent = extent_at(l);
            extent[at] *= p;
            all_fit = fits(l, extent, true);
          }
          if (all_fit)
            return true;
        }
      }
    }
  }
  return false;
}

void Search::complete_tiling() {
  for (int l = 1; l < h_.depth(); ++l)
    if (!fits(l, extent_at(l), true))
      return;
  ++stats_.tilings;
  if (options_.prune && has_inward_move_that_fits())
    return;
  ++stats_.tilings_kept;
  search_orders(0);
}

void Search::search_orders(size_t level) {
  if (level == h_.levels.size())
    return evaluate();
  std::vector<int> present;
  for (int d : dims_)
    if (mapping_.levels[level].factor[static_cast<size_t>(d)] > 1)
      present.push_back(d);
  for (const std::vector<int> &order : level_orders(op_, present, options_.prune)) {
    mapping_.levels[level].order = order;
    search_orders(level + 1);
  }
}

void Search::evaluate() {
  const std::uint64_t id = stats_.mappings++;
  HierFrontPoint point;
  point.cost = evaluate_hier_mapping(hw_, w_, op_, mapping_, options_.first_read_elision,
                                     options_.latency_model);
  point.objectives = hier_objectives(hw_, point.cost);
  ParetoPoint p;
  p.objectives = point.objectives;
  p.tiling = id;
  front_.set_key(p);
  if (!front_.admits(p.key, p.candidate, p.tiling))
    return;
  front_.insert(p);
  point.mapping = mapping_;
  admitted_.emplace(id, std::move(point));
}

} // namespace

Objectives hier_objectives(const Hardware &hw, const HierCost &cost) {
  Objectives o;
  o.latency_s = cost.latency_cycles / (hw.clock_ghz * 1e9);
  o.energy_pj = cost.energy_pj;
  o.edp = o.latency_s * o.energy_pj;
  for (const std::optional<HierTensorCounts> &t : cost.levels[0].tensors)
    if (t)
      o.dram_words += t->reads + t->updates;
  if (cost.levels.size() > 1)
    o.buffer_words = cost.levels[1].buffer_words;
  return o;
}

HierSearchResult search_hier_front(const Hardware &hw, const Workload &workload, const Operator &op,
                                   const HierSearchOptions &options) {
  return Search(hw, workload, op, options).run();
}

} // namespace dse
