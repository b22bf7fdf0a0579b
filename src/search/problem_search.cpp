// The matrix search: Q (candidates x basis functions) times B (basis functions x tilings) in
// column blocks, spread over cores with TBB, each block folded into a thread-local Pareto front.
// Dataflow metrics (DRAM traffic, buffer words) and compute metrics (MACs, cycles, GB<->PE
// traffic) are separate products: the first depends on the dataflow only, the second on the
// recompute loops and spatial mapping only, so each is computed once and combined per mapping.
// Tilings are visited as a tree of boxes (the leading dimensions' tiles fixed, the others free):
// a box whose least objectives the front rejects for a dataflow is never evaluated for it
// (docs/DESIGN.md §4.3, "Boxes of tilings").
#include "dse/search/problem_search.hpp"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <chrono>
#include <functional>
#include <limits>
#include <map>
#include <mutex>
#include <numeric>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>
#include <tuple>

#include "dse/model/mapping_evaluation.hpp"
#include "dse/search/tiling_space.hpp"

namespace dse {

Candidate candidate_of(const CandidateSpace &space, std::uint64_t id) {
  const std::uint64_t s = id % space.spatial.size();
  const std::uint64_t d = id / space.spatial.size();
  return {space.dataflows.at(d), space.spatial.at(s)};
}

namespace {

constexpr int kComputeMetrics = 5; // macs, cycles, gb reads, gb writes, vector ops

/// A task arena of the requested number of threads (every core for 0).
tbb::task_arena search_arena(const SearchOptions &options) {
  return tbb::task_arena(options.threads > 0 ? options.threads : tbb::task_arena::automatic);
}

std::shared_ptr<const CandidateSpace> candidate_space(const Problem &problem, const Hardware &hw,
                                                      const SearchOptions &options) {
  const bool db = hw.global_buffer().double_buffering;
  std::shared_ptr<const CandidateSpace> space;
  search_arena(options).execute([&] {
    space = options.cache ? options.cache->get(problem, db, options.pruning, options.recompute)
                          : std::make_shared<const CandidateSpace>(build_candidate_space(
                                problem, db, options.pruning, options.recompute));
  });
  return space;
}

/// Compute metrics per (recompute group, spatial combination), index g * |spatial| + s.
std::vector<ComputeMetrics> group_compute_metrics(const Problem &problem,
                                                  const CandidateSpace &space) {
  std::vector<ComputeMetrics> out;
  for (const RecomputeGroup &g : space.groups)
    for (const auto &spatial : space.spatial)
      out.push_back(compute_metrics(problem, g.recompute_dims, spatial));
  return out;
}

std::vector<Posynomial> compute_rows(const ComputeMetrics &cm) {
  Posynomial macs;
  Posynomial cycles;
  for (size_t o = 0; o < cm.macs.size(); ++o) {
    macs += cm.macs[o];
    cycles += cm.cycles[o];
  }
  return {macs, cycles, cm.gb_reads, cm.gb_writes, cm.vector_ops};
}

/// Basis functions (monomials) used by any row, and each one's factors in tiling-space terms.
struct Basis {
  std::map<Monomial, Eigen::Index> column;
  struct Factor {
    int dim_pos;
    int atom;
    int power;
  };
  std::vector<std::vector<Factor>> factors;

