// Pairwise symbolic dominance with a numeric pre-filter: a row can only dominate another if it
// is no larger at a handful of random points of the (independent-atom) domain. The survivors'
// first points are screened for a new row in one vectorised pass, and the symbolic check runs on
// the rows' monomials numbered once (docs/DESIGN.md §4.4).
#include "dse/search/symbolic_pruning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <span>

#include "dse/support/check.hpp"

namespace dse {

namespace {

/// Sample points per signature. The symbolic check runs only for the pairs the samples pass: on
/// an inception pair (512 -> 24 -> 64 channels at 14x14), 6 samples let 69,435 pairs through of
/// which 8,840 dominate, 10 let 40,386 and 16 let 32,916; 10 builds the space with the fewest
/// instructions.
constexpr size_t kSamples = 10;
constexpr double kTolerance = 1e-9; // relative, of the numeric comparison of signatures

/// Random points where every atom is an independent value in its own range: the value of factor
/// key f (Factor::key, dim * kAtomCount + atom) at sample k is at f * kSamples + k.
std::vector<double> sample_points(int dims) {
  std::mt19937_64 rng(0x5eed);
  std::uniform_real_distribution<double> log_value(0.0, 6.0);
  const auto keys = static_cast<size_t>((dims + 1) * kAtomCount);
  std::vector<double> out(keys * kSamples);
  for (size_t k = 0; k < kSamples; ++k)
    for (size_t key = 0; key < keys; ++key) {
      const double x = std::exp2(log_value(rng));
      out[key * kSamples + k] =
          atom_at_least_one(static_cast<Atom>(key % kAtomCount)) ? x : x - 1.0;
    }
  return out;
}

struct Signature {
  std::vector<double> values; // metric-major, sample-minor
  // Per value, the most another row's value may be and still count as no larger: the value plus
  // the relative tolerance.
  std::vector<double> ceilings;
  double total = 0;
  double slack = 0; // numerically_le(v, this) needs v.total <= total + slack
};

/// Whether every value of u is no larger than v's, within the tolerance: one metric's samples at
/// a time (most pairs differ in the first metric read).
bool numerically_le(const Signature &u, const Signature &v) {
  for (size_t first = 0; first < u.values.size(); first += kSamples) {
    bool le = true;
    for (size_t i = first; i < first + kSamples; ++i)
      le &= u.values[i] <= v.ceilings[i];
    if (!le)
      return false;
  }
  return true;
}

/// Sample points per metric in a sketch.
constexpr size_t kSketchSamples = 2;

/// The survivors' values at the first sample points, one array per (metric, point), in survivor
/// order: a pass over every survivor, which the compiler vectorises, finds the few that may be no
/// larger than a row before any of them is compared in full.
class Sketches {
public:
  explicit Sketches(size_t values)
      : values_(values / kSamples * kSketchSamples), positions_(values_.size()) {
    for (size_t k = 0; k < positions_.size(); ++k)
      positions_[k] = k / kSketchSamples * kSamples + k % kSketchSamples;
  }
  size_t size() const { return values_.empty() ? 0 : values_.front().size(); }
  void push_back(const Signature &s) {
    for (size_t k = 0; k < values_.size(); ++k)
      values_[k].push_back(s.values[positions_[k]]);
  }
  /// Moves survivor `from`'s sketch to position `to` (to <= from).
  void move(size_t from, size_t to) {
    for (std::vector<double> &column : values_)
      column[to] = column[from];
  }
  void resize(size_t n) {
    for (std::vector<double> &column : values_)
      column.resize(n);
  }
  /// Sets maybe[i] to whether survivor i is no larger than `v` at the sketch's points: false
  /// rules out numerically_le(survivor i, v).
  void mark_no_larger(const Signature &v, std::vector<std::uint8_t> &maybe) const {
    maybe.assign(size(), 1);
    for (size_t k = 0; k < values_.size(); ++k) {
      const double ceiling = v.ceilings[positions_[k]];
      const double *column = values_[k].data();
      for (size_t i = 0; i < maybe.size(); ++i)
        maybe[i] &= static_cast<std::uint8_t>(column[i] <= ceiling);
    }
  }

private:
  std::vector<std::vector<double>> values_; // per sketch value, per survivor
  std::vector<size_t> positions_;           // per sketch value, its index in a signature
};

/// The rows with each monomial replaced by its rank among the rows' distinct monomials (rank
/// order is monomial order), degrees per rank and divisibility per pair of ranks computed once:
/// dominates(rows[u], rows[v]) decided on integers, the same coverage as provably_less_equal. A
/// row is ranked when first compared (most never are: the signatures rule them out).
class RankedRows {
public:
  explicit RankedRows(const std::vector<MetricRowView> &rows)
      : rows_(rows), first_term_(rows.size()), ranked_(rows.size()) {
    for (size_t u = 0; u < rows.size(); ++u) {
      first_term_[u] = ranks_.terms();
      for (const Posynomial *p : rows[u])
        ranks_.add(*p);
    }
    ranks_.finish();
    for (std::uint32_t r = 0; r < ranks_.size(); ++r)
      degree_.push_back(ranks_.monomial(r).degree());
    if (ranks_.size() <= kMostCachedRanks)
      divides_.assign(ranks_.size() * ranks_.size(), kUnknown);
  }

