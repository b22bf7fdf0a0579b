// Builds the Q matrices of a problem's search (one row per dataflow or spatial combination and
// metric, one column per basis function) and evaluates them against B (the basis functions at a
// range of tilings) column by column, folding every mapping worth keeping into a worker's front.
#include "problem_matrices.hpp"

#include <algorithm>
#include <functional>
#include <span>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>
#include <tuple>
#include <unordered_map>
#include <utility>

namespace dse {

std::vector<ComputeMetrics> group_compute_metrics(const Problem &problem,
                                                  const CandidateSpace &space) {
  std::vector<ComputeMetrics> out;
  for (const RecomputeGroup &g : space.groups)
    for (const auto &spatial : space.spatial)
      out.push_back(compute_metrics(problem, g.recompute_dims, g.cached_dims, spatial));
  return out;
}

namespace {

constexpr int kComputeMetrics = 5; // macs, cycles, gb reads, gb writes, vector ops

/// A rows x columns matrix filled row by row: fill(r, emit) calls emit(column, value) for row r's
/// entries in increasing column order. `reserve`: the non-zeros expected.
template <typename Fill>
SparseRows filled_rows(Eigen::Index rows, Eigen::Index columns, Eigen::Index reserve,
                       const Fill &fill) {
  SparseRows out(rows, columns);
  out.reserve(reserve);
  for (Eigen::Index r = 0; r < rows; ++r) {
    out.startVec(r);
    fill(r, [&](Eigen::Index column, double value) { out.insertBack(r, column) = value; });
  }
  out.finalize();
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

/// The product of basis function j's factors in tiling-space dim i at menu entry e of that dim.
double basis_part(const Prepared &p, size_t j, size_t i, size_t e) {
  double v = 1.0;
  for (const Basis::Factor &f : p.basis.factors[j])
    if (static_cast<size_t>(f.dim_pos) == i)
      for (int k = 0; k < f.power; ++k)
        v *= p.atoms[i][e][static_cast<size_t>(f.atom)];
  return v;
}

/// Fills p.basis_parts, p.least_beyond and p.greatest_beyond. The dims of a basis function vary
/// independently, so over a box its least value is the product of its fixed dims' parts and its
/// free dims' least parts: the exact least of every basis function, not only of every atom.
void bound_basis_parts(Prepared &p) {
  const size_t dims = p.atoms.size();
  p.basis_parts.assign(p.basis.factors.size(), {});
  p.least_beyond.assign(p.basis.factors.size() * (dims + 1), 1.0);
  p.greatest_beyond.assign(p.basis.factors.size() * (dims + 1), 1.0);
  for (size_t j = 0; j < p.basis.factors.size(); ++j) {
    for (size_t i = dims; i-- > 0;) {
      double least = 1.0, greatest = 1.0;
      if (std::any_of(
              p.basis.factors[j].begin(), p.basis.factors[j].end(),
              [&](const Basis::Factor &f) { return static_cast<size_t>(f.dim_pos) == i; })) {
        Prepared::DimPart part{i, {}};
        for (size_t e = 0; e < p.atoms[i].size(); ++e)
          part.values.push_back(basis_part(p, j, i, e));
        least = *std::min_element(part.values.begin(), part.values.end());
        greatest = *std::max_element(part.values.begin(), part.values.end());
        p.basis_parts[j].insert(p.basis_parts[j].begin(), std::move(part));
      }
      p.least_beyond[j * (dims + 1) + i] = least * p.least_beyond[j * (dims + 1) + i + 1];
      p.greatest_beyond[j * (dims + 1) + i] = greatest * p.greatest_beyond[j * (dims + 1) + i + 1];
    }
  }
}

/// B at the tilings [begin, begin + n) of a leaf box, whose first `depth` tiling-space dims are
/// fixed: per basis function, the product of its parts in the fixed dims once, times its parts in
/// the free dims at each column. The atoms are integers, so below 2^53 the products do not depend
/// on their order.
void fill_boundary(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin, size_t depth,
                   Eigen::Index n, Worker &w) {
  const size_t dims = tilings.dims().size();
  w.column_menu.resize(static_cast<size_t>(n) * dims);
  tilings.decode(begin, w.menu_index);
  for (Eigen::Index c = 0; c < n; ++c) {
    std::copy(w.menu_index.begin(), w.menu_index.end(),
              w.column_menu.begin() + static_cast<std::ptrdiff_t>(static_cast<size_t>(c) * dims));
    for (size_t i = dims; i-- > 0 && ++w.menu_index[i] == static_cast<int>(tilings.menu(i).size());)
      w.menu_index[i] = 0;
  }
  w.b.resize(static_cast<Eigen::Index>(p.basis_parts.size()), n);
  w.b_columns.resize(n, static_cast<Eigen::Index>(p.basis_parts.size()));
  for (size_t j = 0; j < p.basis_parts.size(); ++j) {
    const std::vector<Prepared::DimPart> &parts = p.basis_parts[j];
    double fixed = 1.0;
    size_t first_free = 0;
    for (; first_free < parts.size() && parts[first_free].dim < depth; ++first_free)
      fixed *= parts[first_free].values[static_cast<size_t>(w.column_menu[parts[first_free].dim])];
    double *row = &w.b(static_cast<Eigen::Index>(j), 0);
    for (Eigen::Index c = 0; c < n; ++c) {
      const int *menu = &w.column_menu[static_cast<size_t>(c) * dims];
      double v = fixed;
      for (size_t k = first_free; k < parts.size(); ++k)
        v *= parts[k].values[static_cast<size_t>(menu[parts[k].dim])];
      row[c] = v;
      w.b_columns(c, static_cast<Eigen::Index>(j)) = v;
    }
  }
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

/// Buffer words of dataflow d at column c: the largest of its operators' rows times B's column.
double column_buffer_words(const Prepared &p, Eigen::Index d, Eigen::Index c, Worker &w) {
  double buffer = 0;
  Eigen::Index nonzeros = 0;
  const double *b = &w.b_columns(c, 0);
  for (Eigen::Index o = 0; o < p.ops; ++o) {
    double words = 0;
    for (SparseRows::InnerIterator it(p.q_dataflow, dataflow_row(p, 2 + o, d)); it;
         ++it, ++nonzeros)
      words += it.value() * b[it.col()];
    buffer = std::max(buffer, words);
  }
  w.matrix_flops += 2.0 * static_cast<double>(nonzeros);
  return buffer;
}

/// Columns folded together: the kept compute parts of a chunk stay in cache while every dataflow
/// passes.
constexpr Eigen::Index kChunk = 64;

/// Combines dataflow d with the kept spatial combinations at columns [first, last), a chunk. The
/// buffer words come from the product when buffer_first, else from column_buffer_words once the
/// bound is admitted. Unless buffer_first, the dataflows of one bound class bring the same
/// objectives at a column (buffer words not ranked) with ids growing in the order they come, so
/// once one of them is judged there (its bound rejected, or its objectives offered to the front)
/// the front takes none of the later ones: they are skipped.
void fold_dataflow(const Prepared &p, std::uint64_t begin, Eigen::Index d, Eigen::Index first,
                   Eigen::Index last, Worker &w) {
  const double *reads = &w.m_dataflow(dataflow_row(p, 0, d), 0);
  const double *writes = &w.m_dataflow(dataflow_row(p, 1, d), 0);
  const int g = p.group_of[static_cast<size_t>(d)];
  const bool early = buffer_first(p);
  const auto judged = [&, at = p.bound_class[static_cast<size_t>(d)] * kChunk -
                               first](Eigen::Index c) -> std::uint64_t & {
    return w.judged[static_cast<size_t>(at + c)];
  };
  // Whether buffer words fit; the least need seen is kept for the error when nothing does.
  const auto fits = [&](double buffer) {
    w.min_buffer_words = std::min(w.min_buffer_words, buffer);
    return buffer <= p.capacity_words;
  };
  for (Eigen::Index c = first; c < last; ++c) {
    if (judged(c) == w.chunks)
      continue;
    double buffer = 0;
    if (early) {
      for (Eigen::Index o = 0; o < p.ops; ++o)
        buffer = std::max(buffer, w.m_dataflow(dataflow_row(p, 2 + o, d), c));
      if (!fits(buffer))
        continue;
    }
    Worker::Slot &slot = bounded_slot(p, w, c, g);
    const std::uint64_t tiling = begin + static_cast<std::uint64_t>(c);
    const Objectives bound = lower_bound(p, slot.bound, reads[c], writes[c], buffer);
    if (!w.front.admits(w.front.key_of(bound), static_cast<std::uint64_t>(d * p.spatial), tiling)) {
      if (!early)
        judged(c) = w.chunks;
      continue;
    }
    if (!early && !fits(buffer = column_buffer_words(p, d, c, w)))
      continue;
    if (!early)
      judged(c) = w.chunks;
    w.feasible += static_cast<std::uint64_t>(p.spatial);
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

/// The rows of Q x B that the dataflows in `open` read (their DRAM reads and writes, and their
/// buffer words when buffer_first), each once: the others are left as they are, neither computed
/// nor zeroed.
void multiply_open_rows(const Prepared &p, const std::vector<Eigen::Index> &open, Worker &w) {
  w.m_dataflow.resize(p.q_dataflow.rows(), w.b.cols());
  w.row_leaf.resize(static_cast<size_t>(p.q_dataflow.rows()), 0);
  const std::uint64_t leaf = ++w.leaves;
  Eigen::Index nonzeros = 0;
  for (Eigen::Index k = 0; k < (buffer_first(p) ? 2 + p.ops : 2); ++k)
    for (Eigen::Index d : open) {
      const Eigen::Index r = dataflow_row(p, k, d);
      if (std::exchange(w.row_leaf[static_cast<size_t>(r)], leaf) == leaf)
        continue;
      auto row = w.m_dataflow.row(r);
      row.setZero();
      for (SparseRows::InnerIterator it(p.q_dataflow, r); it; ++it, ++nonzeros)
        row += it.value() * w.b.row(it.col());
    }
  w.matrix_flops += 2.0 * static_cast<double>(nonzeros) * static_cast<double>(w.b.cols());
}

/// The rows of a Q matrix, each distinct row kept once: a row equal to one added before is given
/// that row's number.
class DistinctRows {
public:
  using Entry = std::pair<Eigen::Index, double>; // column, value
  using Row = std::span<const Entry>;            // entries in increasing column order
  static size_t hash(Row row) {
    size_t h = row.size();
    for (const auto &[column, value] : row)
      h = h * 1000003 ^ std::hash<double>{}(value) ^ static_cast<size_t>(column) << 20;
    return h;
  }
  /// Adds a row whose hash is `hash`; returns its distinct row.
  Eigen::Index add(Row row, size_t hash) {
    const auto [first, last] = by_hash_.equal_range(hash);
    for (auto it = first; it != last; ++it)
      if (same(it->second, row))
        return it->second;
    const auto number = static_cast<Eigen::Index>(outer_.size() - 1);
    for (const auto &[column, value] : row) {
      inner_.push_back(column);
      values_.push_back(value);
    }
    outer_.push_back(static_cast<Eigen::Index>(inner_.size()));
    by_hash_.emplace(hash, number);
    return number;
  }
  SparseRows matrix(Eigen::Index columns) const {
    return Eigen::Map<const SparseRows>(static_cast<Eigen::Index>(outer_.size() - 1), columns,
                                        static_cast<Eigen::Index>(inner_.size()), outer_.data(),
                                        inner_.data(), values_.data());
  }

private:
  bool same(Eigen::Index number, Row row) const {
    const auto begin = static_cast<size_t>(outer_[static_cast<size_t>(number)]);
    const auto end = static_cast<size_t>(outer_[static_cast<size_t>(number) + 1]);
    if (end - begin != row.size())
      return false;
    for (size_t i = 0; i < row.size(); ++i)
      if (inner_[begin + i] != row[i].first || values_[begin + i] != row[i].second)
        return false;
    return true;
  }
  std::vector<Eigen::Index> outer_{0}, inner_;
  std::vector<double> values_;
  std::unordered_multimap<size_t, Eigen::Index> by_hash_;
};

/// The move of q's columns to columns column_of[c] (ColumnMove).
ColumnMove column_move(const SparseRows &q, const std::vector<Eigen::Index> &column_of) {
  ColumnMove move;
  std::vector<std::pair<Eigen::Index, Eigen::Index>> entries; // search column, symbolic entry
  for (Eigen::Index r = 0; r < q.rows(); ++r) {
    entries.clear();
    for (Eigen::Index e = q.outerIndexPtr()[r]; e < q.outerIndexPtr()[r + 1]; ++e)
      entries.emplace_back(column_of[static_cast<size_t>(q.innerIndexPtr()[e])], e);
    // Insertion sort, stable: a row's columns mostly keep their order.
    for (size_t i = 1; i < entries.size(); ++i)
      for (size_t k = i; k > 0 && entries[k].first < entries[k - 1].first; --k)
        std::swap(entries[k], entries[k - 1]);
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i == 0 || entries[i].first != entries[i - 1].first) {
        move.inner.push_back(entries[i].first);
        move.first_source.push_back(move.first_source.back());
      }
      move.sources.push_back(entries[i].second);
      ++move.first_source.back();
    }
    move.outer.push_back(static_cast<Eigen::Index>(move.inner.size()));
  }
  return move;
}

/// The search's Q: q's columns moved, each symbolic column c scaled by scale[c].
SparseRows moved_columns(const SparseRows &q, const ColumnMove &move,
                         const std::vector<double> &scale, Eigen::Index columns) {
  SparseRows out(static_cast<Eigen::Index>(move.outer.size() - 1), columns);
  out.resizeNonZeros(static_cast<Eigen::Index>(move.inner.size()));
  std::copy(move.outer.begin(), move.outer.end(), out.outerIndexPtr());
  std::copy(move.inner.begin(), move.inner.end(), out.innerIndexPtr());
  double *values = out.valuePtr();
  for (size_t k = 0; k < move.inner.size(); ++k) {
    const auto first = static_cast<size_t>(move.first_source[k]);
    const auto last = static_cast<size_t>(move.first_source[k + 1]);
    const auto term = [&](size_t i) {
      const Eigen::Index e = move.sources[i];
      return scale[static_cast<size_t>(q.innerIndexPtr()[e])] * q.valuePtr()[e];
    };
    double sum = term(first);
    for (size_t i = first + 1; i < last; ++i)
      sum += term(i);
    values[k] = sum;
  }
  return out;
}

/// The search basis of `out.basis` (its monomials without Size factors) and the moves of its Q.
void plan_search_basis(SymbolicMatrices &out) {
  std::vector<Monomial> rests;
  for (const auto &[m, column] : out.basis.column) {
    Monomial::SizeSplit split = m.split_sizes();
    out.search_basis.column.emplace(split.rest, 0);
    rests.push_back(std::move(split.rest));
    out.size_dims.push_back(std::move(split.size_dims));
  }
  out.search_basis.number();
  std::vector<Eigen::Index> search_column; // per column of out.basis
  for (const Monomial &rest : rests)
    search_column.push_back(out.search_basis.column.at(rest));
  out.dataflow_move = column_move(out.q_dataflow, search_column);
  out.compute_move = column_move(out.q_compute, search_column);
}

/// The monomials of `rows` ranked, in parts of rows on the threads, while `beside` runs.
template <typename Beside>
MonomialRanks ranked_in_parts(const std::vector<const Posynomial *> &rows, const Beside &beside) {
  constexpr size_t kRowsPerPart = 1024;
  std::vector<MonomialRanks> parts((rows.size() + kRowsPerPart - 1) / kRowsPerPart);
  tbb::parallel_invoke(beside, [&] {
    tbb::parallel_for(size_t{0}, parts.size(), [&](size_t k) {
      for (size_t r = k * kRowsPerPart; r < std::min(rows.size(), (k + 1) * kRowsPerPart); ++r)
        parts[k].add(*rows[r]);
    });
  });
  MonomialRanks ranks;
  for (const MonomialRanks &part : parts)
    ranks.append(part);
  return ranks;
}

} // namespace

void Basis::number() {
  Eigen::Index next = 0;
  for (auto &[m, col] : column)
    col = next++;
}
void Basis::finish(const TilingSpace &tilings) {
  number();
  std::map<int, int> pos;
  for (size_t i = 0; i < tilings.dims().size(); ++i)
    pos[tilings.dims()[i]] = static_cast<int>(i);
  for (const auto &[m, col] : column) {
    std::vector<Factor> fs;
    for (const dse::Factor &f : m.factors())
      fs.push_back({pos.at(f.dim()), static_cast<int>(f.atom()), f.power});
    factors.push_back(std::move(fs));
  }
}

SignedRows split_by_sign(const SparseRows &q) {
  const auto side = [&](double sign) {
    return filled_rows(q.rows(), q.cols(), q.nonZeros(), [&](Eigen::Index r, const auto &emit) {
      for (SparseRows::InnerIterator it(q, r); it; ++it)
        if (sign * it.value() > 0)
          emit(it.col(), sign * it.value());
    });
  };
  return {side(1.0), side(-1.0)};
}

SymbolicMatrices symbolic_matrices(const Problem &problem, const CandidateSpace &space) {
  SymbolicMatrices out;
  const auto dataflows = static_cast<Eigen::Index>(space.dataflows.size());
  const auto rows_per_dataflow = static_cast<Eigen::Index>(2 + problem.ops.size());
  // Every row's posynomial in row order (metric k of dataflow d at row k * dataflows + d, then
  // the compute rows); their monomials ranked once, which numbers the basis functions in
  // monomial order. The compute metrics are made while the dataflow rows are ranked.
  std::vector<const Posynomial *> dataflow_rows;
  for (Eigen::Index k = 0; k < rows_per_dataflow; ++k)
    for (Eigen::Index d = 0; d < dataflows; ++d)
      dataflow_rows.push_back(&space.metrics[static_cast<size_t>(d)].row(static_cast<size_t>(k)));
  std::vector<ComputeMetrics> compute;
  MonomialRanks ranks =
      ranked_in_parts(dataflow_rows, [&] { compute = group_compute_metrics(problem, space); });
  const auto gs = static_cast<Eigen::Index>(compute.size());
  std::vector<std::vector<Posynomial>> group_rows;
  for (const ComputeMetrics &cm : compute)
    group_rows.push_back(compute_rows(cm));
  std::vector<const Posynomial *> compute_rows_at; // row k * gs + i
  for (size_t k = 0; k < kComputeMetrics; ++k)
    for (const std::vector<Posynomial> &rows : group_rows)
      compute_rows_at.push_back(&rows[k]);
  for (const Posynomial *p : compute_rows_at)
    ranks.add(*p);
  ranks.finish();
  for (std::uint32_t r = 0; r < ranks.size(); ++r)
    out.basis.column.emplace_hint(out.basis.column.end(), ranks.monomial(r),
                                  static_cast<Eigen::Index>(r));
  const auto columns = static_cast<Eigen::Index>(ranks.size());
  // A row's entries are its terms' ranks, increasing (the terms are in monomial order): every
  // dataflow row's entries and hash made on the threads, then each distinct row kept once.
  std::vector<size_t> first_term{0}; // per dataflow row, its first term's number
  for (const Posynomial *p : dataflow_rows)
    first_term.push_back(first_term.back() + p->terms().size());
  std::vector<DistinctRows::Entry> entries(first_term.back());
  std::vector<size_t> hashes(dataflow_rows.size());
  const auto row = [&](size_t r) {
    return DistinctRows::Row(entries.data() + first_term[r], entries.data() + first_term[r + 1]);
  };
  tbb::parallel_for(size_t{0}, dataflow_rows.size(), [&](size_t r) {
    size_t term = first_term[r];
    for (const auto &[m, c] : dataflow_rows[r]->terms()) {
      entries[term] = {static_cast<Eigen::Index>(ranks.term_rank(term)), c};
      ++term;
    }
    hashes[r] = DistinctRows::hash(row(r));
  });
  DistinctRows distinct;
  for (size_t r = 0; r < dataflow_rows.size(); ++r)
    out.row_of.push_back(distinct.add(row(r), hashes[r]));
  out.q_dataflow = distinct.matrix(columns);
  size_t term = first_term.back();
  // Bound classes: the (reads row, writes row, recompute group) triples, in order of appearance.
  std::map<std::tuple<Eigen::Index, Eigen::Index, size_t>, Eigen::Index> classes;
  for (size_t g = 0; g < space.groups.size(); ++g)
    for (size_t d = space.groups[g].first; d < space.groups[g].first + space.groups[g].count; ++d)
      out.bound_class.push_back(
          classes
              .try_emplace({out.row_of[d], out.row_of[static_cast<size_t>(dataflows) + d], g},
                           static_cast<Eigen::Index>(classes.size()))
              .first->second);
  out.bound_classes = static_cast<Eigen::Index>(classes.size());
  out.q_compute =
      filled_rows(kComputeMetrics * gs, columns, 0, [&](Eigen::Index r, const auto &emit) {
        for (const auto &[m, c] : compute_rows_at[static_cast<size_t>(r)]->terms())
          emit(static_cast<Eigen::Index>(ranks.term_rank(term++)), c);
      });
  plan_search_basis(out);
  return out;
}

Prepared prepare(const Problem &problem, const Hardware &hw, const CandidateSpace &space,
                 const SymbolicMatrices &symbolic, const TilingSpace &tilings,
                 const SearchOptions &options) {
  Prepared p;
  p.space = &space;
  p.dataflows = static_cast<Eigen::Index>(space.dataflows.size());
  p.spatial = static_cast<Eigen::Index>(space.spatial.size());
  p.groups = static_cast<Eigen::Index>(space.groups.size());
  p.ops = static_cast<Eigen::Index>(problem.ops.size());
  // Each symbolic basis function is a constant (its Size factors at this problem's sizes) times
  // a basis function of the search (SymbolicMatrices::search_basis).
  std::vector<double> scale;
  for (const std::vector<int> &dims : symbolic.size_dims) {
    double product = 1.0;
    for (int dim : dims)
      product *= static_cast<double>(tilings.sizes().at(static_cast<size_t>(dim)));
    scale.push_back(product);
  }
  p.basis = symbolic.search_basis;
  p.basis.finish(tilings);
  const auto columns = static_cast<Eigen::Index>(p.basis.factors.size());
  p.q_dataflow = moved_columns(symbolic.q_dataflow, symbolic.dataflow_move, scale, columns);
  p.row_of = symbolic.row_of;
  p.q_compute = moved_columns(symbolic.q_compute, symbolic.compute_move, scale, columns);

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
  p.bound_class = symbolic.bound_class;
  p.bound_classes = symbolic.bound_classes;
  p.weights = cost_weights(hw, options.latency_model);
  p.buffer_objective = std::find(options.objectives.begin(), options.objectives.end(),
                                 Objective::Buffer) != options.objectives.end();
  p.dma_cycles_per_read =
      1 / (p.weights.dma_load_words_per_cycle + p.weights.dma_both_words_per_cycle);
  p.dma_cycles_per_write =
      1 / (p.weights.dma_store_words_per_cycle + p.weights.dma_both_words_per_cycle);
  p.dma_cycles_per_word =
      1 / (p.weights.dma_load_words_per_cycle + p.weights.dma_store_words_per_cycle +
           p.weights.dma_both_words_per_cycle);
  p.capacity_words = static_cast<double>(hw.gb_capacity_words());
  return p;
}

double compute_latency(const Prepared &p, const MetricTotals &part) {
  const LatencyParts parts = latency_parts(part, p.weights);
  return p.weights.latency_model == LatencyModel::Roofline
             ? std::max(parts.compute_cycles, parts.gb_cycles)
             : parts.compute_cycles + parts.gb_cycles;
}

void evaluate_columns(const Prepared &p, const TilingSpace &tilings, std::uint64_t begin,
                      size_t depth, const std::vector<Eigen::Index> &open, Worker &w) {
  const auto n = static_cast<Eigen::Index>(p.span[depth]);
  fill_boundary(p, tilings, begin, depth, n, w);
  multiply_open_rows(p, open, w);
  w.m_compute.noalias() = p.q_compute * w.b;
  w.matrix_flops += 2.0 * static_cast<double>(p.q_compute.nonZeros()) * static_cast<double>(n);
  w.columns += static_cast<std::uint64_t>(n);
  w.slots.assign(static_cast<size_t>(n * p.groups), {});
  w.kept.clear();
  w.kept_parts.clear();
  w.judged.resize(static_cast<size_t>(p.bound_classes * kChunk), 0);
  for (Eigen::Index first = 0; first < n; first += kChunk) {
    ++w.chunks;
    for (Eigen::Index d : open)
      fold_dataflow(p, begin, d, first, std::min(n, first + kChunk), w);
  }
}

} // namespace dse
