// The search of one (spatial row, keep vector) of the hierarchical search: tilings built from the
// innermost level out, dimension by dimension, among divisors (a mapspace rule's fixed factor is
// the only choice at its level, and a move that would change it is no move for maximality);
// capacity-filtered, cut by inward moves (docs/HIERARCHY.md §6.4, §7.2) and by bounds on every
// partly chosen tiling (§7.3) when pruning; each complete tiling's loop orders evaluated from its
// deliveries.
#include "hier_task_search.hpp"

#include <algorithm>
#include <array>

#include "dse/search/hier_space.hpp"

namespace dse {

namespace {

/// The search of one (spatial row, keep vector): the tiling being built and its loop orders.
/// How double-buffered tiles count against a capacity: once (a lower bound while the level's own
/// factors are being chosen), or twice where an outer loop indexes them (exact once they are:
/// whether a dimension loops above a level is fixed by what the outer levels take in all).
enum class Buffering { Once, Exact };

class TaskSearch {
public:
  TaskSearch(const HierSearchSpace &space, const ParetoFront &earlier, size_t row, size_t keep,
             HierDeliveryCost costs);
  HierTaskResult run();

private:
  void choose_level(int level);
  void choose_factor(int level, size_t dim_index);
  void complete_tiling();
  bool fits(int level, const std::vector<std::int64_t> &extent, Buffering buffering) const;
  void update_extent(int level, size_t at);
  void start_level(int level);
  bool has_inward_move_that_fits();
  std::uint64_t loops_above(int level) const;
  bool has_inward_move_of(int from, size_t at);
  std::int64_t prime_to_move(int from, size_t at) const;
  bool prime_move_fits(int from, size_t at, std::int64_t p);
  bool subtree_rejected(int level, size_t chosen);
  double movable_trips(size_t chosen, size_t t) const;
  void note_block(size_t level);
  bool fixed_at(int level, size_t dim) const {
    return s_.rules.levels[static_cast<size_t>(level)].factor[dim] != 0;
  }
  void prepare_rows();
  void evaluate_rows();
  bool admitted(const Objectives &o, std::uint64_t tiling) const;

  const HierSearchSpace &s_;
  const ParetoFront &earlier_;
  const std::uint64_t candidate_;
  const size_t keep_index_;
  const std::vector<std::uint32_t> &keep_;
  const std::uint32_t kept_counts_; // the deliveries the keep vector reads
  OpMapping mapping_;
  HierDeliveryCost costs_;
  HierTaskResult result_;
  std::uint64_t next_tiling_id_ = 0;

  std::vector<std::int64_t> left_;                // per workload dim: what the outer levels take
  std::vector<std::vector<double>> spatial_;      // [gap][dim] product of the gap's fan-outs
  std::vector<std::int64_t> moved_;               // scratch: a level's extents after an inward move
  std::vector<std::vector<std::int64_t>> extent_; // [level][dim] tile extents of chosen levels