  void add(const Posynomial &p) {
    for (const auto &[m, c] : p.terms())
      column.emplace(m, 0);
  }
  void finish(const TilingSpace &tilings) {
    std::map<int, int> pos;
    for (size_t i = 0; i < tilings.dims().size(); ++i)
      pos[tilings.dims()[i]] = static_cast<int>(i);
    Eigen::Index next = 0;
    for (auto &[m, col] : column) {
      col = next++;
      std::vector<Factor> fs;
      for (const dse::Factor &f : m.factors())
        fs.push_back({pos.at(f.dim()), static_cast<int>(f.atom()), f.power});
      factors.push_back(std::move(fs));
    }
  }
  void add_triplets(std::vector<Eigen::Triplet<double, Eigen::Index>> &out, Eigen::Index row,
                    const Posynomial &p) const {
    for (const auto &[m, c] : p.terms())
      out.emplace_back(row, column.at(m), c);
  }
};

/// Q matrices are sparse (a row uses a few of the basis functions); B and the products are
/// row-major so that each non-zero of Q is one contiguous multiply-add over a block of tilings.
using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor, Eigen::Index>;
using DenseRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A Q matrix split by the sign of its entries (Q = positive - negative), for bounds over boxes.
struct SignedRows {
  SparseRows positive, negative;
};

SignedRows split_by_sign(const SparseRows &q) {
  SignedRows out{q, q};
  out.positive.prune([](Eigen::Index, Eigen::Index, double v) { return v > 0; });
  out.negative.prune([](Eigen::Index, Eigen::Index, double v) { return v < 0; });
  out.negative *= -1.0;
  return out;
}

/// Everything the block evaluation reads, built once per search.
struct Prepared {
  const CandidateSpace *space = nullptr;
  Eigen::Index dataflows = 0, spatial = 0, groups = 0, ops = 0;
  Basis basis;
  SparseRows q_dataflow; // rows: metric * dataflows + d (reads, writes, buffer per op)
  SparseRows q_compute;  // rows: metric * (groups * spatial) + g * spatial + s
  SignedRows q_dataflow_signed, q_compute_signed;
  std::vector<std::vector<AtomValues>> atoms; // per tiling-space dim, per menu entry
  // Per basis function j and tiling-space dim i (index j * dims + i): the least and greatest,
  // over dim i's menu, of the product of j's factors in dim i (1 if it has none).
  std::vector<double> least_part, greatest_part;
  // span[k]: the tilings of a box whose first k tiling-space dims are fixed (span[0]: all).
  std::vector<std::uint64_t> span;
  size_t leaf_depth = 0;     // boxes this deep are evaluated column by column
  size_t parallel_depth = 0; // boxes this deep are the units shared between threads
  bool prune_boxes = true;
  std::vector<int> group_of; // per dataflow
  CostWeights weights;
  double capacity_words = 0;
};

/// The product of basis function j's factors in tiling-space dim i at menu entry e of that dim.
double basis_part(const Prepared &p, size_t j, size_t i, size_t e) {
  double v = 1.0;
  for (const Basis::Factor &f : p.basis.factors[j])
    if (static_cast<size_t>(f.dim_pos) == i)
      for (int k = 0; k < f.power; ++k)
        v *= p.atoms[i][e][static_cast<size_t>(f.atom)];
  return v;
}

/// Fills p.least_part and p.greatest_part. The dims of a basis function vary independently, so
/// over a box its least value is the product of its fixed dims' parts and its free dims' least
/// parts: the exact least of every basis function, not only of every atom.
void bound_basis_parts(Prepared &p) {
  const size_t dims = p.atoms.size();
  p.least_part.assign(p.basis.factors.size() * dims, 1.0);
  p.greatest_part.assign(p.basis.factors.size() * dims, 1.0);
  for (size_t j = 0; j < p.basis.factors.size(); ++j)
    for (const Basis::Factor &f : p.basis.factors[j]) {
      const auto i = static_cast<size_t>(f.dim_pos);
      double least = std::numeric_limits<double>::infinity(), greatest = 0;
      for (size_t e = 0; e < p.atoms[i].size(); ++e) {
        const double v = basis_part(p, j, i, e);
        least = std::min(least, v);
        greatest = std::max(greatest, v);
      }
      p.least_part[j * dims + i] = least;
      p.greatest_part[j * dims + i] = greatest;
    }
}

Prepared prepare(const Problem &problem, const Hardware &hw, const CandidateSpace &space,
                 const TilingSpace &tilings, const SearchOptions &options) {
  Prepared p;
  p.space = &space;
  p.dataflows = static_cast<Eigen::Index>(space.dataflows.size());
  p.spatial = static_cast<Eigen::Index>(space.spatial.size());
  p.groups = static_cast<Eigen::Index>(space.groups.size());
  p.ops = static_cast<Eigen::Index>(problem.ops.size());
  const std::vector<ComputeMetrics> compute = group_compute_metrics(problem, space);
  for (const DataflowMetrics &m : space.metrics)
    for (const Posynomial &row : m.as_vector())
      p.basis.add(row);
  for (const ComputeMetrics &cm : compute)
    for (const Posynomial &row : compute_rows(cm))
      p.basis.add(row);
  p.basis.finish(tilings);

  const auto columns = static_cast<Eigen::Index>(p.basis.factors.size());
  std::vector<Eigen::Triplet<double, Eigen::Index>> entries;
  for (Eigen::Index d = 0; d < p.dataflows; ++d) {
    const std::vector<Posynomial> rows = space.metrics[static_cast<size_t>(d)].as_vector();
    for (Eigen::Index k = 0; k < static_cast<Eigen::Index>(rows.size()); ++k)
      p.basis.add_triplets(entries, k * p.dataflows + d, rows[static_cast<size_t>(k)]);
  }
  p.q_dataflow.resize((2 + p.ops) * p.dataflows, columns);
  p.q_dataflow.setFromTriplets(entries.begin(), entries.end());
  entries.clear();
  const Eigen::Index gs = p.groups * p.spatial;
  for (Eigen::Index i = 0; i < gs; ++i) {
    const std::vector<Posynomial> rows = compute_rows(compute[static_cast<size_t>(i)]);
    for (Eigen::Index k = 0; k < kComputeMetrics; ++k)
      p.basis.add_triplets(entries, k * gs + i, rows[static_cast<size_t>(k)]);
  }
  p.q_compute.resize(kComputeMetrics * gs, columns);
  p.q_compute.setFromTriplets(entries.begin(), entries.end());

  p.q_dataflow_signed = split_by_sign(p.q_dataflow);
  p.q_compute_signed = split_by_sign(p.q_compute);

  for (size_t i = 0; i < tilings.dims().size(); ++i) {
    const std::int64_t size = tilings.sizes()[static_cast<size_t>(tilings.dims()[i])];
    std::vector<AtomValues> values;
    for (std::int64_t tile : tilings.menu(i))
      values.push_back(atom_values(size, tile, hw.effective_rows(), hw.effective_cols()));
    p.atoms.push_back(std::move(values));
  }
  bound_basis_parts(p);
  p.group_of.resize(space.dataflows.size());
  for (size_t g = 0; g < space.groups.size(); ++g)
    for (size_t i = 0; i < space.groups[g].count; ++i)
      p.group_of[space.groups[g].first + i] = static_cast<int>(g);
  p.weights = cost_weights(hw, options.latency_model);
  p.capacity_words = static_cast<double>(hw.gb_capacity_words());
  return p;
}

struct Worker {
  explicit Worker(const std::vector<Objective> &objectives) : front(objectives) {}
  ParetoFront front;
  double min_buffer_words = std::numeric_limits<double>::infinity();
  std::uint64_t feasible = 0;
  std::uint64_t objectives_computed = 0;
  std::uint64_t boxes = 0;
  std::uint64_t columns = 0;
  double matrix_flops = 0;
  DenseRows b, m_dataflow, m_compute;
  std::vector<int> menu_index;
  struct Bound {
    double latency_cycles; // smallest compute-side latency of the spatial combinations
    double energy_pj;      // smallest compute-side energy of the spatial combinations
  };
  // Per column and recompute group (index c * groups + g), made when a dataflow first needs it:
  // the compute-side bound, then the spatial combinations worth combining with dataflows, with
  // their compute parts (kept[kept_begin .. kept_end)).
  struct Slot {
    enum class State : std::uint8_t { Empty, Bounded, Kept } state = State::Empty;
    Bound bound{};
    size_t kept_begin = 0, kept_end = 0;
  };
  std::vector<Slot> slots;
  std::vector<Eigen::Index> kept;
  std::vector<MetricTotals> kept_parts;
  std::vector<double> lat, energy;
  std::vector<size_t> order;
  // Box bounds: the least and greatest basis values over a box, the least metrics, per group the
  // least compute-side latency and energy, and per depth the dataflows still open.
  Eigen::VectorXd least_b, greatest_b, least_dataflow, least_compute, scratch;
  std::vector<Bound> box_bounds;
  std::vector<std::vector<Eigen::Index>> open;
};

void fill_boundary(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin,
                   Eigen::Index n, Worker &w) {
  w.b.resize(static_cast<Eigen::Index>(p.basis.factors.size()), n);
  for (Eigen::Index c = 0; c < n; ++c) {
    tilings.decode(begin + static_cast<std::uint64_t>(c), w.menu_index);
    for (size_t j = 0; j < p.basis.factors.size(); ++j) {
      double v = 1.0;
      for (const Basis::Factor &f : p.basis.factors[j]) {
        const double x = p.atoms[static_cast<size_t>(f.dim_pos)][static_cast<size_t>(
            w.menu_index[static_cast<size_t>(f.dim_pos)])][static_cast<size_t>(f.atom)];
        for (int k = 0; k < f.power; ++k)
          v *= x;
      }
      w.b(static_cast<Eigen::Index>(j), c) = v;
    }
  }
}

/// The compute part of spatial combination `gs` at column c of a product with the compute rows.
template <typename Matrix>
MetricTotals compute_part(const Prepared &p, const Matrix &m, Eigen::Index gs, Eigen::Index c) {
  const Eigen::Index stride = p.groups * p.spatial;
  MetricTotals t;
  t.macs = m(gs, c);
  t.cycles = m(stride + gs, c);
  t.gb_reads = m(2 * stride + gs, c);
  t.gb_writes = m(3 * stride + gs, c);
  t.vector_ops = m(4 * stride + gs, c);
  return t;
}

double compute_latency(const Prepared &p, const MetricTotals &part) {
  const LatencyParts parts = latency_parts(part, p.weights);
  return p.weights.latency_model == LatencyModel::Roofline
             ? std::max(parts.compute_cycles, parts.gb_cycles)
             : parts.compute_cycles + parts.gb_cycles;
}

/// The smallest compute-side latency and energy of group g's spatial combinations at column c.
template <typename Matrix>
Worker::Bound least_compute_side(const Prepared &p, const Matrix &m, Eigen::Index g,
                                 Eigen::Index c) {
  Worker::Bound b{std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()};
  for (Eigen::Index s = 0; s < p.spatial; ++s) {
    const MetricTotals part = compute_part(p, m, g * p.spatial + s, c);
    b.latency_cycles = std::min(b.latency_cycles, compute_latency(p, part));
    b.energy_pj = std::min(b.energy_pj, energy_pj(part, p.weights));
  }
  return b;
}

/// The slot of column c and group g, with at least its bound.
Worker::Slot &bounded_slot(const Prepared &p, Worker &w, Eigen::Index c, Eigen::Index g) {
  Worker::Slot &slot = w.slots[static_cast<size_t>(c * p.groups + g)];
  if (slot.state == Worker::Slot::State::Empty) {
    slot.bound = least_compute_side(p, w.m_compute, g, c);
    slot.state = Worker::Slot::State::Bounded;
  }
  return slot;
}

/// Keeps the spatial combinations of group g at column c that no other combination beats in both
/// compute-side latency and energy: the only ones that can reach the front, whatever the dataflow
/// (latency and energy are monotone in these parts and the dataflow adds the same to each).
void keep_best_spatial(const Prepared &p, Worker &w, Eigen::Index c, Eigen::Index g,
                       Worker::Slot &slot) {
  const auto count = static_cast<size_t>(p.spatial);
  w.lat.resize(count);
  w.energy.resize(count);
  w.order.resize(count);
  for (size_t s = 0; s < count; ++s) {
    const MetricTotals part =
        compute_part(p, w.m_compute, g * p.spatial + static_cast<Eigen::Index>(s), c);
    w.lat[s] = compute_latency(p, part);
    w.energy[s] = energy_pj(part, p.weights);
    w.order[s] = s;
  }
  // Sorted by (latency, energy, index), a combination is beaten exactly when an earlier one has
  // no more energy.
  std::sort(w.order.begin(), w.order.end(), [&](size_t a, size_t b) {
    return std::tie(w.lat[a], w.energy[a], a) < std::tie(w.lat[b], w.energy[b], b);
  });
  slot.kept_begin = w.kept.size();
  double best_energy = std::numeric_limits<double>::infinity();
  for (size_t s : w.order) {
    if (w.energy[s] >= best_energy)
      continue;
    best_energy = w.energy[s];
    w.kept.push_back(static_cast<Eigen::Index>(s));
    w.kept_parts.push_back(
        compute_part(p, w.m_compute, g * p.spatial + static_cast<Eigen::Index>(s), c));
  }
  slot.kept_end = w.kept.size();
  slot.state = Worker::Slot::State::Kept;
}

/// A point no larger in any objective than every mapping of a dataflow with at least these DRAM
/// reads and writes and buffer words and a compute side bounded by `bound` (with a relative
/// margin for rounding): if the front rejects it, it rejects them all.
Objectives lower_bound(const Prepared &p, const Worker::Bound &bound, double reads, double writes,
                       double buffer) {
  constexpr double kMargin = 1.0 - 1e-12;
  const CostWeights &wt = p.weights;
  const double dram_cycles = dram_transfer_cycles(reads, writes, wt);
  const double cycles = wt.latency_model == LatencyModel::Roofline
                            ? std::max(bound.latency_cycles, dram_cycles)
                            : bound.latency_cycles + dram_cycles;
  Objectives o;
  o.latency_s = cycles * wt.seconds_per_cycle * kMargin;
  o.energy_pj = (bound.energy_pj + wt.dram_read_pj * reads + wt.dram_write_pj * writes) * kMargin;
  o.edp = std::max(o.latency_s, 0.0) * std::max(o.energy_pj, 0.0);
  o.dram_words = reads + writes;
  o.buffer_words = buffer;
  return o;
}

/// Combines dataflow d with the kept spatial combinations at columns [first, last).
void fold_dataflow(const Prepared &p, std::uint64_t begin, Eigen::Index d, Eigen::Index first,
                   Eigen::Index last, Worker &w) {
  const double *reads = &w.m_dataflow(d, 0);
  const double *writes = &w.m_dataflow(p.dataflows + d, 0);
  const int g = p.group_of[static_cast<size_t>(d)];
  for (Eigen::Index c = first; c < last; ++c) {
    double buffer = 0;
    for (Eigen::Index o = 0; o < p.ops; ++o)
      buffer = std::max(buffer, w.m_dataflow((2 + o) * p.dataflows + d, c));
    w.min_buffer_words = std::min(w.min_buffer_words, buffer);
    if (buffer > p.capacity_words)
      continue;
    w.feasible += static_cast<std::uint64_t>(p.spatial);
    Worker::Slot &slot = bounded_slot(p, w, c, g);
    const std::uint64_t tiling = begin + static_cast<std::uint64_t>(c);
    const Objectives bound = lower_bound(p, slot.bound, reads[c], writes[c], buffer);
    if (!w.front.admits(w.front.key_of(bound), static_cast<std::uint64_t>(d * p.spatial), tiling))
      continue;
    if (slot.state != Worker::Slot::State::Kept)
      keep_best_spatial(p, w, c, g, slot);
    w.objectives_computed += slot.kept_end - slot.kept_begin;
    for (size_t k = slot.kept_begin; k < slot.kept_end; ++k) {
      MetricTotals totals = w.kept_parts[k];
      totals.dram_reads = reads[c];
      totals.dram_writes = writes[c];
      totals.buffer_words = buffer;
      const Objectives objs = objectives(totals, p.weights);
      const auto candidate = static_cast<std::uint64_t>(d * p.spatial + w.kept[k]);
      const ParetoFront::Key key = w.front.key_of(objs);
      if (w.front.admits(key, candidate, tiling))
        w.front.insert({key, candidate, tiling, objs, totals});
    }
  }
}

/// Evaluates the tilings [begin, end) column by column for the dataflows `open`.
void evaluate_columns(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin,
                      std::uint64_t end, const std::vector<Eigen::Index> &open, Worker &w) {
  const auto n = static_cast<Eigen::Index>(end - begin);
  fill_boundary(p, tilings, begin, n, w);
  w.m_dataflow.noalias() = p.q_dataflow * w.b;
  w.m_compute.noalias() = p.q_compute * w.b;
  w.matrix_flops += 2.0 * static_cast<double>(p.q_dataflow.nonZeros() + p.q_compute.nonZeros()) *
                    static_cast<double>(n);
  w.columns += static_cast<std::uint64_t>(n);
  w.slots.assign(static_cast<size_t>(n * p.groups), {});
  w.kept.clear();
  w.kept_parts.clear();
  // Column chunks keep the kept compute parts of the chunk in cache while every dataflow passes.
  constexpr Eigen::Index kChunk = 64;
  for (Eigen::Index first = 0; first < n; first += kChunk)
    for (Eigen::Index d : open)
      fold_dataflow(p, begin, d, first, std::min(n, first + kChunk), w);
}

/// The basis functions at their least (or greatest) over the box whose first `depth` tiling-space
/// dims have the menu entries of w.menu_index and whose other dims range over their whole menus:
/// the fixed dims' atoms times the free dims' least (greatest) parts.
void fill_box_basis(const Prepared &p, size_t depth, const std::vector<double> &free_parts,
                    const Worker &w, Eigen::VectorXd &out) {
  const size_t dims = p.atoms.size();
  out.resize(static_cast<Eigen::Index>(p.basis.factors.size()));
  for (size_t j = 0; j < p.basis.factors.size(); ++j) {
    double v = 1.0;
    for (const Basis::Factor &f : p.basis.factors[j]) {
      const auto dim = static_cast<size_t>(f.dim_pos);
      if (dim >= depth)
        continue;
      for (int k = 0; k < f.power; ++k)
        v *= p.atoms[dim][static_cast<size_t>(w.menu_index[dim])][static_cast<size_t>(f.atom)];
    }
    for (size_t i = depth; i < dims; ++i)
      v *= free_parts[j * dims + i];
    out(static_cast<Eigen::Index>(j)) = v;
  }
}

/// Every row of `q` at its least over the box: positive entries times the least basis values,
/// negative ones times the greatest, each side moved by a relative margin that covers the
/// rounding of any evaluation of the row.
void least_rows(const SignedRows &q, const Worker &w, Eigen::VectorXd &scratch,
                Eigen::VectorXd &out) {
  constexpr double kMargin = 1e-12;
  out.noalias() = q.positive * w.least_b;
  out *= 1 - kMargin;
  if (q.negative.nonZeros() == 0)
    return;
  scratch.noalias() = q.negative * w.greatest_b;
  out -= (1 + kMargin) * scratch;
}

/// Keeps in `open` the dataflows of `candidates` that some tiling of the box starting at tiling
/// `begin` with `depth` dims fixed may still bring to the front: their least buffer words fit and
/// the front admits their least objectives (ids: the box's first candidate and tiling).
void keep_open_dataflows(const Prepared &p, std::uint64_t begin, size_t depth,
                         const std::vector<Eigen::Index> &candidates,
                         std::vector<Eigen::Index> &open, Worker &w) {
  fill_box_basis(p, depth, p.least_part, w, w.least_b);
  fill_box_basis(p, depth, p.greatest_part, w, w.greatest_b);
  least_rows(p.q_dataflow_signed, w, w.scratch, w.least_dataflow);
  least_rows(p.q_compute_signed, w, w.scratch, w.least_compute);
  w.matrix_flops += 4.0 * static_cast<double>(p.q_dataflow.nonZeros() + p.q_compute.nonZeros());
  w.box_bounds.resize(static_cast<size_t>(p.groups));
  for (Eigen::Index g = 0; g < p.groups; ++g)
    w.box_bounds[static_cast<size_t>(g)] = least_compute_side(p, w.least_compute, g, 0);
  open.clear();
  for (Eigen::Index d : candidates) {
    double buffer = 0;
    for (Eigen::Index o = 0; o < p.ops; ++o)
      buffer = std::max(buffer, w.least_dataflow((2 + o) * p.dataflows + d));
    if (buffer > p.capacity_words)
      continue;
    const Objectives bound =
        lower_bound(p, w.box_bounds[static_cast<size_t>(p.group_of[static_cast<size_t>(d)])],
                    w.least_dataflow(d), w.least_dataflow(p.dataflows + d), buffer);
    if (w.front.admits(w.front.key_of(bound), static_cast<std::uint64_t>(d * p.spatial), begin))
      open.push_back(d);
  }
}

/// Searches the box of tilings starting at `begin` whose first `depth` dims are fixed, for the
/// dataflows w.open[depth]: drops the dataflows its bound rejects, then evaluates it column by
/// column or searches its children (the next dim's menu entries in order).
void search_box(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin, size_t depth,
                Worker &w) {
  ++w.boxes;
  std::vector<Eigen::Index> &open = w.open[depth + 1];
  if (p.prune_boxes) {
    tilings.decode(begin, w.menu_index);
    keep_open_dataflows(p, begin, depth, w.open[depth], open, w);
  } else {
    open = w.open[depth];
  }
  if (open.empty())
    return;
  if (depth == p.leaf_depth) {
    evaluate_columns(p, tilings, begin, begin + p.span[depth], open, w);
    return;
  }
  for (std::uint64_t i = 0; i < tilings.menu(depth).size(); ++i)
    search_box(p, tilings, begin + i * p.span[depth + 1], depth + 1, w);
}

std::uint64_t block_size(const Prepared &p, const SearchOptions &options) {
  if (options.block_tilings > 0)
    return options.block_tilings;
  const auto rows = static_cast<std::uint64_t>(std::max<Eigen::Index>(p.q_dataflow.rows(), 1));
  return std::clamp<std::uint64_t>((std::uint64_t{1} << 21) / rows, 16, 2048);
}

/// Tilings of a leaf box at most: small enough for the bounds to drop most leaves, large enough
/// for each leaf's Q x B product to outweigh its bound (measured on GPT-3 attention: leaves of
/// 32 to 512 tilings search it alike, 2048 four times slower).
constexpr std::uint64_t kLeafTilings = 128;

/// The tree of boxes: leaves are the largest boxes of at most one block (and kLeafTilings) of
/// tilings, and the boxes shared between threads are the shallowest ones numerous enough to
/// balance the workers.
void plan_boxes(Prepared &p, const TilingSpace &tilings, const SearchOptions &options) {
  const size_t dims = tilings.dims().size();
  p.span.assign(dims + 1, 1);
  for (size_t k = dims; k-- > 0;)
    p.span[k] = p.span[k + 1] * tilings.menu(k).size();
  const std::uint64_t block = std::min(block_size(p, options), kLeafTilings);
  p.leaf_depth = 0;
  while (p.span[p.leaf_depth] > block)
    ++p.leaf_depth;
  const int threads = options.threads > 0 ? options.threads : tbb::info::default_concurrency();
  const std::uint64_t units = 16 * static_cast<std::uint64_t>(std::max(threads, 1));
  p.parallel_depth = 0;
  while (p.parallel_depth < p.leaf_depth && tilings.size() / p.span[p.parallel_depth] < units)
    ++p.parallel_depth;
  p.prune_boxes = options.prune_boxes;
}

/// Thread time per tiling (its basis values and best spatial mappings) and per mapping decided,
/// measured on the development machine and rounded up, so that the expected time errs long.
constexpr double kSecondsPerTiling = 2e-6;
constexpr double kSecondsPerMapping = 5e-9;

SearchEstimate estimate_search(std::uint64_t candidates, std::uint64_t tilings, int threads) {
  SearchEstimate e;
  e.candidates = candidates;
  e.tilings = tilings;
  e.mappings = static_cast<double>(candidates) * static_cast<double>(tilings);
  const int workers = threads > 0 ? threads : tbb::info::default_concurrency();
  e.expected_seconds =
      (static_cast<double>(tilings) * kSecondsPerTiling + e.mappings * kSecondsPerMapping) /
      static_cast<double>(std::max(workers, 1));
  return e;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

ProblemFront make_result(const SearchOptions &options, std::shared_ptr<const CandidateSpace> space,
                         std::uint64_t tilings) {
  ProblemFront r{ParetoFront(options.objectives),
                 {},
                 {},
                 std::numeric_limits<double>::infinity(),
                 std::move(space)};
  r.stats.pruning = r.space->stats;
  r.stats.tilings = tilings;
  r.stats.mappings = r.space->stats.candidates_after() * tilings;
  return r;
}

/// Searches every box shared between threads, each worker folding into its own front, then merges
/// the workers' fronts and counts into `result`. `progress` is given the mappings decided.
void search_boxes(const Prepared &p, const TilingSpace &tilings, const SearchOptions &options,
                  const std::function<void(std::uint64_t, std::uint64_t)> &progress,
                  ProblemFront &result) {
  std::vector<Eigen::Index> every_dataflow(static_cast<size_t>(p.dataflows));
  std::iota(every_dataflow.begin(), every_dataflow.end(), Eigen::Index{0});
  const std::uint64_t unit = p.span[p.parallel_depth];
  tbb::enumerable_thread_specific<Worker> workers([&] {
    Worker w(options.objectives);
    w.open.resize(p.leaf_depth + 2);
    w.open[p.parallel_depth] = every_dataflow;
    return w;
  });
  const std::uint64_t candidates = result.space->stats.candidates_after();
  std::mutex progress_mutex;
  std::uint64_t done = 0;
  auto report = [&](std::uint64_t tilings_done) {
    if (!progress)
      return;
    std::lock_guard lock(progress_mutex);
    done += tilings_done;
    progress(done * candidates, result.stats.mappings);
  };
  search_arena(options).execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, tilings.size() / unit, 1),
                      [&](const tbb::blocked_range<std::uint64_t> &range) {
                        Worker &w = workers.local();
                        for (std::uint64_t u = range.begin(); u != range.end(); ++u) {
                          search_box(p, tilings, u * unit, p.parallel_depth, w);
                          report(unit);
                        }
                      });
  });
  for (const Worker &w : workers) {
    result.front.merge(w.front);
    result.min_buffer_words = std::min(result.min_buffer_words, w.min_buffer_words);
    result.stats.feasible_mappings += w.feasible;
    result.stats.objectives_computed += w.objectives_computed;
    result.stats.matrix_flops += w.matrix_flops;
    result.stats.boxes += w.boxes;
    result.stats.columns += w.columns;
  }
}

