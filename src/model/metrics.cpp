// Metric derivation: footprints from index extents, traffic from trip counts above retention
// depths, cycles and inner-level traffic from the spatial mapping (docs/DESIGN.md §4.2).
#include "dse/model/metrics.hpp"

#include <algorithm>

#include "dse/support/contains.hpp"

namespace dse {

namespace {

/// Extent of dimension d: the tile T_d when its loop is at or above the retention depth (or it
/// is a window dim, always whole), else the padded span T_d * t_d.
Monomial extent(const Problem &p, int dim, bool spans_all_trips) {
  if (!spans_all_trips || p.is_window[static_cast<size_t>(dim)])
    return Monomial::of(dim, Atom::Tile);
  return Monomial::of(dim, Atom::Tile) * Monomial::of(dim, Atom::Trips);
}

/// extent - 1, kept as a single non-negative atom so that no negative term appears.
Posynomial extent_minus_one(const Problem &p, int dim, bool spans_all_trips) {
  if (!spans_all_trips || p.is_window[static_cast<size_t>(dim)])
    return Posynomial::atom(dim, Atom::TileMinus1);
  return Posynomial::atom(dim, Atom::SpanMinus1);
}

/// Halo dims of link `link` along which a quantity of its producer is counted in closed form
/// over all of h's positions (docs/DESIGN.md §4.1): those whose loop encloses it (summed over the
/// loop's steps, its trips not counted again), with the positions each later step computes again
/// (`recomputed`, per dim: 0 where cached), and those its tile spans `whole`.
struct HaloSums {
  int link = -1;
  std::vector<int> dims;
  std::vector<std::int64_t> recomputed;
  std::vector<int> whole;
};

/// The halo dims of link `link`, each with the overlap its producer recomputes under `cached`.
HaloSums link_sums(const Problem &p, int link, const std::vector<std::vector<int>> &cached) {
  HaloSums out{link, {}, {}, {}};
  for (int h : p.links[static_cast<size_t>(link)].halo_dims) {
    out.dims.push_back(h);
    const bool is_cached = contains(cached.at(static_cast<size_t>(link)), h);
    out.recomputed.push_back(is_cached ? 0 : p.halo_overlap(link, h, cached));
  }
  return out;
}

/// An affine index's extent over the positions the producer computes along halo dim h, summed
/// over the steps of h's loop. The producer computes the E positions that the consumer's
/// outputs read (ProblemLink::halo_range, padding excluded), E = s X + K with the size X
/// symbolic (Problem::halo_positions_offset): once each when h is cached or
/// spanned whole; when recomputed, the overlap of consecutive windows again per later step,
/// E + (t_h - 1)(U - s) (Problem::halo_overlap). An index c * (h's read) + own (`r` of `a+u+r`,
/// the producer's own window) spans c (n - 1) + 1 + own over n positions: it adds 1 - c + own
/// per step.
Posynomial summed_window(const Problem &p, const IndexExpr &index, int h,
                         const std::vector<int> &spanning, const HaloSums &sums) {
  const ProblemLink &link = p.links[static_cast<size_t>(sums.link)];
  const IndexExpr &read = link.halo_read(h);
  const bool whole = contains(sums.whole, h);
  const Posynomial steps = whole ? Posynomial::constant(1) : Posynomial::atom(h, Atom::Trips);
  // E = s X + K: the extent X symbolic, so that the candidates hold for every size.
  Posynomial positions =
      Posynomial::atom(h, Atom::Size) * static_cast<double>(link.halo_stride(h)) +
      Posynomial::constant(static_cast<double>(p.halo_positions_offset(sums.link, h)));
  const auto at = std::find(sums.dims.begin(), sums.dims.end(), h) - sums.dims.begin();
  if (!whole)
    positions += (steps - Posynomial::constant(1)) *
                 static_cast<double>(sums.recomputed[static_cast<size_t>(at)]);
  const double c =
      static_cast<double>(index.coefficient(h)) / static_cast<double>(link.halo_stride(h));
  Posynomial own = Posynomial::constant(1.0 - c);
  for (const IndexTerm &t : index.terms)
    if (read.coefficient(t.dim) == 0)
      own += extent_minus_one(p, t.dim, contains(spanning, t.dim)) * static_cast<double>(t.coef);
  return positions * c + own * steps;
}

/// The halo dim of `sums` in `index`, or -1.
int summed_dim(const IndexExpr &index, const HaloSums &sums) {
  for (const IndexTerm &t : index.terms)
    if (contains(sums.dims, t.dim))
      return t.dim;
  return -1;
}

/// Words of a tile of `access` when the dims in `spanning` span all their trips; an index with
/// a halo dim of `summed` takes its summed window.
Posynomial footprint(const Problem &p, const TensorAccess &access, const std::vector<int> &spanning,
                     const HaloSums &summed = {}) {
  // The plain indices' extents form one monomial; only affine indices make sums.
  Monomial plain;
  Posynomial spans = Posynomial::constant(1);
  for (const IndexExpr &e : access.indices) {
    if (const int h = summed_dim(e, summed); h >= 0) {
      spans = spans * summed_window(p, e, h, spanning, summed);
      continue;
    }
    if (e.is_plain()) {
      plain = plain * extent(p, e.terms[0].dim, contains(spanning, e.terms[0].dim));
      continue;
    }
    // An affine index sum c_i*d_i spans 1 + sum c_i*(ext_i - 1).
    Posynomial span = Posynomial::constant(1);
    for (const IndexTerm &t : e.terms)
      span += extent_minus_one(p, t.dim, contains(spanning, t.dim)) * static_cast<double>(t.coef);
    spans = spans * span;
  }
  return spans * Posynomial::monomial(plain);
}

Posynomial trips_of(const std::vector<int> &loops) {
  Monomial out;
  for (int d : loops)
    out = out * Monomial::of(d, Atom::Trips);
  return Posynomial::monomial(out);
}

bool is_intermediate(const Problem &p, int tensor) {
  return p.tensors[static_cast<size_t>(tensor)].role == TensorRole::Intermediate;
}

/// Path of the tensor's owner, or the prefix for an intermediate.
std::vector<int> tensor_path(const Problem &p, const Dataflow &df, int tensor) {
  return is_intermediate(p, tensor) ? df.prefix
                                    : df.path(p.tensors[static_cast<size_t>(tensor)].owner);
}

/// A tile's words at its depth; with `summed`, summed over those halo dims' positions.
Posynomial footprint_at(const Problem &p, const Dataflow &df, int tensor,
                        const HaloSums &summed = {}) {
  const std::vector<int> path = tensor_path(p, df, tensor);
  const size_t depth = static_cast<size_t>(df.retention[static_cast<size_t>(tensor)]);
  std::vector<int> below(path.begin() + static_cast<std::ptrdiff_t>(std::min(depth, path.size())),
                         path.end());
  if (is_intermediate(p, tensor)) // dims of the sub-nests are below the prefix too
    for (int d : p.dims)
      if (!contains(df.prefix, d))
        below.push_back(d);
  return footprint(p, p.tensors[static_cast<size_t>(tensor)].access, below, summed);
}

/// The halo dims a producer input uses, summed over: its tiles cover only the positions the
/// producer computes (docs/DESIGN.md §4.1), per step of the loops above it, or whole below.
HaloSums halo_sums(const Problem &p, const Dataflow &df, int tensor) {
  const ProblemTensor &t = p.tensors[static_cast<size_t>(tensor)];
  if (is_intermediate(p, tensor) || static_cast<size_t>(t.owner) >= p.links.size())
    return {};
  const HaloSums link = link_sums(p, t.owner, df.cached);
  HaloSums out{t.owner, {}, {}, {}};
  const int depth = df.retention[static_cast<size_t>(tensor)];
  for (size_t i = 0; i < link.dims.size(); ++i) {
    const int h = link.dims[i];
    if (!t.access.uses(h))
      continue;
    out.dims.push_back(h);
    out.recomputed.push_back(link.recomputed[i]);
    const auto at = std::find(df.prefix.begin(), df.prefix.end(), h);
    if (at - df.prefix.begin() >= depth)
      out.whole.push_back(h);
  }
  return out;
}

/// How many times a tile is (re)loaded: the trips of every loop at or above its depth, but for
/// the summed halo loops, whose steps its summed footprint already covers.
Posynomial tile_entries(const Problem &p, const Dataflow &df, int tensor, const HaloSums &summed) {
  const std::vector<int> path = tensor_path(p, df, tensor);
  const size_t depth = static_cast<size_t>(df.retention[static_cast<size_t>(tensor)]);
  std::vector<int> loops;
  for (size_t i = 0; i < depth && i < path.size(); ++i)
    if (!contains(summed.dims, path[i]))
      loops.push_back(path[i]);
  return trips_of(loops);
}

/// The whole padded tensor: every dim spanning all its trips.
Posynomial padded_size(const Problem &p, const TensorAccess &access) {
  return footprint(p, access, p.dims);
}

bool spills_partial_sums(const Problem &p, const Dataflow &df, int tensor) {
  const std::vector<int> path = tensor_path(p, df, tensor);
  const TensorAccess &access = p.tensors[static_cast<size_t>(tensor)].access;
  const int depth = df.retention[static_cast<size_t>(tensor)];
  for (int i = 0; i < depth; ++i)
    if (!access.uses(path[static_cast<size_t>(i)]))
      return true;
  return false;
}

/// Buffer words of a tile of `footprint` words, doubled for streamed tiles when double buffering
/// is on.
Posynomial buffered(const Dataflow &df, int tensor, const Posynomial &footprint,
                    bool double_buffering) {
  const bool streamed = df.retention[static_cast<size_t>(tensor)] > 0;
  return double_buffering && streamed ? footprint * 2.0 : footprint;
}

/// The softmax attached to operator `op`, if any.
const Operator *attached_softmax(const Problem &problem, int op) {
  for (int a : problem.ops[static_cast<size_t>(op)].attached_ops)
    if (problem.workload->ops.at(static_cast<size_t>(a)).kind == OpKind::Softmax)
      return &problem.workload->ops.at(static_cast<size_t>(a));
  return nullptr;
}

/// The running max, sum and last scale of online softmax `softmax` on `intermediate`, when its
/// normalised dim is a prefix loop (zero otherwise).
Posynomial running_state_words(const Problem &problem, const Dataflow &dataflow,
                               const Operator &softmax, int intermediate) {
  const auto over = std::find(dataflow.prefix.begin(), dataflow.prefix.end(), softmax.over_dim);
  if (over == dataflow.prefix.end())
    return {};
  // Allocated just outside the normalised dim's loop: every dim looped inside it spans all trips.
  std::vector<int> spanning;
  for (int d : problem.dims)
    if (std::find(dataflow.prefix.begin(), over, d) == over)
      spanning.push_back(d);
  TensorAccess rows = problem.tensors[static_cast<size_t>(intermediate)].access;
  std::erase_if(rows.indices, [&](const IndexExpr &e) {
    return std::any_of(e.terms.begin(), e.terms.end(),
                       [&](const IndexTerm &t) { return t.dim == softmax.over_dim; });
  });
  return footprint(problem, rows, spanning) * 3.0;
}

/// Link `link`'s overlap store along cached halo dim h: the overlap of consecutive windows
/// (Problem::halo_overlap positions along h's index) for every position the loops inside h and
/// the sub-nests sweep, kept around h's loop.
Posynomial overlap_words(const Problem &problem, const Dataflow &dataflow, int link, int h) {
  const TensorAccess &inter =
      problem.tensors[static_cast<size_t>(problem.links[static_cast<size_t>(link)].intermediate)]
          .access;
  // Live around h's loop: the loops inside it and the sub-nests span all their trips.
  const auto at = std::find(dataflow.prefix.begin(), dataflow.prefix.end(), h);
  std::vector<int> spanning(at + 1, dataflow.prefix.end());
  for (int d : problem.dims)
    if (!contains(dataflow.prefix, d))
      spanning.push_back(d);
  TensorAccess across = inter;
  std::erase_if(across.indices, [&](const IndexExpr &e) {
    return std::any_of(e.terms.begin(), e.terms.end(),
                       [&](const IndexTerm &t) { return t.dim == h; });
  });
  return footprint(problem, across, spanning) *
         static_cast<double>(problem.halo_overlap(link, h, dataflow.cached));
}

} // namespace

Posynomial softmax_pass_words(const Problem &problem) {
  if (problem.fused() || attached_softmax(problem, 0) == nullptr)
    return {};
  return padded_size(problem, problem.ops[0].accesses.back());
}

Posynomial softmax_state_words(const Problem &problem, const Dataflow &dataflow) {
  Posynomial out;
  for (const ProblemLink &link : problem.links)
    if (const Operator *softmax = attached_softmax(problem, link.producer))
      out += running_state_words(problem, dataflow, *softmax, link.intermediate);
  return out;
}

Posynomial overlap_store_words(const Problem &problem, const Dataflow &dataflow) {
  Posynomial out;
  for (size_t l = 0; l < dataflow.cached.size(); ++l)
    for (int h : dataflow.cached[l])
      out += overlap_words(problem, dataflow, static_cast<int>(l), h);
  return out;
}
std::vector<Posynomial> LocalMetrics::as_vector() const {
  return {dram_reads, dram_writes, own_buffer, other_buffer};
}

std::vector<Posynomial> DataflowMetrics::as_vector() const {
  std::vector<Posynomial> out{dram_reads, dram_writes};
  out.insert(out.end(), buffer_words.begin(), buffer_words.end());
  return out;
}

TensorTraffic tensor_traffic(const Problem &problem, const Dataflow &dataflow, int tensor) {
  TensorTraffic out;
  out.footprint = footprint_at(problem, dataflow, tensor);
  const ProblemTensor &t = problem.tensors[static_cast<size_t>(tensor)];
  if (t.role == TensorRole::Intermediate)
    return out;
  const HaloSums summed = halo_sums(problem, dataflow, tensor);
  const Posynomial moved =
      (summed.dims.empty() ? out.footprint : footprint_at(problem, dataflow, tensor, summed)) *
      tile_entries(problem, dataflow, tensor, summed);
  if (t.role == TensorRole::Input) {
    out.reads = moved;
    return out;
  }
  out.writes = moved;
  if (spills_partial_sums(problem, dataflow, tensor)) // the first write of each word needs no read
    out.reads = moved - padded_size(problem, t.access);
  return out;
}

Posynomial residual_reads(const Problem &problem, const Dataflow &dataflow, int op) {
  if (problem.op(op).einsum.residual.empty() ||
      (op + 1 == static_cast<int>(problem.ops.size()) && residual_held(problem, dataflow)))
    return {};
  // Each output element's first visit starts from the residual instead of zero (later visits
  // read back partial sums as without one): the padded output once.
  return padded_size(problem, problem.ops[static_cast<size_t>(op)].accesses.back());
}

LocalMetrics local_metrics(const Problem &problem, const Dataflow &dataflow, int op,
                           bool double_buffering) {
  LocalMetrics out;
  const int prefix_len = static_cast<int>(dataflow.prefix.size());
  for (int t : problem.ops[static_cast<size_t>(op)].tensors) {
    if (is_intermediate(problem, t) || problem.tensors[static_cast<size_t>(t)].owner != op)
      continue;
    const TensorTraffic traffic = tensor_traffic(problem, dataflow, t);
    out.dram_reads += traffic.reads;
    out.dram_writes += traffic.writes;
    const Posynomial words = buffered(dataflow, t, traffic.footprint, double_buffering);
    out.own_buffer += words;
    if (problem.fused() && dataflow.retention[static_cast<size_t>(t)] < prefix_len)
      out.other_buffer += words;
  }
  // A residual that may be the chain's input held on chip counts with that input's owner, whose
  // retention decides it: each operator's local metrics stay its own plan's.
  const int last = static_cast<int>(problem.ops.size()) - 1;
  if (problem.held_residual < 0)
    out.dram_reads += residual_reads(problem, dataflow, op);
  else if (op == problem.tensors[static_cast<size_t>(problem.held_residual)].owner)
    out.dram_reads += residual_reads(problem, dataflow, last);
  return out;
}

DataflowMetrics dataflow_metrics(const Problem &problem, const Dataflow &dataflow,
                                 bool double_buffering) {
  std::vector<LocalMetrics> locals;
  for (size_t o = 0; o < problem.ops.size(); ++o)
    locals.push_back(local_metrics(problem, dataflow, static_cast<int>(o), double_buffering));
  std::vector<const LocalMetrics *> parts;
  for (const LocalMetrics &local : locals)
    parts.push_back(&local);
  return combine_local_metrics(problem, parts,
                               shared_buffer_words(problem, dataflow, double_buffering));
}

Posynomial shared_buffer_words(const Problem &problem, const Dataflow &dataflow,
                               bool double_buffering) {
  if (!problem.fused())
    return {};
  // Every intermediate's tile lies in the prefix: live while each operator runs.
  Posynomial shared =
      softmax_state_words(problem, dataflow) + overlap_store_words(problem, dataflow);
  for (const ProblemLink &link : problem.links)
    shared += buffered(dataflow, link.intermediate,
                       footprint_at(problem, dataflow, link.intermediate), double_buffering);
  return shared;
}

DataflowMetrics combine_local_metrics(const Problem &problem,
                                      const std::vector<const LocalMetrics *> &locals,
                                      const Posynomial &shared) {
  DataflowMetrics out;
  out.buffer_words.resize(problem.ops.size());
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    const LocalMetrics &local = *locals.at(o);
    out.dram_reads += local.dram_reads;
    out.dram_writes += local.dram_writes;
    for (size_t other = 0; other < problem.ops.size(); ++other)
      out.buffer_words[other] += other == o ? local.own_buffer : local.other_buffer;
  }
  if (problem.fused())
    for (Posynomial &bs : out.buffer_words)
      bs += shared;
  const Posynomial pass = softmax_pass_words(problem);
  out.dram_reads += pass;
  out.dram_writes += pass;
  return out;
}

