// The Q and B matrices of one problem's search and their evaluation column by column: the basis
// functions (monomials) with their factors in tiling-space terms, Q split into dataflow rows and
// compute rows (and by sign, for bounds over boxes of tilings), a worker's front and scratch, and
// the fold of a range of tiling columns into that front. src/search/tiling_boxes.cpp visits the
// tiling space with them; src/search/problem_search.cpp runs a search.
#pragma once

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <cstdint>
#include <limits>
#include <map>
#include <vector>

#include "dse/model/mapping_evaluation.hpp"
#include "dse/search/problem_search.hpp"
#include "dse/search/tiling_space.hpp"

namespace dse {

/// Compute metrics per (recompute group, spatial combination), index g * |spatial| + s.
std::vector<ComputeMetrics> group_compute_metrics(const Problem &problem,
                                                  const CandidateSpace &space);

/// Basis functions (monomials) used by any row, and each one's factors in tiling-space terms.
struct Basis {
  std::map<Monomial, Eigen::Index> column;
  struct Factor {
    int dim_pos;
    int atom;
    int power;
  };
  std::vector<std::vector<Factor>> factors;

  /// Numbers the basis functions in monomial order.
  void number();
  /// Numbers the basis functions and reads their factors in tiling-space terms.
  void finish(const TilingSpace &tilings);
};

/// Q matrices are sparse (a row uses a few of the basis functions); B and the products are
/// row-major so that each non-zero of Q is one contiguous multiply-add over a block of tilings.
using SparseRows = Eigen::SparseMatrix<double, Eigen::RowMajor, Eigen::Index>;
using DenseRows = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// A Q matrix split by the sign of its entries (Q = positive - negative), for bounds over boxes.
struct SignedRows {
  SparseRows positive, negative;
};

SignedRows split_by_sign(const SparseRows &q);

/// How a Q over the symbolic basis becomes a search's Q: each symbolic column goes to the column
/// of its monomial without Atom::Size factors, scaled by their values; entries of a row that meet
/// in one column are summed in symbolic column order. The structure of the search's Q
/// (compressed rows) and, per entry, the entries of the symbolic Q it sums.
struct ColumnMove {
  std::vector<Eigen::Index> outer{0}, inner;
  std::vector<Eigen::Index> first_source{0}; // per entry, into `sources` (one more at the end)
  std::vector<Eigen::Index> sources;         // entries of the symbolic Q
};

/// Q over the symbolic basis of a candidate space (monomials with Atom::Size factors): the same
/// for every problem of the space's structure, so built once per space (CandidateCache::matrices),
/// with its move to a search's basis.
struct SymbolicMatrices {
  Basis basis;                           // numbered, factors not read
  SparseRows q_dataflow, q_compute;      // rows as in Prepared
  std::vector<Eigen::Index> row_of;      // as in Prepared
  std::vector<Eigen::Index> bound_class; // as in Prepared
  Eigen::Index bound_classes = 0;        // as in Prepared
  Basis search_basis; // the basis without Size factors: numbered, factors not read
  std::vector<std::vector<int>> size_dims; // per column of `basis`, its Size factors' dims
  ColumnMove dataflow_move, compute_move;  // of q_dataflow and q_compute
};

SymbolicMatrices symbolic_matrices(const Problem &problem, const CandidateSpace &space);

/// Everything the block evaluation reads, built once per search.
struct Prepared {
  const CandidateSpace *space = nullptr;
  Eigen::Index dataflows = 0, spatial = 0, groups = 0, ops = 0;
  Basis basis;
  // The distinct rows of the dataflows' metrics (reads, writes, buffer words per operator):
  // dataflows that differ only where a metric does not look share its row.
  SparseRows q_dataflow;
  std::vector<Eigen::Index> row_of; // per metric k and dataflow d (k * dataflows + d): its row
  SparseRows q_compute;             // rows: metric * (groups * spatial) + g * spatial + s
  SignedRows q_compute_signed;      // q_dataflow is split by sign where its rows are read
  std::vector<std::vector<AtomValues>> atoms; // per tiling-space dim, per menu entry
  // Per basis function j, the tiling-space dims it has factors in (increasing), each with the
  // product of j's factors in that dim at every menu entry of the dim.
  struct DimPart {
    size_t dim;
    std::vector<double> values;
  };
  std::vector<std::vector<DimPart>> basis_parts;
  // Per basis function j and depth k (index j * (dims + 1) + k): the least and the greatest, over
  // the menus of dims k and beyond, of the product of j's parts in those dims (1 if none).
  std::vector<double> least_beyond, greatest_beyond;
  // span[k]: the tilings of a box whose first k tiling-space dims are fixed (span[0]: all).
  std::vector<std::uint64_t> span;
  size_t leaf_depth = 0;     // boxes this deep are evaluated column by column
  size_t parallel_depth = 0; // boxes this deep are the units shared between threads
  bool prune_boxes = true;
  bool buffer_objective = false; // the front ranks buffer words
  std::vector<int> group_of;     // per dataflow
  // Per dataflow, its bound class: dataflows with the same DRAM read and write rows and recompute
  // group have the same bound wherever buffer words do not rank.
  std::vector<Eigen::Index> bound_class;
  Eigen::Index bound_classes = 0;
  CostWeights weights;
  // With balanced DMA units: the reciprocals of the read, write and combined rates.
  double dma_cycles_per_read = 0, dma_cycles_per_write = 0, dma_cycles_per_word = 0;
  double capacity_words = 0;
};

/// The row of q_dataflow that holds metric k (0 reads, 1 writes, 2 + o operator o's buffer
/// words) of dataflow d.
inline Eigen::Index dataflow_row(const Prepared &p, Eigen::Index k, Eigen::Index d) {
  return p.row_of[static_cast<size_t>(k * p.dataflows + d)];
}

/// Whether a mapping's buffer words are computed before its bound: when the front ranks them, or
/// when every column is evaluated (tracking the least need). Otherwise only the mappings whose
/// bound the front admits have them computed.
inline bool buffer_first(const Prepared &p) { return p.buffer_objective || !p.prune_boxes; }

/// Q at the problem's sizes (the symbolic Q times each Size factor's value, equal monomials
/// merged), B's atom values and the bounds' parts of a search over `tilings` (boxes unplanned).
Prepared prepare(const Problem &problem, const Hardware &hw, const CandidateSpace &space,
                 const SymbolicMatrices &symbolic, const TilingSpace &tilings,
                 const SearchOptions &options);

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
  DenseRows b_columns; // B transposed: one row per column of B, for the products at one column
  // Per row of q_dataflow, the leaf (count in `leaves`) whose product computed it last.
  std::vector<std::uint64_t> row_leaf;
  std::uint64_t leaves = 0;
  std::vector<int> menu_index;
  std::vector<int> column_menu; // per column of a leaf box, its menu index per tiling-space dim
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
  // Per bound class and column of the chunk being folded (index class * chunk + column), the
  // chunk count when a dataflow of the class was judged there; `chunks` counts from 1.
  std::vector<std::uint64_t> judged;
  std::uint64_t chunks = 0;
  std::vector<Eigen::Index> kept;
  std::vector<MetricTotals> kept_parts;
  std::vector<double> lat, energy;
  std::vector<size_t> order;
  // Box bounds: the least and greatest basis values over a box, the least metrics, per group the
  // least compute-side latency and energy, and per depth the dataflows still open.
  Eigen::VectorXd least_b, greatest_b, least_dataflow, least_compute, scratch;
  std::vector<std::uint64_t> least_dataflow_box;    // per row of least_dataflow: the box it is of
  std::vector<std::pair<double, double>> row_range; // per row of q_dataflow: least and greatest
  std::vector<std::uint64_t> row_range_box;         // per row of row_range: the box it is of
  std::vector<Bound> box_bounds;
  // Per bound class, the front's verdict on its bound over a box (made at box count `made`), and
  // the box count when a dataflow of the class that fits at every tiling of the box was opened.
  struct Verdict {
    std::uint64_t made = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t covered = std::numeric_limits<std::uint64_t>::max();
    ParetoFront::Key key{};
    enum class State : std::uint8_t { Every, Some, None } state = State::Some;
  };
  std::vector<Verdict> verdicts;
  std::vector<std::vector<Eigen::Index>> open;
};

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