/// Decodes the front's points: candidate, tiling and each operator's buffer words. The smallest
/// buffer need is kept only to explain an empty front.
void decode_front(ProblemFront &result, const TilingSpace &tilings, const Hardware &hw) {
  if (result.front.size() > 0)
    result.min_buffer_words = 0;
  const CandidateSpace &space = *result.space;
  for (const ParetoPoint &point : result.front.points()) {
    PointMapping m{candidate_of(space, point.candidate), tilings.tiling(point.tiling), {}};
    const AtomTable atoms =
        atom_table(tilings.sizes(), m.tiling, hw.effective_rows(), hw.effective_cols());
    const DataflowMetrics &metrics = space.metrics[point.candidate / space.spatial.size()];
    for (const Posynomial &words : metrics.buffer_words)
      m.op_buffer_words.push_back(evaluate(words, atoms));
    result.mappings.push_back(std::move(m));
  }
}

/// Pruning also drops the tile sizes that are never better than a smaller one with the same trip
/// count (docs/DESIGN.md §4.3); without pruning every size of the menu is tried.
TileSizes tile_sizes_for(Pruning pruning) {
  return pruning == Pruning::Symbolic ? TileSizes::SmallestPerTripCount : TileSizes::Every;
}

} // namespace

ProblemFront search_problem(const Problem &problem, const Hardware &hw,
                            const SearchOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  const TileSizes sizes = tile_sizes_for(options.pruning);
  check_space_limits(problem, options.menu, array_size, sizes, options.recompute, options.limits);
  const TilingSpace tilings(problem, options.menu, array_size, sizes);
  ProblemFront result = make_result(options, candidate_space(problem, hw, options), tilings.size());
  const std::uint64_t candidates = result.space->stats.candidates_after();
  if (options.estimate)
    options.estimate(estimate_search(candidates, tilings.size(), options.threads));
  Prepared p = prepare(problem, hw, *result.space, tilings, options);
  plan_boxes(p, tilings, options);
  result.stats.basis_functions = p.basis.factors.size();

  search_boxes(p, tilings, options, options.progress, result);
  if (result.front.size() == 0 && p.prune_boxes) {
    // Nothing fits: the least buffer need, which the error reports, is exact only when every
    // column is evaluated (a box can be dropped for its least need alone).
    p.prune_boxes = false;
    search_boxes(p, tilings, options, nullptr, result);
  }
  decode_front(result, tilings, hw);
  result.stats.seconds = seconds_since(start);
  return result;
}

