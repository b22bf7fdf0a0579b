// Pairwise symbolic dominance with a numeric pre-filter: a row can only dominate another if it
// is no larger at a handful of random points of the (independent-atom) domain.
#include "dse/search/symbolic_pruning.hpp"

#include <algorithm>
#include <numeric>
#include <random>

#include "dse/model/tiling.hpp"
#include "dse/support/check.hpp"

namespace dse {

namespace {

constexpr int kSamples = 6;

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

/// Random points where every atom is an independent value in its own range.
std::vector<AtomTable> sample_points(int dims) {
  std::mt19937_64 rng(0x5eed);
  std::uniform_real_distribution<double> log_value(0.0, 6.0);
  std::vector<AtomTable> out(kSamples);
  for (AtomTable &table : out) {
    table.per_dim.resize(static_cast<size_t>(dims) + 1);
    for (AtomValues &v : table.per_dim)
      for (int a = 0; a < kAtomCount; ++a) {
        const double x = std::exp2(log_value(rng));
        v[static_cast<size_t>(a)] = atom_at_least_one(static_cast<Atom>(a)) ? x : x - 1.0;
      }
  }
  return out;
}

struct Signature {
  std::vector<double> values; // metric-major, sample-minor
  double total = 0;
};

Signature signature(const MetricRow &row, const std::vector<AtomTable> &points) {
  Signature s;
  for (const Posynomial &p : row)
    for (const AtomTable &t : points) {
      s.values.push_back(evaluate(p, t));
      s.total += s.values.back();
    }
  return s;
}

bool numerically_le(const Signature &u, const Signature &v) {
  for (size_t i = 0; i < u.values.size(); ++i)
    if (u.values[i] > v.values[i] + 1e-9 * (1.0 + std::abs(v.values[i])))
      return false;
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
  const std::vector<AtomTable> points = sample_points(max_dim(rows));
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

  std::vector<size_t> survivors;
  for (size_t v : order) {
    if (std::any_of(survivors.begin(), survivors.end(), [&](size_t u) { return beats(u, v); }))
      continue;
    std::erase_if(survivors, [&](size_t u) { return beats(v, u); });
    survivors.push_back(v);
  }
  std::sort(survivors.begin(), survivors.end());
  return survivors;
}

} // namespace dse
