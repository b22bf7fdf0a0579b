// Posynomial arithmetic and the transportation-style non-negativity check behind pruning.
#include "dse/model/posynomial.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace dse {

bool atom_at_least_one(Atom a) { return a != Atom::TileMinus1 && a != Atom::SpanMinus1; }

const char *atom_name(Atom a) {
  switch (a) {
  case Atom::Tile:
    return "T";
  case Atom::Trips:
    return "t";
  case Atom::TileMinus1:
    return "(T-1)";
  case Atom::SpanMinus1:
    return "(Tt-1)";
  case Atom::CeilRows:
    return "ceilR";
  case Atom::CeilCols:
    return "ceilC";
  }
  return "?";
}

Monomial Monomial::of(int dim, Atom atom) {
  Monomial m;
  m.factors_.push_back({static_cast<std::uint16_t>(dim * kAtomCount + static_cast<int>(atom)), 1});
  return m;
}

Monomial Monomial::operator*(const Monomial &other) const {
  Monomial out;
  auto a = factors_.begin();
  auto b = other.factors_.begin();
  while (a != factors_.end() || b != other.factors_.end()) {
    if (b == other.factors_.end() || (a != factors_.end() && a->key < b->key)) {
      out.factors_.push_back(*a++);
    } else if (a == factors_.end() || b->key < a->key) {
      out.factors_.push_back(*b++);
    } else {
      out.factors_.push_back({a->key, static_cast<std::uint8_t>(a->power + b->power)});
      ++a;
      ++b;
    }
  }
  return out;
}

bool Monomial::divides_with_large_quotient(const Monomial &other) const {
  // Every factor of *this must appear in other with at least its power; every extra power in
  // other must be an atom >= 1.
  auto a = factors_.begin();
  for (const Factor &f : other.factors_) {
    unsigned extra = f.power;
    if (a != factors_.end() && a->key == f.key) {
      if (a->power > f.power)
        return false;
      extra = f.power - a->power;
      ++a;
    } else if (a != factors_.end() && a->key < f.key) {
      return false;
    }
    if (extra > 0 && !atom_at_least_one(f.atom()))
      return false;
  }
  return a == factors_.end();
}

int Monomial::degree() const {
  int d = 0;
  for (const Factor &f : factors_)
    d += f.power;
  return d;
}

Posynomial Posynomial::constant(double c) { return monomial(Monomial{}, c); }

Posynomial Posynomial::monomial(const Monomial &m, double coef) {
  Posynomial p;
  p.add_term(m, coef);
  return p;
}

void Posynomial::add_term(const Monomial &m, double coef) {
  if (coef == 0.0)
    return;
  auto [it, inserted] = terms_.emplace(m, coef);
  if (inserted)
    return;
  it->second += coef;
  if (it->second == 0.0)
    terms_.erase(it);
}

Posynomial &Posynomial::operator+=(const Posynomial &other) {
  for (const auto &[m, c] : other.terms_)
    add_term(m, c);
  return *this;
}

Posynomial &Posynomial::operator-=(const Posynomial &other) {
  for (const auto &[m, c] : other.terms_)
    add_term(m, -c);
  return *this;
}

Posynomial Posynomial::operator+(const Posynomial &other) const {
  Posynomial out = *this;
  return out += other;
}

Posynomial Posynomial::operator-(const Posynomial &other) const {
  Posynomial out = *this;
  return out -= other;
}

Posynomial Posynomial::operator*(const Posynomial &other) const {
  Posynomial out;
  for (const auto &[ma, ca] : terms_)
    for (const auto &[mb, cb] : other.terms_)
      out.add_term(ma * mb, ca * cb);
  return out;
}

Posynomial Posynomial::operator*(double s) const {
  Posynomial out;
  for (const auto &[m, c] : terms_)
    out.add_term(m, c * s);
  return out;
}

std::string Posynomial::to_string(const std::vector<std::string> &dim_names) const {
  if (terms_.empty())
    return "0";
  std::ostringstream out;
  bool first = true;
  for (const auto &[m, c] : terms_) {
    out << (first ? (c < 0 ? "-" : "") : (c < 0 ? " - " : " + ")) << std::abs(c);
    for (const Factor &f : m.factors()) {
      out << "*" << atom_name(f.atom()) << "_" << dim_names.at(static_cast<size_t>(f.dim()));
      if (f.power > 1)
        out << "^" << static_cast<int>(f.power);
    }
    first = false;
  }
  return out.str();
}

bool provably_less_equal(const Posynomial &lhs, const Posynomial &rhs) {
  const Posynomial diff = rhs - lhs;
  std::vector<std::pair<Monomial, double>> positive;
  std::vector<std::pair<Monomial, double>> negative;
  for (const auto &[m, c] : diff.terms())
    (c > 0 ? positive : negative).emplace_back(m, std::abs(c));
  if (negative.empty())
    return true;
  // Cover the most specific negative terms first: they have the fewest possible donors.
  std::stable_sort(negative.begin(), negative.end(), [](const auto &a, const auto &b) {
    return a.first.degree() > b.first.degree();
  });
  for (auto &[neg, need] : negative) {
    for (auto &[pos, have] : positive) {
      if (have <= 0.0 || !neg.divides_with_large_quotient(pos))
        continue;
      const double take = std::min(have, need);
      have -= take;
      need -= take;
      if (need <= 0.0)
        break;
    }
    if (need > 1e-9)
      return false;
  }
  return true;
}

} // namespace dse