  size_t monomials() const { return ranks_.size(); }
  const Monomial &monomial(std::uint32_t rank) const { return ranks_.monomial(rank); }
  /// Calls f(metric, rank, coefficient) for every term of row u, in order.
  template <typename F> void for_each_term(size_t u, const F &f) const {
    size_t term = first_term_[u];
    for (size_t k = 0; k < rows_[u].size(); ++k)
      for (const auto &[m, c] : rows_[u][k]->terms())
        f(k, ranks_.term_rank(term++), c);
  }

  /// Whether row u is provably <= row v in every metric.
  bool dominates(size_t u, size_t v) {
    const Ranked &lhs = ranked(u);
    const Ranked &rhs = ranked(v);
    for (size_t k = 0; k < lhs.ends.size(); ++k)
      if (!less_equal(metric_terms(lhs, k), metric_terms(rhs, k)))
        return false;
    return true;
  }

private:
  struct RankedTerm {
    std::uint32_t rank;
    double coef;
  };
  static constexpr std::uint8_t kUnknown = 2;
  // Rows of more distinct monomials (about a hundred in a three-operator chain) test divisibility
  // every time instead of keeping a table of 16 MiB or more.
  static constexpr size_t kMostCachedRanks = 4096;

  /// Row u's metrics on ranks: its terms, and per metric where its terms end.
  struct Ranked {
    std::vector<RankedTerm> terms;
    std::vector<std::uint32_t> ends;
  };
  const Ranked &ranked(size_t u) {
    Ranked &row = ranked_[u];
    if (!row.ends.empty())
      return row;
    size_t term = first_term_[u];
    row.terms.reserve((u + 1 < first_term_.size() ? first_term_[u + 1] : ranks_.terms()) - term);
    row.ends.reserve(rows_[u].size());
    for (const Posynomial *p : rows_[u]) {
      for (const auto &[m, c] : p->terms())
        row.terms.push_back({ranks_.term_rank(term++), c});
      row.ends.push_back(static_cast<std::uint32_t>(row.terms.size()));
    }
    return row;
  }

  bool divides(std::uint32_t neg, std::uint32_t pos) {
    if (divides_.empty())
      return ranks_.monomial(neg).divides_with_large_quotient(ranks_.monomial(pos));
    std::uint8_t &known = divides_[neg * ranks_.size() + pos];
    if (known == kUnknown)
      known = ranks_.monomial(neg).divides_with_large_quotient(ranks_.monomial(pos)) ? 1 : 0;
    return known == 1;
  }

  static std::span<const RankedTerm> metric_terms(const Ranked &row, size_t k) {
    const std::uint32_t begin = k == 0 ? 0 : row.ends[k - 1];
    return {row.terms.data() + begin, row.ends[k] - begin};
  }

  /// provably_less_equal on ranked terms.
  bool less_equal(std::span<const RankedTerm> lhs, std::span<const RankedTerm> rhs) {
    positive_.clear();
    negative_.clear();
    const auto put = [&](std::uint32_t r, double c) {
      if (c > 0)
        positive_.push_back({r, c, 0});
      else if (c < 0)
        negative_.push_back({r, -c, degree_[r]});
    };
    for_each_difference_term<RankedTerm>(
        lhs, rhs, [](const RankedTerm &t) { return t.rank; }, put);
    return covers_negative_terms(positive_, negative_, [&](std::uint32_t neg, std::uint32_t pos) {
      return divides(neg, pos);
    });
  }

