// Posynomial arithmetic and the transportation-style non-negativity check behind pruning.
#include "dse/model/posynomial.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <sstream>

#include "dse/support/check.hpp"

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
  case Atom::Size:
    return "X";
  }
  return "?";
}

Monomial::Monomial(const Monomial &other) : size_(other.size_), inline_(other.inline_) {
  if (other.spilled_) {
    spilled_ = std::make_unique_for_overwrite<Factor[]>(spill_capacity(size_));
    std::copy_n(other.spilled_.get(), size_, spilled_.get());
  }
}

Monomial::Monomial(Monomial &&other) noexcept
    : size_(std::exchange(other.size_, 0)), inline_(other.inline_),
      spilled_(std::move(other.spilled_)) {}

Monomial &Monomial::operator=(const Monomial &other) {
  if (this != &other)
    *this = Monomial(other);
  return *this;
}

Monomial &Monomial::operator=(Monomial &&other) noexcept {
  size_ = std::exchange(other.size_, 0);
  inline_ = other.inline_;
  spilled_ = std::move(other.spilled_);
  return *this;
}

std::size_t Monomial::spill_capacity(std::size_t size) {
  return std::max(kFirstSpill, std::bit_ceil(size));
}

void Monomial::push_back(Factor f) {
  if (size_ < kInlineFactors) {
    inline_[size_++] = f;
    return;
  }
  // Full: the inline factors, or a heap capacity (a power of two) reached.
  if (!spilled_ || (size_ >= kFirstSpill && std::has_single_bit(std::size_t{size_}))) {
    auto grown = std::make_unique_for_overwrite<Factor[]>(spill_capacity(size_ + 1u));
    std::copy_n(factors().data(), size_, grown.get());
    spilled_ = std::move(grown);
  }
  spilled_[size_++] = f;
}

Monomial Monomial::of(int dim, Atom atom) {
  Monomial m;
  m.push_back({static_cast<std::uint16_t>(dim * kAtomCount + static_cast<int>(atom)), 1});
  return m;
}

Monomial Monomial::operator*(const Monomial &other) const {
  Monomial out;
  const std::span<const Factor> fa = factors();
  const std::span<const Factor> fb = other.factors();
  auto a = fa.begin();
  auto b = fb.begin();
  while (a != fa.end() || b != fb.end()) {
    if (b == fb.end() || (a != fa.end() && a->key < b->key)) {
      out.push_back(*a++);
    } else if (a == fa.end() || b->key < a->key) {
      out.push_back(*b++);
    } else {
      const unsigned power = a->power + b->power;
      DSE_CHECK(power <= Factor::kMaxPower,
                "a metric with a factor raised to more than " + std::to_string(Factor::kMaxPower));
      out.push_back({a->key, static_cast<std::uint16_t>(power)});
      ++a;
      ++b;
    }
  }
  return out;
}

bool Monomial::divides_with_large_quotient(const Monomial &other) const {
  // Every factor of *this must appear in other with at least its power; every extra power in
  // other must be an atom >= 1.
  const std::span<const Factor> mine = factors();
  auto a = mine.begin();
  for (const Factor &f : other.factors()) {
    unsigned extra = f.power;
    if (a != mine.end() && a->key == f.key) {
      if (a->power > f.power)
        return false;
      extra = f.power - a->power;
      ++a;
    } else if (a != mine.end() && a->key < f.key) {
      return false;
    }
    if (extra > 0 && !atom_at_least_one(f.atom()))
      return false;
  }
  return a == mine.end();
}

int Monomial::degree() const {
  int d = 0;
  for (const Factor &f : factors())
    d += f.power;
  return d;
}

std::strong_ordering Monomial::operator<=>(const Monomial &other) const {
  const std::span<const Factor> a = factors();
  const std::span<const Factor> b = other.factors();
  const size_t common = std::min(a.size(), b.size());
  for (size_t i = 0; i < common; ++i)
    if (a[i].key != b[i].key || a[i].power != b[i].power)
      return a[i].key != b[i].key ? a[i].key <=> b[i].key : a[i].power <=> b[i].power;
  return a.size() <=> b.size();
}

bool Monomial::operator==(const Monomial &other) const {
  return std::ranges::equal(factors(), other.factors());
}

Posynomial Posynomial::constant(double c) { return monomial(Monomial{}, c); }

Posynomial Posynomial::monomial(const Monomial &m, double coef) {
  Posynomial p;
  if (coef != 0.0)
    p.terms_.push_back({m, coef});
  return p;
}

void Posynomial::add_scaled(const Posynomial &other, double sign) {
  if (other.terms_.empty())
    return;
  std::vector<Term> out;
  out.reserve(terms_.size() + other.terms_.size());
  auto a = terms_.begin();
  auto b = other.terms_.begin();
  while (a != terms_.end() || b != other.terms_.end()) {
    const std::strong_ordering order = a == terms_.end()         ? std::strong_ordering::greater
                                       : b == other.terms_.end() ? std::strong_ordering::less
                                                                 : a->monomial <=> b->monomial;
    if (order < 0) {
      out.push_back(std::move(*a++));
    } else if (order > 0) {
      out.push_back({b->monomial, sign * b->coef});
      ++b;
    } else {
      const double sum = a->coef + sign * b->coef;
      if (sum != 0.0)
        out.push_back({std::move(a->monomial), sum});
      ++a;
      ++b;
    }
  }
  terms_ = std::move(out);
}

