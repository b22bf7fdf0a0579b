// The trace simulator: a literal walk of the loop tree that allocates and releases tiles by the
// scope rule of docs/DESIGN.md §4.1, moves real values through them, and counts what the model
// predicts.
#include "model/trace_simulator.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace dse::trace {

namespace {

/// Calls visit(v) for every v with lo[i] <= v[i] < lo[i] + extent[i], last index fastest.
template <class Visit>
void for_each_index(const std::vector<std::int64_t> &lo, const std::vector<std::int64_t> &extent,
                    Visit visit) {
  if (std::any_of(extent.begin(), extent.end(), [](std::int64_t e) { return e <= 0; }))
    return;
  std::vector<std::int64_t> v = lo;
  while (true) {
    visit(v);
    size_t i = v.size(); // odometer: carry while a digit wraps around
    while (i > 0 && ++v[i - 1] == lo[i - 1] + extent[i - 1]) {
      v[i - 1] = lo[i - 1];
      --i;
    }
    if (i == 0)
      return;
  }
}

/// The box of `access` for per-dim ranges starting at 0: per index position, its offset and
/// 1 + sum c * (extent_d - 1) positions.
Dense access_box(const TensorAccess &access, const std::vector<std::int64_t> &dim_extent) {
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  for (const IndexExpr &e : access.indices) {
    std::int64_t span = 1;
    for (const IndexTerm &t : e.terms)
      span += t.coef * (dim_extent[static_cast<size_t>(t.dim)] - 1);
    lo.push_back(e.offset);
    extent.push_back(span);
  }
  return Dense::zeros(std::move(lo), std::move(extent));
}

/// The coordinates `access` reads at the point `at` (one value per workload dim).
void coords_of(const TensorAccess &access, const std::vector<std::int64_t> &at,
               std::vector<std::int64_t> &coord) {
  coord.assign(access.indices.size(), 0);
  for (size_t i = 0; i < access.indices.size(); ++i) {
    coord[i] = access.indices[i].offset;
    for (const IndexTerm &t : access.indices[i].terms)
      coord[i] += t.coef * at[static_cast<size_t>(t.dim)];
  }
}

/// The slot of a line buffer of `width` positions that holds `position` (padding included).
std::int64_t line_slot(std::int64_t position, std::int64_t width) {
  return ((position % width) + width) % width;
}

/// Range = [first, first + count).
using Range = std::pair<std::int64_t, std::int64_t>;

/// The part of a producer index's range that the producer computes along halo dim h, given the
/// positions [window.first, + count) that its current window covers there: only the ones in
/// the halo's range (no padding, nothing no output reads). Empty when none is left.
Range computed_part(const Problem &p, const IndexExpr &index, int h, Range range, Range window) {
  const HaloRange &halo = p.halo_range(h);
  const std::int64_t lo = std::max(window.first, halo.begin);
  const std::int64_t hi = std::min(window.first + window.second, halo.end);
  if (hi <= lo)
    return {range.first, 0};
  const std::int64_t c = index.coefficient(h) / p.halo_stride(h);
  return {range.first + c * (lo - window.first), range.second - c * (window.second - (hi - lo))};
}

/// The accesses of op `o` as its einsum writes them: inputs, then the output (in the order of
/// ProblemOp::tensors), over the dims of Operator::dims.
std::vector<TensorAccess> einsum_accesses(const Problem &p, int o) {
  const Einsum &e = p.op(o).einsum;
  std::vector<TensorAccess> out = e.inputs;
  out.push_back(e.output);
  return out;
}

/// The range [first, first + extent) of `index` when every dim d spans range(d).
template <class DimRange>
std::pair<std::int64_t, std::int64_t> index_span(const IndexExpr &index, DimRange range) {
  std::int64_t first = index.offset;
  std::int64_t span = 1;
  for (const IndexTerm &t : index.terms) {
    const auto [start, count] = range(t.dim);
    first += t.coef * start;
    span += t.coef * (count - 1);
  }
  return {first, span};
}

/// Range [lo, lo + extent) of each of op `o`'s einsum dims (Operator::dims order): the range
/// `index_range` gives its iteration index (a window for a producer read through one).
template <class IndexRange>
void einsum_ranges(const Problem &p, int o, IndexRange index_range, std::vector<std::int64_t> &lo,
                   std::vector<std::int64_t> &extent) {
  const std::vector<int> dims = p.op(o).dims();
  const ProblemOp &op = p.ops[static_cast<size_t>(o)];
  for (size_t k = 0; k < dims.size(); ++k)
    std::tie(lo[static_cast<size_t>(dims[k])], extent[static_cast<size_t>(dims[k])]) =
        index_range(op.iteration[k]);
}

/// `out += product of inputs` over the points dim_lo[d] <= d < dim_lo[d] + dim_extent[d] of
/// `dims`. Returns the name of a tensor touched outside its box, or "" when all went well.
std::string accumulate(const std::vector<int> &dims, const std::vector<TensorAccess> &accesses,
                       const std::vector<std::int64_t> &dim_lo,
                       const std::vector<std::int64_t> &dim_extent,
                       const std::vector<const Dense *> &inputs, Dense &out) {
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  for (int d : dims) {
    lo.push_back(dim_lo[static_cast<size_t>(d)]);
    extent.push_back(dim_extent[static_cast<size_t>(d)]);
  }
  std::vector<std::int64_t> at(dim_lo.size(), 0);
  std::vector<std::int64_t> coord;
  std::string outside;
  for_each_index(lo, extent, [&](const std::vector<std::int64_t> &v) {
    for (size_t i = 0; i < v.size(); ++i)
      at[static_cast<size_t>(dims[i])] = v[i];
    double product = 1.0;
    for (size_t i = 0; i < inputs.size(); ++i) {
      coords_of(accesses[i], at, coord);
      const std::int64_t off = inputs[i]->offset(coord);
      if (off < 0) {
        outside = accesses[i].tensor;
        return;
      }
      product *= inputs[i]->data[static_cast<size_t>(off)];
    }
    coords_of(accesses.back(), at, coord);
    const std::int64_t off = out.offset(coord);
    if (off < 0) {
      outside = accesses.back().tensor;
      return;
    }
    out.data[static_cast<size_t>(off)] += product;
  });
  return outside;
}

/// The normalised dim of the softmax attached to the producer, -1 without one.
int softmax_dim(const Problem &p) {
  for (int a : p.ops[0].attached_ops)
    if (p.workload->ops.at(static_cast<size_t>(a)).kind == OpKind::Softmax)
      return p.workload->ops.at(static_cast<size_t>(a)).over_dim;
  return -1;
}

bool has_attached_softmax(const Problem &p) { return softmax_dim(p) >= 0; }

int final_output(const Problem &p) { return p.ops.back().tensors.back(); }

/// One execution of a schedule: loop state, live tiles, DRAM contents and the counters.
class Run {
public:
  Run(const Problem &p, const Dataflow &df, const Tiling &tiling, const std::vector<Dense> &inputs);
  TraceCounts execute(const Dense &reference);

private:
  void prefix_level(size_t k);
  std::int64_t online_softmax_state_words(int dim) const;
  void subnest_level(int op, size_t j);
  template <class Body> void loop(int dim, Body body);
  /// Lower bound and extent of dim d right now: the current tile inside its loop, else all of it.
  std::pair<std::int64_t, std::int64_t> dim_range(int d) const;
  /// The range of an index over the dims' current ranges.
  std::pair<std::int64_t, std::int64_t> range_of(const IndexExpr &index) const;
  /// The same on the producer's side of a pair fused through a window: past the first step of a
  /// cached halo loop, only the positions new to this step.
  std::pair<std::int64_t, std::int64_t> producer_range(const IndexExpr &index) const;
  /// What of that the producer computes: only the positions its consumer's outputs read.
  std::pair<std::int64_t, std::int64_t> computed_range(const IndexExpr &index) const;
  bool is_cached(int h) const;
  /// The overlap of consecutive windows along cached halo dim h (U - s positions).
  std::int64_t overlap_of(int h) const;
  /// The position of the intermediate's index that halo dim h is in.
  size_t halo_position(int h) const;
  void open_store(int h);
  void close_store(int h);
  void fill_overlap(Dense &tile);
  void keep_overlap(const Dense &tile);
  std::vector<int> allocate_if(const std::vector<int> &candidates, int depth);
  void allocate(int tensor);
  void release(const std::vector<int> &tensors);
  void copy_region(const Dense &region, const Dense &from, Dense &to) const;
  void compute(int op);
  double output_error(const Dense &reference) const;