namespace {

Posynomial ceil_on_array(int dim, bool rows) {
  return Posynomial::atom(dim, rows ? Atom::CeilRows : Atom::CeilCols);
}

/// How often an operand is streamed through the array per outer tile: once per array-sized
/// chunk of each spatial dimension that does not index it.
Posynomial array_passes(const TensorAccess &access, const SpatialMapping &s) {
  Posynomial out = Posynomial::constant(1);
  if (s.row_dim >= 0 && !access.uses(s.row_dim))
    out = out * ceil_on_array(s.row_dim, true);
  if (s.col_dim >= 0 && !access.uses(s.col_dim))
    out = out * ceil_on_array(s.col_dim, false);
  return out;
}

bool misses_spatial_dim(const TensorAccess &access, const SpatialMapping &s) {
  return (s.row_dim >= 0 && !access.uses(s.row_dim)) || (s.col_dim >= 0 && !access.uses(s.col_dim));
}

/// Trips of the op's loops that `access` steps through, the recompute loops' included: every
/// tiled dim but the summed halo dims the access uses (its summed footprint covers their steps).
Posynomial enclosing_trips(const ProblemOp &op, const TensorAccess &access, const HaloSums &summed,
                           const Posynomial &recompute) {
  std::vector<int> loops;
  for (int d : op.tiled_dims)
    if (!contains(summed.dims, d) || !access.uses(d))
      loops.push_back(d);
  return trips_of(loops) * recompute;
}

/// Elements of the op's output produced over the whole run (recompute and halos included): a
/// tile per trip of every loop indexing it.
Posynomial produced_elements(const Problem &p, const ProblemOp &op, const Posynomial &recompute,
                             const HaloSums &summed) {
  const TensorAccess &out = op.accesses.back();
  std::vector<int> loops;
  for (int d : op.tiled_dims)
    if (out.uses(d) && !contains(summed.dims, d))
      loops.push_back(d);
  return footprint(p, out, {}, summed) * trips_of(loops) * recompute;
}

/// Per-tile range of one of an operator's einsum dims (ProblemOp::iteration): its tile, or the
/// array's share of it when `spatial` puts it across the array, or for a producer read through
/// a window the window the consumer's tile spans.
Posynomial iteration_extent(const Problem &p, const IndexExpr &index, const SpatialMapping *s,
                            const HaloSums &summed) {
  if (const int h = summed_dim(index, summed); h >= 0)
    return summed_window(p, index, h, {}, summed);
  if (!index.is_plain()) {
    Posynomial span = Posynomial::constant(1);
    for (const IndexTerm &t : index.terms)
      span += extent_minus_one(p, t.dim, false) * static_cast<double>(t.coef);
    return span;
  }
  const int d = index.terms[0].dim;
  if (s != nullptr && (d == s->row_dim || d == s->col_dim))
    return ceil_on_array(d, d == s->row_dim);
  return Posynomial::atom(d, Atom::Tile);
}

Posynomial attached_vector_ops(const Problem &p, int o, const Posynomial &recompute,
                               const HaloSums &summed) {
  const ProblemOp &op = p.ops[static_cast<size_t>(o)];
  Posynomial out;
  for (int a : op.attached_ops) {
    const Operator &attached = p.workload->ops.at(static_cast<size_t>(a));
    out += produced_elements(p, op, recompute, summed) * attached.ops_per_element;
    // Online softmax rescales the consumer's running output once per tile of the normalised dim.
    if (attached.kind == OpKind::Softmax && static_cast<size_t>(o) < p.links.size())
      out += padded_size(p, p.ops[static_cast<size_t>(o) + 1].accesses.back()) *
             Posynomial::atom(attached.over_dim, Atom::Trips);
  }
  return out;
}

} // namespace