void prepare_candidate_spaces(const std::vector<const Problem *> &problems, const Hardware &hw,
                              const SearchOptions &options) {
  if (!options.cache)
    return;
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  std::vector<const Problem *> within;
  for (const Problem *p : problems) {
    if (!within_space_limits(*p, options.menu, array_size, tile_sizes_for(options.pruning),
                             options.recompute, options.limits))
      break;
    within.push_back(p);
  }
  search_arena(options).execute([&] {
    options.cache->prepare(within, hw.global_buffer().double_buffering, options.pruning,
                           options.recompute);
  });
}

ProblemFront brute_force_problem(const Problem &problem, const Hardware &hw,
                                 const SearchOptions &options, Pruning pruning,
                                 std::uint64_t max_tilings) {
  const auto start = std::chrono::steady_clock::now();
  const std::int64_t array_size = std::min(hw.effective_rows(), hw.effective_cols());
  const TileSizes sizes = tile_sizes_for(pruning);
  check_space_limits(problem, options.menu, array_size, sizes, options.recompute, options.limits);
  const TilingSpace tilings(problem, options.menu, array_size, sizes);
  ProblemFront result =
      make_result(options,
                  std::make_shared<const CandidateSpace>(build_candidate_space(
                      problem, hw.global_buffer().double_buffering, pruning, options.recompute)),
                  max_tilings > 0 ? std::min(max_tilings, tilings.size()) : tilings.size());
  result.stats.columns = result.stats.tilings;
  const CandidateSpace &space = *result.space;
  const std::vector<ComputeMetrics> compute = group_compute_metrics(problem, space);
  const CostWeights weights = cost_weights(hw, options.latency_model);
  const double capacity = static_cast<double>(hw.gb_capacity_words());
  const size_t spatial = space.spatial.size();
  for (std::uint64_t t = 0; t < result.stats.tilings; ++t) {
    const AtomTable atoms =
        atom_table(tilings.sizes(), tilings.tiling(t), hw.effective_rows(), hw.effective_cols());
    for (const RecomputeGroup &g : space.groups)
      for (size_t d = g.first; d < g.first + g.count; ++d)
        for (size_t s = 0; s < spatial; ++s) {
          const size_t group = static_cast<size_t>(&g - space.groups.data());
          ParetoPoint point;
          point.totals = evaluate_totals(space.metrics[d], compute[group * spatial + s], atoms);
          result.min_buffer_words = std::min(result.min_buffer_words, point.totals.buffer_words);
          if (point.totals.buffer_words > capacity)
            continue;
          ++result.stats.feasible_mappings;
          ++result.stats.objectives_computed;
          point.objectives = objectives(point.totals, weights);
          point.candidate = d * spatial + s;
          point.tiling = t;
          result.front.set_key(point);
          result.front.insert(point);
        }
  }
  decode_front(result, tilings, hw);
  result.stats.seconds = seconds_since(start);
  return result;
}

} // namespace dse