  const std::vector<MetricRowView> &rows_;
  MonomialRanks ranks_;
  std::vector<size_t> first_term_;    // per row, its first term among ranks_'s
  std::vector<int> degree_;           // per rank
  std::vector<std::uint8_t> divides_; // per (negative rank, positive rank): 0, 1 or kUnknown
  std::vector<Ranked> ranked_;        // per row, once ranked
  std::vector<TermMass> positive_, negative_; // storage reused by less_equal
};

/// A monomial at every sample point.
std::array<double, kSamples> monomial_samples(const Monomial &m,
                                              const std::vector<double> &points) {
  std::array<double, kSamples> v;
  v.fill(1.0);
  for (const Factor &f : m.factors()) {
    const double *x = &points[static_cast<size_t>(f.key) * kSamples];
    for (int i = 0; i < f.power; ++i)
      for (size_t k = 0; k < kSamples; ++k)
        v[k] *= x[k];
  }
  return v;
}

/// Row u's metrics at every sample point, from its terms' monomials' samples (`samples`, per
/// rank).
Signature signature(const RankedRows &ranked, size_t u, size_t metrics,
                    const std::vector<std::array<double, kSamples>> &samples) {
  std::vector<std::array<double, kSamples>> sums(metrics, std::array<double, kSamples>{});
  ranked.for_each_term(u, [&](size_t k, std::uint32_t rank, double c) {
    for (size_t i = 0; i < kSamples; ++i)
      sums[k][i] += c * samples[rank][i];
  });
  Signature s;
  s.values.reserve(metrics * kSamples);
  for (const std::array<double, kSamples> &metric : sums)
    for (double value : metric) {
      const double tolerance = kTolerance * (1.0 + std::abs(value));
      s.values.push_back(value);
      s.ceilings.push_back(value + tolerance);
      s.total += value;
      s.slack += tolerance;
    }
  return s;
}

} // namespace

bool dominates(const MetricRow &u, const MetricRow &v) {
  DSE_CHECK(u.size() == v.size(), "metric rows of " + std::to_string(u.size()) + " and " +
                                      std::to_string(v.size()) + " metrics compared");
  for (size_t i = 0; i < u.size(); ++i)
    if (!provably_less_equal(u[i], v[i]))
      return false;
  return true;
}

std::vector<size_t> undominated_rows(const std::vector<MetricRowView> &rows) {
  for (const MetricRowView &row : rows) {
    // Signatures are compared position by position, so every row has the same metrics.
    DSE_CHECK(row.size() == rows.front().size(),
              "metric rows of " + std::to_string(rows.front().size()) + " and " +
                  std::to_string(row.size()) + " metrics in one pruning");
  }
  RankedRows ranked(rows);
  int dims = 0; // the largest dimension index of any monomial, to size the random atom tables
  for (std::uint32_t r = 0; r < ranked.monomials(); ++r)
    for (const Factor &f : ranked.monomial(r).factors())
      dims = std::max(dims, f.dim());
  const std::vector<double> points = sample_points(dims);
  std::vector<std::array<double, kSamples>> samples;
  for (std::uint32_t r = 0; r < ranked.monomials(); ++r)
    samples.push_back(monomial_samples(ranked.monomial(r), points));
  std::vector<Signature> sigs;
  sigs.reserve(rows.size());
  for (size_t u = 0; u < rows.size(); ++u)
    sigs.push_back(signature(ranked, u, rows.front().size(), samples));

  // Likely dominators first: fewer survivors get replaced later.
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return sigs[a].total < sigs[b].total; });

  auto beats = [&](size_t u, size_t v) {
    if (!numerically_le(sigs[u], sigs[v]) || !ranked.dominates(u, v))
      return false;
    // Equal functions: the lower index wins.
    return u < v || !numerically_le(sigs[v], sigs[u]) || !ranked.dominates(v, u);
  };

  // Survivors stay in increasing total. A row beats only rows whose total plus slack reaches
  // its own: among the survivors, a suffix no longer than the largest slack.
  double largest_slack = 0;
  for (const Signature &s : sigs)
    largest_slack = std::max(largest_slack, s.slack);
  std::vector<size_t> survivors;
  Sketches sketches(sigs.empty() ? 0 : sigs.front().values.size());
  std::vector<std::uint8_t> maybe;
  for (size_t v : order) {
    sketches.mark_no_larger(sigs[v], maybe);
    bool beaten = false;
    for (size_t i = 0; i < survivors.size() && !beaten; ++i)
      beaten = maybe[i] && beats(survivors[i], v);
    if (beaten)
      continue;
    size_t first = survivors.size();
    while (first > 0 && sigs[survivors[first - 1]].total + largest_slack >= sigs[v].total)
      --first;
    size_t kept = first;
    for (size_t i = first; i < survivors.size(); ++i) {
      if (beats(v, survivors[i]))
        continue;
      survivors[kept] = survivors[i];
      sketches.move(i, kept++);
    }
    survivors.resize(kept);
    sketches.resize(kept);
    survivors.push_back(v);
    sketches.push_back(sigs[v]);
  }
  std::sort(survivors.begin(), survivors.end());
  return survivors;
}

std::vector<size_t> undominated_rows(const std::vector<MetricRow> &rows) {
  std::vector<MetricRowView> views;
  views.reserve(rows.size());
  for (const MetricRow &row : rows) {
    MetricRowView &view = views.emplace_back();
    for (const Posynomial &p : row)
      view.push_back(&p);
  }
  return undominated_rows(views);
}

} // namespace dse