Posynomial &Posynomial::operator+=(const Posynomial &other) {
  add_scaled(other, 1.0);
  return *this;
}

Posynomial &Posynomial::operator-=(const Posynomial &other) {
  add_scaled(other, -1.0);
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
  std::vector<Term> products;
  products.reserve(terms_.size() * other.terms_.size());
  for (const auto &[ma, ca] : terms_)
    for (const auto &[mb, cb] : other.terms_)
      products.push_back({ma * mb, ca * cb});
  return merged(std::move(products));
}

Posynomial Posynomial::merged(std::vector<Term> terms) {
  std::stable_sort(terms.begin(), terms.end(),
                   [](const Term &x, const Term &y) { return x.monomial < y.monomial; });
  Posynomial out;
  for (Term &t : terms) {
    if (!out.terms_.empty() && out.terms_.back().monomial == t.monomial)
      out.terms_.back().coef += t.coef;
    else
      out.terms_.push_back(std::move(t));
  }
  std::erase_if(out.terms_, [](const Term &t) { return t.coef == 0.0; });
  return out;
}

Monomial::SizeSplit Monomial::split_sizes() const {
  SizeSplit out;
  for (const Factor &f : factors())
    for (int k = 0; k < f.power; ++k) {
      if (f.atom() == Atom::Size)
        out.size_dims.push_back(f.dim());
      else
        out.rest = out.rest * Monomial::of(f.dim(), f.atom());
    }
  return out;
}

Posynomial Posynomial::with_sizes(const std::vector<std::int64_t> &sizes) const {
  std::vector<Term> terms;
  terms.reserve(terms_.size());
  for (const auto &[m, c] : terms_) {
    Monomial::SizeSplit split = m.split_sizes();
    Term t{std::move(split.rest), c};
    for (int dim : split.size_dims)
      t.coef *= static_cast<double>(sizes.at(static_cast<size_t>(dim)));
    terms.push_back(std::move(t));
  }
  return merged(std::move(terms));
}

Posynomial Posynomial::operator*(double s) const {
  Posynomial out;
  if (s == 0.0)
    return out;
  out.terms_ = terms_;
  for (Term &t : out.terms_)
    t.coef *= s;
  std::erase_if(out.terms_, [](const Term &t) { return t.coef == 0.0; });
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

std::size_t MonomialRanks::Hash::operator()(const Monomial *m) const {
  std::size_t h = 0;
  for (const Factor &f : m->factors())
    h = h * 1000003 + (static_cast<std::size_t>(f.key) << 8 | f.power);
  return h;
}

void MonomialRanks::add(const Posynomial &p) {
  for (const auto &[m, c] : p.terms()) {
    const auto [at, added] = number_.try_emplace(&m, static_cast<std::uint32_t>(monomials_.size()));
    if (added)
      monomials_.push_back(&m);
    term_numbers_.push_back(at->second);
  }
}

void MonomialRanks::append(const MonomialRanks &other) {
  std::vector<std::uint32_t> number_of(other.monomials_.size()); // other's number -> this one's
  for (size_t k = 0; k < other.monomials_.size(); ++k) {
    const auto [at, added] =
        number_.try_emplace(other.monomials_[k], static_cast<std::uint32_t>(monomials_.size()));
    if (added)
      monomials_.push_back(other.monomials_[k]);
    number_of[k] = at->second;
  }
  for (std::uint32_t number : other.term_numbers_)
    term_numbers_.push_back(number_of[number]);
}

void MonomialRanks::finish() {
  std::vector<std::uint32_t> by_rank(monomials_.size());
  std::iota(by_rank.begin(), by_rank.end(), std::uint32_t{0});
  std::sort(by_rank.begin(), by_rank.end(),
            [&](std::uint32_t a, std::uint32_t b) { return *monomials_[a] < *monomials_[b]; });
  rank_of_number_.resize(by_rank.size());
  std::vector<const Monomial *> ranked;
  for (std::uint32_t number : by_rank) {
    rank_of_number_[number] = static_cast<std::uint32_t>(ranked.size());
    ranked.push_back(monomials_[number]);
  }
  monomials_ = std::move(ranked);
  number_.clear();
}

bool provably_less_equal(const Posynomial &lhs, const Posynomial &rhs) {
  // The terms of rhs - lhs, split by sign, read off both sorted term lists in one pass; a term's
  // id is its monomial's index in `monomials`. Pruning calls this for millions of pairs: each
  // thread keeps the lists' storage.
  thread_local std::vector<const Monomial *> monomials;
  thread_local std::vector<TermMass> positive;
  thread_local std::vector<TermMass> negative;
  monomials.clear();
  positive.clear();
  negative.clear();
  const auto put = [&](const Monomial &m, double c) {
    const auto id = static_cast<std::uint32_t>(monomials.size());
    if (c > 0)
      positive.push_back({id, c, 0});
    else if (c < 0)
      negative.push_back({id, -c, m.degree()});
    else
      return;
    monomials.push_back(&m);
  };
  for_each_difference_term<Term>(
      lhs.terms(), rhs.terms(), [](const Term &t) -> const Monomial & { return t.monomial; }, put);
  return covers_negative_terms(positive, negative, [&](std::uint32_t neg, std::uint32_t pos) {
    return monomials[neg]->divides_with_large_quotient(*monomials[pos]);
  });
}

} // namespace dse
