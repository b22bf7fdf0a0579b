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

#include "dse/model/dataflow.hpp"

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

/// The range of `index` when every dim d spans ranges[d] (empty when one of them is).
Range image(const IndexExpr &index, const std::vector<Range> &ranges) {
  for (const IndexTerm &t : index.terms)
    if (ranges[static_cast<size_t>(t.dim)].second <= 0)
      return {index.offset, 0};
  return index_span(index, [&](int d) { return ranges[static_cast<size_t>(d)]; });
}

/// The part of `range` inside [0, size).
Range clipped(Range range, std::int64_t size) {
  const std::int64_t lo = std::max<std::int64_t>(range.first, 0);
  const std::int64_t hi = std::min(range.first + range.second, size);
  return {lo, std::max<std::int64_t>(hi - lo, 0)};
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

/// The normalised dim of the softmax attached to op `o`, -1 without one.
int softmax_dim(const Problem &p, int o) {
  for (int a : p.ops[static_cast<size_t>(o)].attached_ops)
    if (p.workload->ops.at(static_cast<size_t>(a)).kind == OpKind::Softmax)
      return p.workload->ops.at(static_cast<size_t>(a)).over_dim;
  return -1;
}

bool has_attached_softmax(const Problem &p) { return softmax_dim(p, 0) >= 0; }

int final_output(const Problem &p) { return p.ops.back().tensors.back(); }

/// One execution of a schedule: loop state, live tiles, DRAM contents and the counters.
class Run {
public:
  /// `residual`: the last operator's residual at real extents (empty without one).
  Run(const Problem &p, const Dataflow &df, const Tiling &tiling, const std::vector<Dense> &inputs,
      const Dense &residual = {});
  TraceCounts execute(const Dense &reference);
  /// Per workload dim, the range op `o` computes at loop state `at` ({0, 0} for dims it lacks):
  /// the last op its tiles; a producer, along each position it writes through a window, what
  /// its consumer's computation reads there (no padding, no position that no output reads),
  /// and, with `skip_cached`, past the first step of a loop whose halo its link caches, only
  /// the positions that the previous step did not compute.
  std::vector<Range> op_ranges(int o, bool skip_cached, const std::vector<std::int64_t> &at) const;
  const std::vector<std::int64_t> &loop_state() const { return iteration_; }

private:
  void prefix_level(size_t k);
  std::int64_t online_softmax_state_words(int dim) const;
  void subnest_level(int op, size_t j);
  template <class Body> void loop(int dim, Body body);
  /// Lower bound and extent of dim d at loop state `at`: the current tile inside its loop, else
  /// all of it.
  Range dim_range(int d, const std::vector<std::int64_t> &at) const;
  /// The range of an index over the dims' current ranges.
  Range range_of(const IndexExpr &index) const;
  /// What the consumer of link `link` reads of its intermediate at index position j, at loop
  /// state `at` (within the positions its producer writes).
  Range demanded(int link, size_t j, const std::vector<std::int64_t> &at) const;
  /// The position of link `link`'s intermediate's index that halo dim h is in.
  size_t halo_position(int link, int h) const;
  void open_store(int link, int h);
  void close_store(int link, int h);
  void fill_overlap(int link, Dense &tile);
  void keep_overlap(int link, const Dense &tile);
  std::vector<int> allocate_if(const std::vector<int> &candidates, int depth);
  void allocate(int tensor);
  /// The part of producer input `tensor` that its op computes from now.
  Dense loaded_part(int tensor) const;
  void release(const std::vector<int> &tensors);
  void add_held_residual(const Dense &box);
  void copy_region(const Dense &region, const Dense &from, Dense &to) const;
  void compute(int op);
  double output_error(const Dense &reference) const;

  const Problem &p_;
  const Dataflow &df_;
  std::vector<std::int64_t> size_, tile_, trips_;
  std::vector<std::int64_t> iteration_;    // per dim: current iteration of its loop, -1 outside it
  std::vector<Dense> dram_;                // per tensor at its padded extents (intermediate unused)
  std::vector<std::vector<bool>> written_; // per output element: written to DRAM before
  Dense residual_;                   // what the last operator's output starts from (empty: zeros)
  Dense real_residual_;              // the same at its real extents (read from a held input's tile)
  std::vector<bool> residual_added_; // per real output position: its held residual added
  std::vector<Dense> live_;          // per tensor: its tile, while is_live_
  std::vector<bool> is_live_;
  std::int64_t live_words_ = 0;
  TraceCounts counts_;
  /// Per link and cached halo dim, live around the dim's loop: the last `width` positions along
  /// its index of the link's intermediate computed so far (addressed modulo the width, as a line
  /// buffer), and which position each slot holds (-1: none).
  struct OverlapStore {
    int link = -1;
    int h = -1;
    size_t position = 0; // of h's index in the intermediate's access
    std::int64_t width = 0;
    Dense slots;
    std::vector<std::int64_t> holds;
  };
  std::vector<OverlapStore> stores_;
};

Run::Run(const Problem &p, const Dataflow &df, const Tiling &tiling,
         const std::vector<Dense> &inputs, const Dense &residual)
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
  if (!residual.data.empty()) { // in DRAM at the output's padded extents, zeros past the real
    residual_ = dram_[static_cast<size_t>(final_output(p))];
    copy_region(residual, residual, residual_);
    real_residual_ = residual;
    residual_added_.assign(residual.data.size(), false);
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
    if (p_.tensors[static_cast<size_t>(t)].role == TensorRole::Intermediate ||
        k < df_.prefix.size())
      candidates.push_back(t);
  const std::vector<int> held = allocate_if(candidates, static_cast<int>(k));
  if (k == df_.prefix.size()) {
    for (size_t o = 0; o < p_.ops.size(); ++o) // each producer completes before its consumer
      subnest_level(static_cast<int>(o), 0);
  } else {
    const int dim = df_.prefix[k];
    const std::int64_t state = online_softmax_state_words(dim);
    std::vector<int> caching; // the links that cache dim's halo
    for (size_t l = 0; l < df_.cached.size(); ++l)
      if (std::find(df_.cached[l].begin(), df_.cached[l].end(), dim) != df_.cached[l].end())
        caching.push_back(static_cast<int>(l));
    live_words_ += state;
    for (int l : caching)
      open_store(l, dim);
    loop(dim, [&] { prefix_level(k + 1); });
    for (auto l = caching.rbegin(); l != caching.rend(); ++l)
      close_store(*l, dim);
    live_words_ -= state;
  }
  release(held);
}

/// Fused online softmax whose normalised dim is `dim`: max, sum and scale (3 words) for every
/// row of its intermediate that the dim's loop sweeps, live around that loop; 0 otherwise.
std::int64_t Run::online_softmax_state_words(int dim) const {
  std::int64_t words = 0;
  for (const ProblemLink &link : p_.links) {
    if (softmax_dim(p_, link.producer) != dim)
      continue;
    std::int64_t rows = 1;
    for (const IndexExpr &e : p_.tensors[static_cast<size_t>(link.intermediate)].access.indices) {
      if (std::any_of(e.terms.begin(), e.terms.end(),
                      [&](const IndexTerm &t) { return t.dim == dim; }))
        continue;
      rows *= range_of(e).second;
    }
    words += 3 * rows;
  }
  return words;
}

/// Body of sub-nest loop j of op `op` (j = 0: the sub-nest starts; j = its length: innermost).
void Run::subnest_level(int op, size_t j) {
  const std::vector<int> &nest = df_.subnests.at(static_cast<size_t>(op));
  std::vector<int> owned;
  for (int t : p_.ops[static_cast<size_t>(op)].tensors)
    if (p_.tensors[static_cast<size_t>(t)].role != TensorRole::Intermediate &&
        p_.tensors[static_cast<size_t>(t)].owner == op)
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

Range Run::dim_range(int d, const std::vector<std::int64_t> &at) const {
  const size_t i = static_cast<size_t>(d);
  if (at[i] >= 0)
    return {at[i] * tile_[i], tile_[i]};
  return {0, p_.is_window[i] ? size_[i] : tile_[i] * trips_[i]};
}

Range Run::range_of(const IndexExpr &index) const {
  return index_span(index, [&](int d) { return dim_range(d, iteration_); });
}

std::vector<Range> Run::op_ranges(int o, bool skip_cached,
                                  const std::vector<std::int64_t> &at) const {
  std::vector<Range> out(size_.size(), Range{0, 0});
  const std::vector<int> dims = p_.op(o).dims();
  const ProblemOp &op = p_.ops[static_cast<size_t>(o)];
  const TensorAccess &written = p_.op(o).einsum.output;
  const bool producer = static_cast<size_t>(o) < p_.links.size();
  for (size_t k = 0; k < dims.size(); ++k) {
    const IndexExpr &index = op.iteration[k];
    const auto w = std::find_if(written.indices.begin(), written.indices.end(),
                                [&](const IndexExpr &e) { return e.terms[0].dim == dims[k]; });
    Range &range = out[static_cast<size_t>(dims[k])];
    if (!producer || index.is_plain() || w == written.indices.end()) {
      range = index_span(index, [&](int d) { return dim_range(d, at); });
      continue;
    }
    const size_t j = static_cast<size_t>(w - written.indices.begin());
    range = demanded(o, j, at);
    if (!skip_cached)
      continue;
    for (int h : df_.cached[static_cast<size_t>(o)]) {
      if (index.coefficient(h) == 0 || at[static_cast<size_t>(h)] <= 0)
        continue;
      std::vector<std::int64_t> before = at; // the previous step computed up to its end
      --before[static_cast<size_t>(h)];
      const Range done = demanded(o, j, before);
      const std::int64_t from = std::max(range.first, done.first + done.second);
      range = {from, std::max<std::int64_t>(range.first + range.second - from, 0)};
    }
  }
  return out;
}

Range Run::demanded(int link, size_t j, const std::vector<std::int64_t> &at) const {
  const int consumer = link + 1;
  const ProblemOp &cons = p_.ops[static_cast<size_t>(consumer)];
  const auto slot =
      static_cast<size_t>(std::find(cons.tensors.begin(), cons.tensors.end(),
                                    p_.links[static_cast<size_t>(link)].intermediate) -
                          cons.tensors.begin());
  std::vector<Range> ranges = op_ranges(consumer, true, at);
  for (size_t d = 0; d < ranges.size(); ++d)
    ranges[d] = clipped(ranges[d], size_[d]);
  const IndexExpr &read = p_.op(consumer).einsum.inputs[slot].indices[j];
  const int written = p_.op(link).einsum.output.indices[j].terms[0].dim;
  return clipped(image(read, ranges), size_[static_cast<size_t>(written)]);
}

size_t Run::halo_position(int link, int h) const {
  const TensorAccess &inter =
      p_.tensors[static_cast<size_t>(p_.links[static_cast<size_t>(link)].intermediate)].access;
  for (size_t i = 0; i < inter.indices.size(); ++i)
    if (inter.indices[i].coefficient(h) > 0)
      return i;
  throw std::runtime_error("halo dim '" + p_.dim_name(h) + "' indexes no intermediate position");
}

/// Opens the overlap store of link `link` along h before h's loop: the positions consecutive
/// steps share along h's index (as many as the model's overlap, which fill_overlap checks is
/// enough), and along the other indices what the loops inside h and the sub-nests sweep.
void Run::open_store(int link, int h) {
  const TensorAccess &inter =
      p_.tensors[static_cast<size_t>(p_.links[static_cast<size_t>(link)].intermediate)].access;
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  for (const IndexExpr &e : inter.indices) {
    const auto [first, span] = range_of(e);
    lo.push_back(first);
    extent.push_back(span);
  }
  OverlapStore store{link, h, halo_position(link, h), p_.halo_overlap(link, h, df_.cached), {}, {}};
  lo[store.position] = 0;
  extent[store.position] = store.width;
  store.slots = Dense::zeros(lo, extent);
  store.holds.assign(store.slots.data.size(), -1);
  live_words_ += store.slots.words();
  stores_.push_back(std::move(store));
}

void Run::close_store(int link, int h) {
  if (stores_.empty() || stores_.back().h != h || stores_.back().link != link)
    throw std::runtime_error("overlap stores closed out of order");
  live_words_ -= stores_.back().slots.words();
  stores_.pop_back();
}

/// A fresh tile of link `link`'s intermediate: every position that an earlier step of a cached
/// halo loop computed and the consumer reads now comes from that loop's store, the outermost
/// such loop first; the producer computes the rest.
void Run::fill_overlap(int link, Dense &tile) {
  const std::vector<Range> needed = op_ranges(link, false, iteration_);
  const std::vector<Range> computed = op_ranges(link, true, iteration_);
  const TensorAccess &written = p_.op(link).einsum.output;
  std::vector<std::int64_t> slot;
  for_each_index(tile.lo, tile.extent, [&](const std::vector<std::int64_t> &v) {
    for (const OverlapStore &store : stores_) {
      const size_t at = store.position;
      const auto d = static_cast<size_t>(written.indices[at].terms[0].dim);
      if (store.link != link || iteration_[static_cast<size_t>(store.h)] <= 0 ||
          v[at] >= computed[d].first)
        continue;
      if (v[at] < needed[d].first)
        return; // no consumer reads it
      slot = v;
      slot[at] = line_slot(v[at], store.width);
      const std::int64_t off = store.slots.offset(slot);
      if (off < 0 || store.holds[static_cast<size_t>(off)] != v[at])
        throw std::runtime_error("the overlap along '" + p_.dim_name(store.h) +
                                 "' is not in its store");
      tile.data[static_cast<size_t>(tile.offset(v))] = store.slots.data[static_cast<size_t>(off)];
      return;
    }
  });
}

/// A finished tile of link `link`'s intermediate leaves its last positions along each cached
/// halo dim's index (the store's width) in that dim's store, for the next step; but not while a
/// loop inside it will need the previous ones again: a recompute loop with steps to go (the same
/// windows again), or a halo loop with steps to go (the positions its next window starts with).
void Run::keep_overlap(int link, const Dense &tile) {
  const ProblemLink &l = p_.links[static_cast<size_t>(link)];
  std::vector<std::int64_t> slot;
  for (OverlapStore &store : stores_) {
    if (store.link != link)
      continue;
    const size_t at = store.position;
    const std::int64_t tail = tile.lo[at] + tile.extent[at] - store.width;
    std::vector<std::pair<size_t, std::int64_t>> next_windows; // (position, next window start)
    const auto h_at = std::find(df_.prefix.begin(), df_.prefix.end(), store.h);
    bool again = false;
    for (auto g = h_at + 1; g != df_.prefix.end(); ++g) {
      const size_t gi = static_cast<size_t>(*g);
      if (iteration_[gi] + 1 >= trips_[gi])
        continue;
      again = again || std::find(l.recompute_dims.begin(), l.recompute_dims.end(), *g) !=
                           l.recompute_dims.end();
      if (!l.has_halo(*g))
        continue;
      const size_t g_at = halo_position(link, *g);
      next_windows.emplace_back(g_at, tile.lo[g_at] + l.halo_stride(*g) * tile_[gi]);
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
      slot[at] = line_slot(v[at], store.width);
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

Dense Run::loaded_part(int tensor) const {
  const int o = p_.tensors[static_cast<size_t>(tensor)].owner;
  const ProblemOp &op = p_.ops[static_cast<size_t>(o)];
  const auto slot = static_cast<size_t>(std::find(op.tensors.begin(), op.tensors.end(), tensor) -
                                        op.tensors.begin());
  const std::vector<Range> ranges = op_ranges(o, true, iteration_);
  const std::vector<TensorAccess> accesses = einsum_accesses(p_, o);
  Dense part;
  for (const IndexExpr &e : accesses[slot].indices) {
    const auto [first, span] = image(e, ranges);
    part.lo.push_back(first);
    part.extent.push_back(span);
  }
  return part;
}

/// Allocates the tile of `tensor`: the box spanned by the loops entered so far (exactly the
/// loops above its retention depth) and the full range of every other dim it uses.
void Run::allocate(int tensor) {
  const size_t t = static_cast<size_t>(tensor);
  const TensorRole role = p_.tensors[t].role;
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  for (const IndexExpr &e : p_.tensors[t].access.indices) {
    const auto [first, span] = range_of(e);
    lo.push_back(first);
    extent.push_back(span);
  }
  Dense tile = Dense::zeros(lo, extent);
  if (role == TensorRole::Intermediate)
    fill_overlap(p_.tensors[t].owner, tile);
  // Of that, a producer's input loads only what the producer computes from.
  const bool producer_input =
      role == TensorRole::Input && static_cast<size_t>(p_.tensors[t].owner) < p_.links.size();
  const Dense loaded = producer_input ? loaded_part(tensor) : tile;
  const Dense &dram = dram_[t];
  bool load = role == TensorRole::Input;
  if (role == TensorRole::Output) // partial sums come back if any word went out before
    for_each_index(lo, extent, [&](const std::vector<std::int64_t> &v) {
      load = load || written_[t][static_cast<size_t>(dram.offset(v))];
    });
  if (load) {
    copy_region(loaded, dram, tile);
    for_each_index(loaded.lo, loaded.extent,
                   [&](const std::vector<std::int64_t> &) { ++counts_.dram_reads; });
  } else if (role == TensorRole::Output && !residual_.data.empty() && !residual_held(p_, df_)) {
    copy_region(tile, residual_, tile); // a first visit starts from the residual in DRAM
    counts_.dram_reads += tile.words();
  }
  live_words_ += tile.words();
  live_[t] = std::move(tile);
  is_live_[t] = true;
}

/// Where the model holds the residual: each output position of `box` (real extents only)
/// computed for the first time adds the residual from the live tile of the chain's input that
/// it is, which must hold it.
void Run::add_held_residual(const Dense &box) {
  const auto held = static_cast<size_t>(p_.held_residual);
  if (!is_live_[held])
    throw std::runtime_error("the held residual '" + p_.tensors[held].name + "' has no live tile");
  const Dense &input = live_[held];
  Dense &out = live_[static_cast<size_t>(final_output(p_))];
  for_each_index(box.lo, box.extent, [&](const std::vector<std::int64_t> &v) {
    const std::int64_t at = real_residual_.offset(v);
    if (at < 0 || residual_added_[static_cast<size_t>(at)])
      return;
    const std::int64_t from = input.offset(v);
    if (from < 0)
      throw std::runtime_error("the residual is not in the held tile of '" + p_.tensors[held].name +
                               "'");
    out.data[static_cast<size_t>(out.offset(v))] += input.data[static_cast<size_t>(from)];
    residual_added_[static_cast<size_t>(at)] = true;
  });
}

void Run::release(const std::vector<int> &tensors) {
  for (int tensor : tensors) {
    const size_t t = static_cast<size_t>(tensor);
    const Dense &tile = live_[t];
    if (p_.tensors[t].role == TensorRole::Intermediate)
      keep_overlap(p_.tensors[t].owner, tile);
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
  const std::vector<Range> ranges = op_ranges(op, true, iteration_);
  for (int d : p_.op(op).dims())
    std::tie(lo[static_cast<size_t>(d)], extent[static_cast<size_t>(d)]) =
        ranges[static_cast<size_t>(d)];
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
  const std::vector<TensorAccess> accesses = einsum_accesses(p_, op);
  const std::string outside = accumulate(p_.op(op).dims(), accesses, lo, extent, inputs,
                                         live_[static_cast<size_t>(pop.tensors.back())]);
  if (!outside.empty())
    throw std::runtime_error("tensor '" + outside + "' accessed outside its live tile");
  if (op + 1 == static_cast<int>(p_.ops.size()) && !real_residual_.data.empty() &&
      residual_held(p_, df_)) {
    Dense box; // the output positions this step computes
    for (const IndexExpr &e : accesses.back().indices) {
      const auto [first, span] = image(e, ranges);
      box.lo.push_back(first);
      box.extent.push_back(span);
    }
    add_held_residual(box);
  }
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
  if (!problem.op(static_cast<int>(problem.ops.size()) - 1).einsum.residual.empty()) {
    residual_ =
        access_box(problem.tensors[static_cast<size_t>(final_output(problem))].access, sizes);
    for (double &x : residual_.data)
      x = value(rng);
    if (problem.held_residual >= 0) { // the chain's input, read at the output's positions
      const Dense &input = real[static_cast<size_t>(problem.held_residual)];
      for_each_index(residual_.lo, residual_.extent, [&](const std::vector<std::int64_t> &v) {
        const std::int64_t at = input.offset(v);
        if (at < 0)
          throw std::logic_error("the held residual reaches outside the chain's input");
        residual_.data[static_cast<size_t>(residual_.offset(v))] =
            input.data[static_cast<size_t>(at)];
      });
    }
  }
  // The plain einsums, one after the other, each producer computing what its consumer reads.
  Dataflow whole; // no loop entered: every dim spans its whole size
  whole.cached.assign(problem.links.size(), {});
  const Run probe(problem, whole, Tiling{sizes}, real);
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    const ProblemOp &op = problem.ops[o];
    std::vector<const Dense *> ins;
    for (size_t i = 0; i + 1 < op.tensors.size(); ++i)
      ins.push_back(&real[static_cast<size_t>(op.tensors[i])]);
    const std::vector<Range> ranges =
        probe.op_ranges(static_cast<int>(o), false, probe.loop_state());
    std::vector<std::int64_t> lo(sizes.size(), 0);
    std::vector<std::int64_t> extent = sizes;
    for (int d : problem.op(static_cast<int>(o)).dims())
      std::tie(lo[static_cast<size_t>(d)], extent[static_cast<size_t>(d)]) =
          ranges[static_cast<size_t>(d)];
    accumulate(problem.op(static_cast<int>(o)).dims(),
               einsum_accesses(problem, static_cast<int>(o)), lo, extent, ins,
               real[static_cast<size_t>(op.tensors.back())]);
  }
  reference_ = real[static_cast<size_t>(final_output(problem))];
  for (size_t e = 0; e < residual_.data.size(); ++e)
    reference_.data[e] += residual_.data[e];
}

TraceCounts TraceSimulator::run(const Dataflow &dataflow, const Tiling &tiling) const {
  return Run(*problem_, dataflow, tiling, inputs_, residual_).execute(reference_);
}

} // namespace dse::trace