  const Problem &p_;
  const Dataflow &df_;
  std::vector<std::int64_t> size_, tile_, trips_;
  std::vector<std::int64_t> iteration_;    // per dim: current iteration of its loop, -1 outside it
  std::vector<Dense> dram_;                // per tensor at its padded extents (intermediate unused)
  std::vector<std::vector<bool>> written_; // per output element: written to DRAM before
  std::vector<Dense> live_;                // per tensor: its tile, while is_live_
  std::vector<bool> is_live_;
  std::int64_t live_words_ = 0;
  TraceCounts counts_;
  /// Per cached halo dim, live around its loop: the last U - s positions along its index of the
  /// windows computed so far (addressed modulo U - s, as a line buffer), and which position each
  /// slot holds (-1: none).
  struct OverlapStore {
    int h = -1;
    Dense slots;
    std::vector<std::int64_t> holds;
  };
  std::vector<OverlapStore> stores_;
};

Run::Run(const Problem &p, const Dataflow &df, const Tiling &tiling,
         const std::vector<Dense> &inputs)
    : p_(p), df_(df), live_(p.tensors.size()), is_live_(p.tensors.size(), false) {
  std::vector<std::int64_t> padded;
  for (size_t d = 0; d < p.workload->dims.size(); ++d) {
    size_.push_back(p.workload->dim_size(static_cast<int>(d)));
    tile_.push_back(p.is_window[d] ? size_[d] : tiling.tile.at(d));
    trips_.push_back((size_[d] + tile_[d] - 1) / tile_[d]);
    padded.push_back(tile_[d] * trips_[d]);
  }
  iteration_.assign(size_.size(), -1);
  for (size_t t = 0; t < p.tensors.size(); ++t) {
    dram_.push_back(access_box(p.tensors[t].access, padded));
    written_.emplace_back(dram_.back().data.size(), false);
    if (p.tensors[t].role == TensorRole::Input)
      copy_region(inputs[t], inputs[t], dram_.back());
  }
  counts_.macs.assign(p.ops.size(), 0);
  counts_.peak_words.assign(p.ops.size(), 0);
}

TraceCounts Run::execute(const Dense &reference) {
  try {
    prefix_level(0);
  } catch (const std::runtime_error &e) {
    counts_.schedule_error = e.what();
    return counts_;
  }
  if (!p_.fused() && has_attached_softmax(p_)) { // the separate pass over the whole output
    counts_.dram_reads += dram_[static_cast<size_t>(final_output(p_))].words();
    counts_.dram_writes += dram_[static_cast<size_t>(final_output(p_))].words();
  }
  counts_.output_error = output_error(reference);
  return counts_;
}

/// Body of prefix loop k (k = 0: outside every loop; k = prefix length: where the sub-nests run).
void Run::prefix_level(size_t k) {
  // Owned tiles at depth == prefix length belong to their own sub-nest, not to this body.
  std::vector<int> candidates;
  for (int t = 0; t < static_cast<int>(p_.tensors.size()); ++t)
    if (t == p_.intermediate || k < df_.prefix.size())
      candidates.push_back(t);
  const std::vector<int> held = allocate_if(candidates, static_cast<int>(k));
  if (k == df_.prefix.size()) {
    for (size_t o = 0; o < p_.ops.size(); ++o) // the producer completes before the consumer
      subnest_level(static_cast<int>(o), 0);
  } else {
    const int dim = df_.prefix[k];
    const std::int64_t state = online_softmax_state_words(dim);
    const bool cached = std::find(df_.cached.begin(), df_.cached.end(), dim) != df_.cached.end();
    live_words_ += state;
    if (cached)
      open_store(dim);
    loop(dim, [&] { prefix_level(k + 1); });
    if (cached)
      close_store(dim);
    live_words_ -= state;
  }
  release(held);
}

/// Fused online softmax whose normalised dim is `dim`: max, sum and scale (3 words) for every
/// row of the intermediate that the dim's loop sweeps, live around that loop; 0 otherwise.
std::int64_t Run::online_softmax_state_words(int dim) const {
  if (!p_.fused() || softmax_dim(p_) != dim)
    return 0;
  std::int64_t rows = 1;
  for (const IndexExpr &e : p_.tensors[static_cast<size_t>(p_.intermediate)].access.indices) {
    if (std::any_of(e.terms.begin(), e.terms.end(),
                    [&](const IndexTerm &t) { return t.dim == dim; }))
      continue;
    std::int64_t span = 1; // an affine index spans 1 + sum coef * (extent - 1)
    for (const IndexTerm &t : e.terms)
      span += t.coef * (dim_range(t.dim).second - 1);
    rows *= span;
  }
  return 3 * rows;
}

/// Body of sub-nest loop j of op `op` (j = 0: the sub-nest starts; j = its length: innermost).
void Run::subnest_level(int op, size_t j) {
  const std::vector<int> &nest = df_.subnests.at(static_cast<size_t>(op));
  std::vector<int> owned;
  for (int t : p_.ops[static_cast<size_t>(op)].tensors)
    if (t != p_.intermediate && p_.tensors[static_cast<size_t>(t)].owner == op)
      owned.push_back(t);
  const std::vector<int> held = allocate_if(owned, static_cast<int>(df_.prefix.size() + j));
  if (j == nest.size())
    compute(op);
  else
    loop(nest[j], [&] { subnest_level(op, j + 1); });
  release(held);
}

template <class Body> void Run::loop(int dim, Body body) {
  const size_t d = static_cast<size_t>(dim);
  if (iteration_[d] >= 0 || p_.is_window[d])
    throw std::runtime_error("dimension '" + p_.dim_name(dim) + "' is not a loop here");
  for (std::int64_t i = 0; i < trips_[d]; ++i) {
    iteration_[d] = i;
    body();
  }
  iteration_[d] = -1;
}

std::pair<std::int64_t, std::int64_t> Run::dim_range(int d) const {
  const size_t i = static_cast<size_t>(d);
  if (iteration_[i] >= 0)
    return {iteration_[i] * tile_[i], tile_[i]};
  return {0, p_.is_window[i] ? size_[i] : tile_[i] * trips_[i]};
}

std::pair<std::int64_t, std::int64_t> Run::range_of(const IndexExpr &index) const {
  return index_span(index, [&](int d) { return dim_range(d); });
}

std::int64_t Run::overlap_of(int h) const { return p_.halo_window(h) - p_.halo_stride(h); }

bool Run::is_cached(int h) const {
  return std::find(df_.cached.begin(), df_.cached.end(), h) != df_.cached.end();
}

std::pair<std::int64_t, std::int64_t> Run::producer_range(const IndexExpr &index) const {
  auto [first, span] = range_of(index);
  for (int h : df_.cached)
    if (iteration_[static_cast<size_t>(h)] > 0 && index.coefficient(h) > 0) {
      first += overlap_of(h); // the window's first U - s positions were computed before
      span -= overlap_of(h);
    }
  return {first, span};
}

std::pair<std::int64_t, std::int64_t> Run::computed_range(const IndexExpr &index) const {
  Range range = producer_range(index);
  for (int h : p_.halo_dims) {
    if (index.coefficient(h) == 0)
      continue;
    Range window = range_of(p_.halo_read(h));
    if (is_cached(h) && iteration_[static_cast<size_t>(h)] > 0) {
      window.first += overlap_of(h);
      window.second -= overlap_of(h);
    }
    range = computed_part(p_, index, h, range, window);
  }
  return range;
}

size_t Run::halo_position(int h) const {
  const TensorAccess &inter = p_.tensors[static_cast<size_t>(p_.intermediate)].access;
  for (size_t i = 0; i < inter.indices.size(); ++i)
    for (const IndexTerm &t : inter.indices[i].terms)
      if (t.dim == h)
        return i;
  throw std::runtime_error("halo dim '" + p_.dim_name(h) + "' indexes no intermediate position");
}

/// Opens h's overlap store before its loop: U - s positions along h's index, and along the other
/// indices what the loops inside h and the sub-nests sweep.
void Run::open_store(int h) {
  const TensorAccess &inter = p_.tensors[static_cast<size_t>(p_.intermediate)].access;
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  for (const IndexExpr &e : inter.indices) {
    const auto [first, span] = range_of(e);
    lo.push_back(first);
    extent.push_back(span);
  }
  const size_t at = halo_position(h);
  lo[at] = 0;
  extent[at] = overlap_of(h);
  OverlapStore store{h, Dense::zeros(lo, extent), {}};
  store.holds.assign(store.slots.data.size(), -1);
  live_words_ += store.slots.words();
  stores_.push_back(std::move(store));
}

void Run::close_store(int h) {
  if (stores_.empty() || stores_.back().h != h)
    throw std::runtime_error("overlap stores closed out of order");
  live_words_ -= stores_.back().slots.words();
  stores_.pop_back();
}

/// A fresh intermediate tile: every position that an earlier step of a cached halo loop computed
/// (the window's first U - s along it, past its first step) comes from that loop's store, the
/// outermost such loop first; the producer computes the rest.
void Run::fill_overlap(Dense &tile) {
  std::vector<std::int64_t> slot;
  for_each_index(tile.lo, tile.extent, [&](const std::vector<std::int64_t> &v) {
    for (const OverlapStore &store : stores_) {
      const size_t at = halo_position(store.h);
      if (iteration_[static_cast<size_t>(store.h)] <= 0 ||
          v[at] >= tile.lo[at] + overlap_of(store.h))
        continue;
      slot = v;
      slot[at] = line_slot(v[at], overlap_of(store.h));
      const std::int64_t off = store.slots.offset(slot);
      if (off < 0 || store.holds[static_cast<size_t>(off)] != v[at])
        throw std::runtime_error("the overlap along '" + p_.dim_name(store.h) +
                                 "' is not in its store");
      tile.data[static_cast<size_t>(tile.offset(v))] = store.slots.data[static_cast<size_t>(off)];
      return;
    }
  });
}

/// A finished intermediate tile leaves the last U - s positions along each cached halo dim's
/// index in that dim's store, for the next step; but not while a loop inside it will need the
/// previous ones again: a recompute loop with steps to go (the same windows again), or a halo
/// loop with steps to go (the positions its next window starts with).
void Run::keep_overlap(const Dense &tile) {
  std::vector<std::int64_t> slot;
  for (OverlapStore &store : stores_) {
    const size_t at = halo_position(store.h);
    const std::int64_t tail = tile.lo[at] + tile.extent[at] - overlap_of(store.h);
    std::vector<std::pair<size_t, std::int64_t>> next_windows; // (position, next window start)
    const auto h_at = std::find(df_.prefix.begin(), df_.prefix.end(), store.h);
    bool again = false;
    for (auto g = h_at + 1; g != df_.prefix.end(); ++g) {
      const size_t gi = static_cast<size_t>(*g);
      if (iteration_[gi] + 1 >= trips_[gi])
        continue;
      again = again || std::find(p_.consumer_only_dims.begin(), p_.consumer_only_dims.end(), *g) !=
                           p_.consumer_only_dims.end();
      if (std::find(p_.halo_dims.begin(), p_.halo_dims.end(), *g) == p_.halo_dims.end())
        continue;
      const size_t g_at = halo_position(*g);
      next_windows.emplace_back(g_at, tile.lo[g_at] + p_.halo_stride(*g) * tile_[gi]);
    }
    if (again)
      continue;
    for_each_index(tile.lo, tile.extent, [&](const std::vector<std::int64_t> &v) {
      if (v[at] < tail)
        return;
      for (const auto &[g_at, start] : next_windows)
        if (v[g_at] >= start)
          return;
      slot = v;
      slot[at] = line_slot(v[at], overlap_of(store.h));
      const std::int64_t off = store.slots.offset(slot);
      if (off < 0)
        throw std::runtime_error("the overlap store along '" + p_.dim_name(store.h) +
                                 "' is too small for the intermediate's tile");
      store.slots.data[static_cast<size_t>(off)] = tile.data[static_cast<size_t>(tile.offset(v))];
      store.holds[static_cast<size_t>(off)] = v[at];
    });
  }
}

std::vector<int> Run::allocate_if(const std::vector<int> &candidates, int depth) {
  std::vector<int> held;
  for (int t : candidates)
    if (df_.retention[static_cast<size_t>(t)] == depth) {
      allocate(t);
      held.push_back(t);
    }
  return held;
}

/// Allocates the tile of `tensor`: the box spanned by the loops entered so far (exactly the
/// loops above its retention depth) and the full range of every other dim it uses.
void Run::allocate(int tensor) {
  const size_t t = static_cast<size_t>(tensor);
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  // A producer input covers only what the producer computes (a cached halo's new positions).
  const bool producer_input = p_.fused() && p_.tensors[t].owner == 0 && tensor != p_.intermediate;
  for (const IndexExpr &e : p_.tensors[t].access.indices) {
    const auto [first, span] = producer_input ? producer_range(e) : range_of(e);
    lo.push_back(first);
    extent.push_back(span);
  }
  Dense tile = Dense::zeros(lo, extent);
  if (tensor == p_.intermediate)
    fill_overlap(tile);
  // Of that, a producer input loads only what the producer computes from.
  Dense loaded = tile;
  if (producer_input)
    for (size_t i = 0; i < loaded.lo.size(); ++i)
      std::tie(loaded.lo[i], loaded.extent[i]) = computed_range(p_.tensors[t].access.indices[i]);
  const Dense &dram = dram_[t];
  const TensorRole role = p_.tensors[t].role;
  bool load = role == TensorRole::Input;
  if (role == TensorRole::Output) // partial sums come back if any word went out before
    for_each_index(lo, extent, [&](const std::vector<std::int64_t> &v) {
      load = load || written_[t][static_cast<size_t>(dram.offset(v))];
    });
  if (load) {
    copy_region(loaded, dram, tile);
    for_each_index(loaded.lo, loaded.extent,
                   [&](const std::vector<std::int64_t> &) { ++counts_.dram_reads; });
  }
  live_words_ += tile.words();
  live_[t] = std::move(tile);
  is_live_[t] = true;
}

void Run::release(const std::vector<int> &tensors) {
  for (int tensor : tensors) {
    const size_t t = static_cast<size_t>(tensor);
    const Dense &tile = live_[t];
    if (tensor == p_.intermediate)
      keep_overlap(tile);
    if (p_.tensors[t].role == TensorRole::Output) {
      copy_region(tile, tile, dram_[t]);
      for_each_index(tile.lo, tile.extent, [&](const std::vector<std::int64_t> &v) {
        written_[t][static_cast<size_t>(dram_[t].offset(v))] = true;
      });
      counts_.dram_writes += tile.words();
    }
    live_words_ -= tile.words();
    is_live_[t] = false;
  }
}

/// Copies the elements of `region`'s box from `from` into `to` (all three of one tensor).
void Run::copy_region(const Dense &region, const Dense &from, Dense &to) const {
  for_each_index(region.lo, region.extent, [&](const std::vector<std::int64_t> &v) {
    const std::int64_t dst = to.offset(v);
    if (dst < 0)
      throw std::runtime_error("a tile reaches outside its padded tensor");
    to.data[static_cast<size_t>(dst)] = from.data[static_cast<size_t>(from.offset(v))];
  });
}

/// The innermost body of op `op`: computes its current tile from the live tiles.
void Run::compute(int op) {
  const ProblemOp &pop = p_.ops[static_cast<size_t>(op)];
  for (int d : pop.dims)
    if (!p_.is_window[static_cast<size_t>(d)] && iteration_[static_cast<size_t>(d)] < 0)
      throw std::runtime_error("op runs outside the loop of '" + p_.dim_name(d) + "'");
  std::vector<std::int64_t> lo(size_.size(), 0);
  std::vector<std::int64_t> extent(size_.size(), 1);
  einsum_ranges(
      p_, op, [&](const IndexExpr &e) { return op == 0 ? computed_range(e) : range_of(e); }, lo,
      extent);
  std::int64_t macs = 1;
  for (int d : p_.op(op).dims())
    macs *= extent[static_cast<size_t>(d)];
  std::vector<const Dense *> inputs;
  for (int t : pop.tensors)
    if (!is_live_[static_cast<size_t>(t)])
      throw std::runtime_error("tensor '" + p_.tensors[static_cast<size_t>(t)].name +
                               "' has no live tile");
  for (size_t i = 0; i + 1 < pop.tensors.size(); ++i)
    inputs.push_back(&live_[static_cast<size_t>(pop.tensors[i])]);
  const std::string outside = accumulate(p_.op(op).dims(), einsum_accesses(p_, op), lo, extent,
                                         inputs, live_[static_cast<size_t>(pop.tensors.back())]);
  if (!outside.empty())
    throw std::runtime_error("tensor '" + outside + "' accessed outside its live tile");
  counts_.macs[static_cast<size_t>(op)] += macs;
  std::int64_t &peak = counts_.peak_words[static_cast<size_t>(op)];
  peak = std::max(peak, live_words_);
}

double Run::output_error(const Dense &reference) const {
  const Dense &out = dram_[static_cast<size_t>(final_output(p_))];
  double worst = 0.0;
  double scale = 0.0;
  for_each_index(reference.lo, reference.extent, [&](const std::vector<std::int64_t> &v) {
    const double want = reference.data[static_cast<size_t>(reference.offset(v))];
    const double got = out.data[static_cast<size_t>(out.offset(v))];
    worst = std::max(worst, std::abs(got - want));
    scale = std::max(scale, std::abs(want));
  });
  return scale > 0.0 ? worst / scale : worst;
}

} // namespace