/// The cycles of a compute part on its own: compute and global-buffer cycles, overlapped or added
/// as the latency model says.
double compute_latency(const Prepared &p, const MetricTotals &part);

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

/// A point no larger in any objective than every mapping of a dataflow with at least these DRAM
/// reads and writes and buffer words and a compute side bounded by `bound` (with a relative
/// margin for rounding): if the front rejects it, it rejects them all.
inline Objectives lower_bound(const Prepared &p, const Worker::Bound &bound, double reads,
                              double writes, double buffer) {
  constexpr double kMargin = 1.0 - 1e-12;
  const CostWeights &wt = p.weights;
  // dram_transfer_cycles, its quotients taken as products by the reciprocals: a few ulps off.
  double dram_cycles = (reads + writes) * wt.cycles_per_dram_word;
  if (wt.dma_balanced)
    dram_cycles =
        std::max({dram_cycles, reads * p.dma_cycles_per_read, writes * p.dma_cycles_per_write,
                  (reads + writes) * p.dma_cycles_per_word});
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

/// Evaluates the leaf box of tilings starting at `begin` whose first `depth` dims are fixed, column
/// by column, for the dataflows `open`, into w.front.
void evaluate_columns(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin,
                      size_t depth, const std::vector<Eigen::Index> &open, Worker &w);

} // namespace dse
