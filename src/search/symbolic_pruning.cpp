// Pairwise symbolic dominance with a numeric pre-filter: a row can only dominate another if it
// is no larger at a handful of random points of the (independent-atom) domain.
#include "dse/search/symbolic_pruning.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>

#include "dse/support/check.hpp"

namespace dse {

namespace {

/// Sample points per signature. The symbolic check runs only for the pairs the samples pass: on
/// the windowed pair of GoogLeNet's inception blocks, 6 samples let 69,435 pairs through of which
/// 8,840 dominate, 10 and 16 about half as many; 10 builds the space with the fewest
/// instructions (7% fewer than 6).
constexpr size_t kSamples = 10;
constexpr double kTolerance = 1e-9; // relative, of the numeric comparison of signatures

/// Largest dimension index used by any monomial, to size the random atom tables.
int max_dim(const std::vector<MetricRow> &rows) {
  int out = 0;
  for (const MetricRow &row : rows)
    for (const Posynomial &p : row)
      for (const auto &[m, c] : p.terms())
        for (const Factor &f : m.factors())
          out = std::max(out, f.dim());
  return out;
}

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

/// The row's metrics at every sample point, each term's monomial evaluated at all of them in one
/// pass over its factors.
Signature signature(const MetricRow &row, const std::vector<double> &points) {
  Signature s;
  s.values.reserve(row.size() * kSamples);
  for (const Posynomial &p : row) {
    std::array<double, kSamples> sums{};
    for (const auto &[m, c] : p.terms()) {
      std::array<double, kSamples> v;
      v.fill(1.0);
      for (const Factor &f : m.factors()) {
        const double *x = &points[static_cast<size_t>(f.key) * kSamples];
        for (int i = 0; i < f.power; ++i)
          for (size_t k = 0; k < kSamples; ++k)
            v[k] *= x[k];
      }
      for (size_t k = 0; k < kSamples; ++k)
        sums[k] += c * v[k];
    }
    for (double value : sums) {
      const double tolerance = kTolerance * (1.0 + std::abs(value));
      s.values.push_back(value);
      s.ceilings.push_back(value + tolerance);
      s.total += value;
      s.slack += tolerance;
    }
  }
  return s;
}

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

} // namespace

bool dominates(const MetricRow &u, const MetricRow &v) {
  DSE_CHECK(u.size() == v.size(), "metric rows of " + std::to_string(u.size()) + " and " +
                                      std::to_string(v.size()) + " metrics compared");
  for (size_t i = 0; i < u.size(); ++i)
    if (!provably_less_equal(u[i], v[i]))
      return false;
  return true;
}

std::vector<size_t> undominated_rows(const std::vector<MetricRow> &rows) {
  const std::vector<double> points = sample_points(max_dim(rows));
  std::vector<Signature> sigs;
  sigs.reserve(rows.size());
  for (const MetricRow &row : rows) {
    // Signatures are compared position by position, so every row has the same metrics.
    DSE_CHECK(row.size() == rows.front().size(),
              "metric rows of " + std::to_string(rows.front().size()) + " and " +
                  std::to_string(row.size()) + " metrics in one pruning");
    sigs.push_back(signature(row, points));
  }

  // Likely dominators first: fewer survivors get replaced later.
  std::vector<size_t> order(rows.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return sigs[a].total < sigs[b].total; });

  auto beats = [&](size_t u, size_t v) {
    if (!numerically_le(sigs[u], sigs[v]) || !dominates(rows[u], rows[v]))
      return false;
    // Equal functions: the lower index wins.
    return u < v || !numerically_le(sigs[v], sigs[u]) || !dominates(rows[v], rows[u]);
  };

  // Survivors stay in increasing total. A row beats only rows whose total plus slack reaches
  // its own: among the survivors, a suffix no longer than the largest slack.
  double largest_slack = 0;
  for (const Signature &s : sigs)
    largest_slack = std::max(largest_slack, s.slack);
  std::vector<size_t> survivors;
  for (size_t v : order) {
    if (std::any_of(survivors.begin(), survivors.end(), [&](size_t u) { return beats(u, v); }))
      continue;
    auto first = survivors.end();
    while (first != survivors.begin() && sigs[*(first - 1)].total + largest_slack >= sigs[v].total)
      --first;
    survivors.erase(std::remove_if(first, survivors.end(), [&](size_t u) { return beats(v, u); }),
                    survivors.end());
    survivors.push_back(v);
  }
  std::sort(survivors.begin(), survivors.end());
  return survivors;
}

} // namespace dse