  // Per level the product of its trips, in all and per tensor over its dimensions; per (level,
  // tensor) the tile.
  std::vector<double> block_trips_;
  std::vector<std::array<double, kMaxHierTensors>> relevant_trips_;
  std::vector<std::array<double, kMaxHierTensors>> tile_;
  // Per tiling: its support (per level a bit per index of dims whose loop exists), the support's
  // rows (loop-order combinations), per level the orders they take, and the tiling's column of B.
  std::vector<std::uint64_t> support_;
  const HierRowBlock *rows_ = nullptr;
  std::vector<const std::vector<std::vector<int>> *> level_orders_;
  std::vector<double> scratch_;
  std::vector<double> basis_;
  double buffer_words_ = 0;
};

/// The task's mapping before its tiling: the spatial row, the keep vector, every factor 1.
OpMapping task_mapping(const HierSearchSpace &space, size_t row, size_t keep) {
  OpMapping m{std::vector<LevelMapping>(
                  space.h.levels.size(),
                  LevelMapping{{}, std::vector<std::int64_t>(space.w.dims.size(), 1), 0}),
              space.rows[row]};
  for (size_t l = 0; l < m.levels.size(); ++l)
    m.levels[l].keep = space.keeps[keep][l];
  return m;
}

TaskSearch::TaskSearch(const HierSearchSpace &space, const ParetoFront &earlier, size_t row,
                       size_t keep, HierDeliveryCost costs)
    : s_(space), earlier_(earlier), candidate_(row * space.keeps.size() + keep), keep_index_(keep),
      keep_(space.keeps[keep]),
      kept_counts_(HierRowBlock::kept_counts(keep_, space.tensors.size())),
      mapping_(task_mapping(space, row, keep)), costs_(std::move(costs)),
      result_(space.options.objectives) {
  spatial_.assign(s_.h.fanouts.size(), std::vector<double>(s_.w.dims.size(), 1.0));
  left_.assign(s_.w.dims.size(), 1);
  for (int d : s_.dims)
    left_[static_cast<size_t>(d)] = s_.w.dim_size(d);
  for (size_t gap = 0; gap < mapping_.fanouts.size(); ++gap)
    for (const FanoutMapping &f : mapping_.fanouts[gap])
      for (int d : s_.dims) {
        spatial_[gap][static_cast<size_t>(d)] *= static_cast<double>(f.factor(d));
        left_[static_cast<size_t>(d)] /= f.factor(d);
      }
  const size_t levels = s_.h.levels.size();
  level_orders_.resize(levels);
  block_trips_.resize(levels);
  relevant_trips_.resize(levels);
  tile_.resize(levels);
  support_.resize(levels);
  extent_.assign(levels, std::vector<std::int64_t>(s_.w.dims.size(), 1));
}

/// Whether a point with objectives `o` and this task's ids enters both the earlier batches' front
/// and this task's own.
bool TaskSearch::admitted(const Objectives &o, std::uint64_t tiling) const {
  const ParetoFront::Key key = result_.front.key_of(o);
  return earlier_.admits(key, candidate_, tiling) && result_.front.admits(key, candidate_, tiling);
}

HierTaskResult TaskSearch::run() {
  choose_level(s_.h.depth() - 1);
  return std::move(result_);
}

/// The extent of dimension `at` of level `level`'s tile from its factor there and the extent of
/// the level inside (the levels inside must be chosen).
void TaskSearch::update_extent(int level, size_t at) {
  const auto l = static_cast<size_t>(level);
  const std::int64_t inner = level + 1 < s_.h.depth() ? extent_[l + 1][at] : 1;
  extent_[l][at] =
      mapping_.levels[l].factor[at] * static_cast<std::int64_t>(spatial_[l][at]) * inner;
}

/// Extents of level `level`'s tile before any of its factors is chosen.
void TaskSearch::start_level(int level) {
  for (int d : s_.dims)
    update_extent(level, static_cast<size_t>(d));
}

/// The dimensions with a loop in a block above chosen level `level`: those the unchosen levels
/// take part of, and those the chosen levels between loop over.
std::uint64_t TaskSearch::loops_above(int level) const {
  std::uint64_t loops = 0;
  for (int d : s_.dims) {
    const auto at = static_cast<size_t>(d);
    bool loops_over = left_[at] > 1;
    for (int l = 1; l < level && !loops_over; ++l)
      loops_over = mapping_.levels[static_cast<size_t>(l)].factor[at] > 1;
    if (loops_over)
      loops |= std::uint64_t{1} << d;
  }
  return loops;
}

/// Whether the kept tiles of `level` with these extents fit its capacity, double-buffered tiles
/// counted as `buffering` says.
bool TaskSearch::fits(int level, const std::vector<std::int64_t> &extent,
                      Buffering buffering) const {
  const StorageLevel &storage = s_.h.levels[static_cast<size_t>(level)];
  if (!storage.capacity_words)
    return true;
  const std::uint64_t outer_loops = buffering == Buffering::Exact ? loops_above(level) : 0;
  double words = 0;
  for (size_t t = 0; t < s_.tensors.size(); ++t) {
    if ((keep_[static_cast<size_t>(level)] >> t & 1U) == 0)
      continue;
    const bool refilled = (s_.relevant[t] & outer_loops) != 0;
    words += s_.tensors[t]->words(extent) * (storage.double_buffering && refilled ? 2 : 1);
  }
  return words <= static_cast<double>(*storage.capacity_words);
}

void TaskSearch::choose_level(int level) {
  if (level == 0) {
    for (int d : s_.dims) {
      const auto at = static_cast<size_t>(d);
      const std::int64_t fixed = s_.rules.levels[0].factor[at];
      if (fixed != 0 && left_[at] != fixed)
        return;
      mapping_.levels[0].factor[at] = left_[at];
      update_extent(0, at);
    }
    complete_tiling();
    return;
  }
  start_level(level);
  choose_factor(level, 0);
}

/// Chooses level `level`'s factor of dims[dim_index] among the divisors of what is left (only the
/// fixed one if the level's rule fixes it), in increasing order: the tile only grows, so the first
/// factor that overflows ends the loop.
void TaskSearch::choose_factor(int level, size_t dim_index) {
  if (dim_index == s_.dims.size()) {
    // With the level's factors chosen, its double-buffered tiles count exactly.
    if (!fits(level, extent_[static_cast<size_t>(level)], Buffering::Exact))
      return;
    return choose_level(level - 1);
  }
  const auto d = static_cast<size_t>(s_.dims[dim_index]);
  std::int64_t &factor = mapping_.levels[static_cast<size_t>(level)].factor[d];
  const std::int64_t available = left_[d];
  const std::int64_t fixed = s_.rules.levels[static_cast<size_t>(level)].factor[d];
  // Whether a move of each prime tried so far fits (the same for every factor that moves it).
  std::vector<std::pair<std::int64_t, bool>> move_fits;
  for (std::int64_t f : s_.divisors_of.at(available)) {
    if (fixed != 0 && f != fixed)
      continue;
    factor = f;
    update_extent(level, d);
    if (!fits(level, extent_[static_cast<size_t>(level)], Buffering::Once))
      break;
    // Every tiling of this subtree has the same fitting inward move out of this level (§7.2).
    if (const std::int64_t p = s_.options.prune ? prime_to_move(level, d) : 0; p != 0) {
      auto known = std::find_if(move_fits.begin(), move_fits.end(),
                                [p](const auto &m) { return m.first == p; });
      if (known == move_fits.end())
        known = move_fits.insert(move_fits.end(), {p, prime_move_fits(level, d, p)});
      if (known->second)
        continue;
    }
    left_[d] = available / f;
    // The last choice of level 1 completes the tiling, whose own checks come first (cheaper):
    // the level-0 factor of this dimension is known, and so whether it moves into level 1.
    const bool completes = level == 1 && dim_index + 1 == s_.dims.size();
    if (s_.options.prune && completes && !s_.buffer_objective) {
      mapping_.levels[0].factor[d] = left_[d];
      if (has_inward_move_of(0, d))
        continue;
    }
    if (s_.options.prune && !completes && subtree_rejected(level, dim_index + 1))
      continue;
    choose_factor(level, dim_index + 1);
  }
  left_[d] = available;
  factor = 1;
  update_extent(level, d);
}

/// The smallest prime factor of `n >= 2`.
std::int64_t smallest_prime_factor(std::int64_t n) {
  for (std::int64_t q = 2; q * q <= n; ++q)
    if (n % q == 0)
      return q;
  return n;
}

/// Whether moving a prime factor of dimension `at` from level `from`'s block to a deeper one where
/// the dimension also loops (both loops staying, so no level's refills change) still fits every
/// capacity: the moved tiling is then no worse in any count (docs/HIERARCHY.md §6.4). A move that
/// changes a factor fixed by a mapspace rule leaves the constrained space and is not made. The
/// levels inside `from` and `from`'s factor of the dimension must be chosen.
bool TaskSearch::has_inward_move_of(int from, size_t at) {
  const std::int64_t p = prime_to_move(from, at);
  return p != 0 && prime_move_fits(from, at, p);
}

/// The prime factor of dimension `at` that an inward move out of level `from` would take (0 if
/// none may move): tiles only grow with the factor moved, so if any prime move fits, the
/// smallest does.
std::int64_t TaskSearch::prime_to_move(int from, size_t at) const {
  const std::int64_t source = mapping_.levels[static_cast<size_t>(from)].factor[at];
  if (source < 4 || fixed_at(from, at))
    return 0;
  const std::int64_t p = smallest_prime_factor(source);
  return source / p < 2 ? 0 : p;
}

/// Whether moving `p` of dimension `at` from level `from` to a deeper level where it loops fits.
/// With both loops staying, the answer depends on `p` alone, not on the rest of `from`'s factor.
bool TaskSearch::prime_move_fits(int from, size_t at, std::int64_t p) {
  for (int to = from + 1; to < s_.h.depth(); ++to) {
    if (mapping_.levels[static_cast<size_t>(to)].factor[at] < 2 || fixed_at(to, at))
      continue;
    bool all_fit = true;
    for (int l = from + 1; l <= to && all_fit; ++l) {
      moved_ = extent_[static_cast<size_t>(l)];
      moved_[at] *= p;
      all_fit = fits(l, moved_, Buffering::Exact);
    }
    if (all_fit)
      return true;
  }
  return false;
}

/// Whether the front rejects every mapping of the subtree whose levels inside `level` are chosen
/// and, of `level`, the factors of the first `chosen` dimensions (docs/HIERARCHY.md §7.3).
/// Deliveries into a keeper `l` are E(l,t) tiles (§4.1). The blocks above `level` are not chosen,
/// but their trips multiply to `left_`. If a chosen block above `l` loops over a dimension of the
/// tensor, the innermost such block `J` fixes E(l,t) up to its own order: every trip above `J`
/// (all of `left_`, the chosen blocks between), times at least `J`'s loops over the tensor's
/// dimensions; when `J` is `level` itself, a dimension not chosen yet and not the tensor's may
/// still move its trips from above `J` into `J`, so its part of `left_` is left out. Otherwise
/// E(l,t) is at least the tensor's trips in `left_`. Keepers whose tiles are not known yet get the
/// least deliveries |t| * rho(l,t). Later mappings of the task carry larger ids, so a rejected
/// bound rejects them all.
bool TaskSearch::subtree_rejected(int level, size_t chosen) {
  const auto current = static_cast<size_t>(level);
  double outer_trips = 1; // every trip of the blocks above `level`
  for (int d : s_.dims)
    outer_trips *= static_cast<double>(left_[static_cast<size_t>(d)]);
  note_block(current);
  HierDeliveries delta = costs_.least_deliveries();
  const bool level_chosen = chosen == s_.dims.size();
  for (size_t l = level_chosen ? current : current + 1; l < s_.h.levels.size(); ++l)
    for (size_t t = 0; t < s_.tensors.size(); ++t) {
      if (!costs_.keeps(l, t))
        continue;
      double deliveries = 1, trips = outer_trips;
      for (int d : s_.dims)
        if ((s_.relevant[t] >> d & 1U) != 0)
          deliveries *= static_cast<double>(left_[static_cast<size_t>(d)]);
      for (size_t j = current; j < l; ++j) {
        if (relevant_trips_[j][t] > 1)
          deliveries =
              trips / (j == current ? movable_trips(chosen, t) : 1) * relevant_trips_[j][t];
        trips *= block_trips_[j];
      }
      if (l == current) // the tiles inside were noted when their levels were chosen
        tile_[l][t] = s_.tensors[t]->words(extent_[l]);
      delta[l][t] = std::max(delta[l][t], tile_[l][t] * deliveries * costs_.instances(l));
    }
  return !admitted(costs_.objectives(delta, 0, s_.dram_floor(keep_index_, extent_[current])),
                   next_tiling_id_);
}

/// Trips of the blocks above the level being chosen over the dimensions not chosen yet that
/// tensor `t` does not use.
double TaskSearch::movable_trips(size_t chosen, size_t t) const {
  double trips = 1;
  for (size_t i = chosen; i < s_.dims.size(); ++i)
    if ((s_.relevant[t] >> s_.dims[i] & 1U) == 0)
      trips *= static_cast<double>(left_[static_cast<size_t>(s_.dims[i])]);
  return trips;
}

/// Notes level `level`'s block trips, in all and per tensor over its dimensions.
void TaskSearch::note_block(size_t level) {
  block_trips_[level] = 1;
  relevant_trips_[level].fill(1);
  for (int d : s_.dims) {
    const auto trip = static_cast<double>(mapping_.levels[level].factor[static_cast<size_t>(d)]);
    block_trips_[level] *= trip;
    for (size_t t = 0; t < s_.tensors.size(); ++t)
      if ((s_.relevant[t] >> d & 1U) != 0)
        relevant_trips_[level][t] *= trip;
  }
}

/// Whether a complete tiling is not maximal: some inward move fits (the moved tiling belongs to
/// the same structure and is searched instead).
bool TaskSearch::has_inward_move_that_fits() {
  for (int from = s_.buffer_objective ? 1 : 0; from + 1 < s_.h.depth(); ++from)
    for (int d : s_.dims)
      if (has_inward_move_of(from, static_cast<size_t>(d)))
        return true;
  return false;
}

void TaskSearch::complete_tiling() {
  ++result_.stats.tilings;
  if (s_.options.prune && (has_inward_move_that_fits() || subtree_rejected(1, s_.dims.size())))
    return;
  ++result_.stats.tilings_kept;
  prepare_rows();
  evaluate_rows();
}

/// The tiling's support and its rows, the tiling's column of B, and level 1's buffer words.
void TaskSearch::prepare_rows() {
  const size_t levels = s_.h.levels.size();
  bool same_support = rows_ != nullptr;
  for (size_t l = 0; l < levels; ++l) {
    std::uint64_t present = 0;
    for (size_t i = 0; i < s_.dims.size(); ++i)
      if (mapping_.levels[l].factor[static_cast<size_t>(s_.dims[i])] > 1)
        present |= std::uint64_t{1} << i;
    same_support = same_support && support_[l] == present;
    support_[l] = present;
    level_orders_[l] = &s_.orders[l][present];
  }
  if (!same_support)
    rows_ = &s_.rows_of(support_);
  rows_->evaluate_basis({mapping_.levels, spatial_}, kept_counts_, scratch_, basis_);
  buffer_words_ = 0;
  if (levels < 2)
    return;
  // A tile of level 1 is double-buffered when a loop of level 0 indexes its tensor.
  const bool double_buffered = s_.h.levels[1].double_buffering;
  for (size_t t = 0; t < s_.tensors.size(); ++t)
    if (costs_.keeps(1, t))
      buffer_words_ += s_.tensors[t]->words(extent_[1]) *
                       (double_buffered && (support_[0] & s_.relevant_index[t]) != 0 ? 2 : 1);
}

/// Every row of the tiling's support, in row order (each one tiling id): its deliveries Q x b.
void TaskSearch::evaluate_rows() {
  HierDeliveries delta{};
  for (size_t row = 0; row < rows_->rows(); ++row) {
    rows_->deliveries(row, basis_, kept_counts_, delta);
    const std::uint64_t id = next_tiling_id_++;
    ++result_.stats.mappings;
    const Objectives o = costs_.objectives(delta, buffer_words_);
    if (!admitted(o, id))
      continue;
    ParetoPoint p;
    p.objectives = o;
    p.candidate = candidate_;
    p.tiling = id;
    result_.front.set_key(p);
    result_.front.insert(p);
    HierFoundPoint found{o, mapping_};
    for (size_t l = 0; l < s_.h.levels.size(); ++l)
      found.mapping.levels[l].order = (*level_orders_[l])[rows_->order_of(row, l)];
    result_.found.insert_or_assign(id, std::move(found));
  }
}

} // namespace

HierTaskResult search_hier_task(const HierSearchSpace &space, const ParetoFront &earlier,
                                size_t row, size_t keep, HierDeliveryCost costs) {
  return TaskSearch(space, earlier, row, keep, std::move(costs)).run();
}

} // namespace dse