Dense Dense::zeros(std::vector<std::int64_t> lo, std::vector<std::int64_t> extent) {
  std::int64_t words = 1;
  for (std::int64_t e : extent)
    words *= e;
  return Dense{std::move(lo), std::move(extent),
               std::vector<double>(static_cast<size_t>(words), 0.0)};
}

std::int64_t Dense::offset(const std::vector<std::int64_t> &coord) const {
  std::int64_t off = 0;
  for (size_t i = 0; i < coord.size(); ++i) {
    const std::int64_t x = coord[i] - lo[i];
    if (x < 0 || x >= extent[i])
      return -1;
    off = off * extent[i] + x;
  }
  return off;
}

TraceSimulator::TraceSimulator(const Problem &problem, std::uint32_t seed)
    : problem_(&problem), inputs_(problem.tensors.size()) {
  std::vector<std::int64_t> sizes;
  for (const Dimension &d : problem.workload->dims)
    sizes.push_back(d.size);
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Dense> real(problem.tensors.size());
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    real[t] = access_box(problem.tensors[t].access, sizes);
    if (problem.tensors[t].role == TensorRole::Input)
      for (double &x : real[t].data)
        x = value(rng);
  }
  inputs_ = real;
  for (size_t o = 0; o < problem.ops.size(); ++o) { // the plain einsums, one after the other
    const ProblemOp &op = problem.ops[o];
    std::vector<const Dense *> ins;
    for (size_t i = 0; i + 1 < op.tensors.size(); ++i)
      ins.push_back(&real[static_cast<size_t>(op.tensors[i])]);
    // A producer read through windows computes what its consumer reads, no more.
    std::vector<std::int64_t> lo(sizes.size(), 0);
    std::vector<std::int64_t> extent = sizes;
    const auto whole = [&](const IndexExpr &e) {
      return index_span(e, [&](int d) { return Range{0, sizes[static_cast<size_t>(d)]}; });
    };
    einsum_ranges(
        problem, static_cast<int>(o),
        [&](const IndexExpr &e) {
          Range range = whole(e);
          for (int h : problem.halo_dims)
            if (o == 0 && e.coefficient(h) > 0)
              range = computed_part(problem, e, h, range, whole(problem.halo_read(h)));
          return range;
        },
        lo, extent);
    accumulate(problem.op(static_cast<int>(o)).dims(),
               einsum_accesses(problem, static_cast<int>(o)), lo, extent, ins,
               real[static_cast<size_t>(op.tensors.back())]);
  }
  reference_ = real[static_cast<size_t>(final_output(problem))];
}

TraceCounts TraceSimulator::run(const Dataflow &dataflow, const Tiling &tiling) const {
  return Run(*problem_, dataflow, tiling, inputs_).execute(reference_);
}

} // namespace dse::trace
