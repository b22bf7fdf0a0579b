// The tree of boxes of tilings: bounds per box from the least and greatest basis values over it,
// the dataflows each box leaves open, and the parallel visit of the boxes shared between threads.
#include "tiling_boxes.hpp"

#include <mutex>
#include <numeric>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <utility>

#include "dse/support/thread_arena.hpp"

namespace dse {

namespace {

/// The basis functions at their least (or greatest) over the box whose first `depth` tiling-space
/// dims have the menu entries of w.menu_index and whose other dims range over their whole menus:
/// the fixed dims' parts times the free dims' least (greatest) product, `beyond`.
void fill_box_basis(const Prepared &p, size_t depth, const std::vector<double> &beyond,
                    const Worker &w, Eigen::VectorXd &out) {
  const size_t stride = p.atoms.size() + 1;
  out.resize(static_cast<Eigen::Index>(p.basis_parts.size()));
  for (size_t j = 0; j < p.basis_parts.size(); ++j) {
    double v = beyond[j * stride + depth];
    for (const Prepared::DimPart &part : p.basis_parts[j]) {
      if (part.dim >= depth)
        break;
      v *= part.values[static_cast<size_t>(w.menu_index[part.dim])];
    }
    out(static_cast<Eigen::Index>(j)) = v;
  }
}

/// The relative margin by which a least value over a box is moved, covering the rounding of any
/// evaluation of its row.
constexpr double kMargin = 1e-12;

/// The rows of `q` at their least over the box: positive entries times the least basis values,
/// negative ones times the greatest, each side moved by kMargin. Returns the non-zeros read.
Eigen::Index least_rows(const SignedRows &q, const Worker &w, Eigen::VectorXd &scratch,
                        Eigen::VectorXd &out) {
  out.noalias() = q.positive * w.least_b;
  out *= 1 - kMargin;
  if (q.negative.nonZeros() == 0)
    return q.positive.nonZeros();
  scratch.noalias() = q.negative * w.greatest_b;
  out -= (1 + kMargin) * scratch;
  return q.positive.nonZeros() + q.negative.nonZeros();
}

/// Row r of q_dataflow at its least over the box, computed when the box first reads it.
double least_dataflow_row(const Prepared &p, Eigen::Index r, Worker &w) {
  std::uint64_t &box = w.least_dataflow_box[static_cast<size_t>(r)];
  if (box == w.boxes)
    return w.least_dataflow(r);
  box = w.boxes;
  double positive = 0, negative = 0;
  Eigen::Index nonzeros = 0;
  for (SparseRows::InnerIterator it(p.q_dataflow, r); it; ++it) {
    const double v = it.value();
    nonzeros += v != 0;
    if (v > 0)
      positive += v * w.least_b(it.col());
    else if (v < 0)
      negative += -v * w.greatest_b(it.col());
  }
  w.matrix_flops += 2.0 * static_cast<double>(nonzeros);
  return w.least_dataflow(r) = (1 - kMargin) * positive - (1 + kMargin) * negative;
}

/// Row r of q_dataflow at its least and at its greatest over the box, both read in one pass over
/// the row when the box first reads it (dataflows share buffer rows).
std::pair<double, double> box_row_range(const Prepared &p, Eigen::Index r, Worker &w) {
  std::uint64_t &box = w.row_range_box[static_cast<size_t>(r)];
  std::pair<double, double> &range = w.row_range[static_cast<size_t>(r)];
  if (box == w.boxes)
    return range;
  box = w.boxes;
  double positive_least = 0, positive_greatest = 0, negative_least = 0, negative_greatest = 0;
  Eigen::Index nonzeros = 0;
  for (SparseRows::InnerIterator it(p.q_dataflow, r); it; ++it) {
    const double v = it.value();
    nonzeros += v != 0;
    if (v > 0) {
      positive_least += v * w.least_b(it.col());
      positive_greatest += v * w.greatest_b(it.col());
    } else if (v < 0) {
      negative_least += -v * w.least_b(it.col());
      negative_greatest += -v * w.greatest_b(it.col());
    }
  }
  w.matrix_flops += 4.0 * static_cast<double>(nonzeros);
  return range = {(1 - kMargin) * positive_least - (1 + kMargin) * negative_greatest,
                  (1 + kMargin) * positive_greatest - (1 - kMargin) * negative_least};
}

/// Dataflow d's least and greatest buffer words over the box: the largest of its operators' rows
/// at their least and at their greatest. Once the least exceeds the capacity, the later
/// operators are not read (the dataflow is dropped whatever they hold).
std::pair<double, double> box_buffer_words(const Prepared &p, Eigen::Index d, Worker &w) {
  double least = 0, greatest = 0;
  for (Eigen::Index o = 0; o < p.ops && least <= p.capacity_words; ++o) {
    const auto [row_least, row_greatest] = box_row_range(p, dataflow_row(p, 2 + o, d), w);
    least = std::max(least, row_least);
    greatest = std::max(greatest, row_greatest);
  }
  return {least, greatest};
}

/// Whether the front admits dataflow d's least objectives over the box starting at tiling
/// `begin`, buffer words not ranked: its bound class's bound, made and judged once per box for
/// every id when it can be. Rejection only grows with the id (ties go to lower ids), and the
/// candidates come in increasing order, so a class rejected at one dataflow is rejected at the
/// later ones.
bool box_admits(const Prepared &p, Eigen::Index d, std::uint64_t begin, Worker &w) {
  using State = Worker::Verdict::State;
  Worker::Verdict &v = w.verdicts[static_cast<size_t>(p.bound_class[static_cast<size_t>(d)])];
  if (v.made != w.boxes) {
    v.made = w.boxes;
    v.key = w.front.key_of(
        lower_bound(p, w.box_bounds[static_cast<size_t>(p.group_of[static_cast<size_t>(d)])],
                    least_dataflow_row(p, dataflow_row(p, 0, d), w),
                    least_dataflow_row(p, dataflow_row(p, 1, d), w), 0));
    v.state = w.front.admits(v.key, std::numeric_limits<std::uint64_t>::max(), begin) ? State::Every
                                                                                      : State::Some;
  }
  if (v.state != State::Some)
    return v.state == State::Every;
  if (w.front.admits(v.key, static_cast<std::uint64_t>(d * p.spatial), begin))
    return true;
  v.state = State::None;
  return false;
}

/// Keeps in `open` the dataflows of `candidates` that some tiling of the box starting at tiling
/// `begin` with `depth` dims fixed may still bring to the front: their least buffer words fit and
/// the front admits their least objectives (ids: the box's first candidate and tiling). The
/// buffer words are bounded only for the dataflows the front admits unless buffer_first. Unless
/// buffer_first, a dataflow that fits at every tiling of the box (its greatest buffer words fit)
/// is judged at every column before the later dataflows of its bound class, which bring the same
/// objectives with larger ids (fold_dataflow): those are left out.
void keep_open_dataflows(const Prepared &p, std::uint64_t begin, size_t depth,
                         const std::vector<Eigen::Index> &candidates,
                         std::vector<Eigen::Index> &open, Worker &w) {
  fill_box_basis(p, depth, p.least_beyond, w, w.least_b);
  fill_box_basis(p, depth, p.greatest_beyond, w, w.greatest_b);
  const bool early = buffer_first(p);
  w.least_dataflow.resize(p.q_dataflow.rows());
  w.least_dataflow_box.resize(static_cast<size_t>(p.q_dataflow.rows()), 0);
  w.row_range.resize(static_cast<size_t>(p.q_dataflow.rows()));
  w.row_range_box.resize(static_cast<size_t>(p.q_dataflow.rows()), 0);
  w.matrix_flops +=
      2.0 * static_cast<double>(least_rows(p.q_compute_signed, w, w.scratch, w.least_compute));
  w.box_bounds.resize(static_cast<size_t>(p.groups));
  for (Eigen::Index g = 0; g < p.groups; ++g)
    w.box_bounds[static_cast<size_t>(g)] = least_compute_side(p, w.least_compute, g, 0);
  open.clear();
  w.verdicts.resize(static_cast<size_t>(p.bound_classes));
  for (Eigen::Index d : candidates) {
    if (!early) {
      Worker::Verdict &v = w.verdicts[static_cast<size_t>(p.bound_class[static_cast<size_t>(d)])];
      if (v.covered == w.boxes || !box_admits(p, d, begin, w))
        continue;
      const auto [least, greatest] = box_buffer_words(p, d, w);
      if (least > p.capacity_words)
        continue;
      open.push_back(d);
      if (greatest <= p.capacity_words)
        v.covered = w.boxes;
      continue;
    }
    double buffer = 0;
    for (Eigen::Index o = 0; o < p.ops; ++o)
      buffer = std::max(buffer, least_dataflow_row(p, dataflow_row(p, 2 + o, d), w));
    if (buffer > p.capacity_words)
      continue;
    const Objectives bound =
        lower_bound(p, w.box_bounds[static_cast<size_t>(p.group_of[static_cast<size_t>(d)])],
                    least_dataflow_row(p, dataflow_row(p, 0, d), w),
                    least_dataflow_row(p, dataflow_row(p, 1, d), w), buffer);
    if (w.front.admits(w.front.key_of(bound), static_cast<std::uint64_t>(d * p.spatial), begin))
      open.push_back(d);
  }
}

/// Searches the box of tilings starting at `begin` whose first `depth` dims are fixed, for the
/// dataflows `candidates` (those its parent left open): drops the dataflows its bound rejects,
/// then evaluates it column by column or searches its children (the next dim's menu entries in
/// order). The dataflows a box at depth k leaves open are kept in w.open[k + 1].
void search_box(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin, size_t depth,
                const std::vector<Eigen::Index> &candidates, Worker &w) {
  ++w.boxes;
  const std::vector<Eigen::Index> *open = &candidates;
  if (p.prune_boxes) {
    tilings.decode(begin, w.menu_index);
    keep_open_dataflows(p, begin, depth, candidates, w.open[depth + 1], w);
    open = &w.open[depth + 1];
  }
  if (open->empty())
    return;
  if (depth == p.leaf_depth) {
    evaluate_columns(p, tilings, begin, depth, *open, w);
    return;
  }
  for (std::uint64_t i = tilings.menu(depth).size(); i-- > 0;)
    search_box(p, tilings, begin + i * p.span[depth + 1], depth + 1, *open, w);
}

std::uint64_t block_size(const Prepared &p, const SearchOptions &options) {
  if (options.block_tilings > 0)
    return options.block_tilings;
  const auto rows = static_cast<std::uint64_t>(std::max<Eigen::Index>(p.q_dataflow.rows(), 1));
  return std::clamp<std::uint64_t>((std::uint64_t{1} << 21) / rows, 16, 2048);
}

/// Tilings of a leaf box at most: small enough for the bounds to drop most leaves, large enough
/// for each leaf's Q x B product to outweigh its bound. Measured: GPT-3 attention searches alike
/// with leaves of 32 to 512 tilings (2048: four times slower); GoogLeNet's and MobileNetV2's
/// windowed pairs plan 15% faster with 32 than with 128, a box's bound reading only the DRAM
/// rows.
constexpr std::uint64_t kLeafTilings = 32;

} // namespace

/// The tree of boxes: leaves are the largest boxes of at most one block (and kLeafTilings) of
/// tilings, and the boxes shared between threads are the shallowest ones numerous enough to
/// balance the workers. On one thread the root is the only one: each box below it starts from
/// the dataflows its parent left open (a pair of GoogLeNet judges 45% fewer dataflows in boxes).
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
  const std::uint64_t units = threads > 1 ? 16 * static_cast<std::uint64_t>(threads) : 1;
  p.parallel_depth = 0;
  while (p.parallel_depth < p.leaf_depth && tilings.size() / p.span[p.parallel_depth] < units)
    ++p.parallel_depth;
  p.prune_boxes = options.prune_boxes;
}

/// Searches every box shared between threads, each worker folding into its own front, then merges
/// the workers' fronts and counts into `result`. `progress` is given the mappings decided.
void search_boxes(const Prepared &p, const TilingSpace &tilings, const SearchOptions &options,
                  const std::function<void(std::uint64_t, std::uint64_t)> &progress,
                  ProblemFront &result) {
  std::vector<Eigen::Index> every_dataflow(static_cast<size_t>(p.dataflows));
  std::iota(every_dataflow.begin(), every_dataflow.end(), Eigen::Index{0});
  const std::uint64_t unit = p.span[p.parallel_depth];
  const std::uint64_t units = tilings.size() / unit;
  tbb::enumerable_thread_specific<Worker> workers([&] {
    Worker w(options.objectives);
    w.open.resize(p.leaf_depth + 2);
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
  thread_arena(options.threads).execute([&] {
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, units, 1),
                      [&](const tbb::blocked_range<std::uint64_t> &range) {
                        Worker &w = workers.local();
                        for (std::uint64_t u = range.begin(); u != range.end(); ++u) {
                          search_box(p, tilings, (units - 1 - u) * unit, p.parallel_depth,
                                     every_dataflow, w);
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

} // namespace dse