ComputeMetrics compute_metrics(const Problem &problem, const std::vector<int> &recompute_dims,
                               const std::vector<std::vector<int>> &cached_dims,
                               const std::vector<SpatialMapping> &spatial) {
  ComputeMetrics out;
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    const ProblemOp &op = problem.ops[o];
    const SpatialMapping &s = spatial.at(o);
    const bool producer = o < problem.links.size();
    const Posynomial recompute =
        trips_of(op_recompute_dims(problem, recompute_dims, static_cast<int>(o)));
    // A producer computes only the positions its consumer reads, per halo loop's step.
    const HaloSums summed =
        producer ? link_sums(problem, static_cast<int>(o), cached_dims) : HaloSums{};
    const Posynomial enclosing =
        enclosing_trips(op, TensorAccess{"", op.iteration}, summed, recompute);
    Posynomial per_tile_macs = Posynomial::constant(1);
    Posynomial per_tile_cycles = Posynomial::constant(1);
    for (const IndexExpr &index : op.iteration) {
      per_tile_macs = per_tile_macs * iteration_extent(problem, index, nullptr, summed);
      per_tile_cycles = per_tile_cycles * iteration_extent(problem, index, &s, summed);
    }
    out.macs.push_back(per_tile_macs * enclosing);
    out.cycles.push_back(per_tile_cycles * enclosing);
    for (size_t i = 0; i < op.tensors.size(); ++i) {
      const TensorAccess &access = op.accesses[i];
      const Posynomial words = footprint(problem, access, {}, summed) * array_passes(access, s) *
                               enclosing_trips(op, access, summed, recompute);
      const bool is_output = i + 1 == op.tensors.size();
      if (!is_output) {
        out.gb_reads += words;
        continue;
      }
      out.gb_writes += words;
      if (misses_spatial_dim(access, s)) // spatial reduction: partial sums go back and forth
        out.gb_reads += words;
    }
    out.vector_ops += attached_vector_ops(problem, static_cast<int>(o), recompute, summed);
  }
  return out;
}

} // namespace dse
