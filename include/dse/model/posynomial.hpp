// Symbolic metrics: sums of coefficient * monomial, where a monomial is a product of
// per-dimension factors of the tile sizes (T, t = ceil(X/T), T-1, ceil(T/P), ...).
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "dse/ir/limits.hpp"

namespace dse {

/// A per-dimension factor of the tile size T_x of dimension x (X its full size).
enum class Atom : std::uint8_t {
  Tile,       // T_x
  Trips,      // t_x = ceil(X / T_x)
  TileMinus1, // T_x - 1 (>= 0): halo extent of a loop above the retention depth
  SpanMinus1, // T_x * t_x - 1 (>= 0): halo extent of a loop below it
  CeilRows,   // ceil(T_x / rows of the array)
  CeilCols,   // ceil(T_x / cols of the array)
  Size,       // X: the positions a producer computes along a halo dim grow with it (a constant
              // per problem, kept symbolic so that a chain's candidates hold for every size)
};
inline constexpr int kAtomCount = 7;

/// Whether the atom is always >= 1 (multiplying by it never decreases a non-negative value).
bool atom_at_least_one(Atom a);
const char *atom_name(Atom a);

/// A factor (dim, atom) raised to a power, packed in two bytes (a monomial's factors are read
/// in every comparison and merge of the pruning).
struct Factor {
  static constexpr unsigned kKeyBits = 9;
  static constexpr unsigned kMaxPower = (1u << (16 - kKeyBits)) - 1;
  std::uint16_t key : kKeyBits = 0; // dim * kAtomCount + atom
  std::uint16_t power : 16 - kKeyBits = 1;
  int dim() const { return key / kAtomCount; }
  Atom atom() const { return static_cast<Atom>(key % kAtomCount); }
  auto operator<=>(const Factor &) const = default;
};
static_assert(sizeof(Factor) == 2);
/// The factor keys a workload's dimensions may have: 0 to kFactorKeys - 1.
inline constexpr std::size_t kFactorKeys = kMaxWorkloadDimensions * kAtomCount;
static_assert(kFactorKeys <= (std::size_t{1} << Factor::kKeyBits),
              "every key of a workload's dimensions fits a factor");

/// A product of factors, kept sorted by key; the empty monomial is the constant 1. Up to
/// kInlineFactors factors live inside the object (the fused nests of the shipped workloads need
/// at most 11), so building and copying the metrics' monomials allocates no memory; a wider one
/// holds its factors on the heap, in a power-of-two capacity of at least kFirstSpill. A term
/// (monomial and coefficient) takes 48 bytes.
class Monomial {
public:
  static constexpr std::size_t kInlineFactors = 14;

  Monomial() = default;
  Monomial(const Monomial &other);
  Monomial(Monomial &&other) noexcept;
  Monomial &operator=(const Monomial &other);
  Monomial &operator=(Monomial &&other) noexcept;
  ~Monomial() = default;
  static Monomial of(int dim, Atom atom);

  Monomial operator*(const Monomial &other) const;
  /// True if `other = *this * q` with q a product of atoms that are all >= 1.
  bool divides_with_large_quotient(const Monomial &other) const;
  std::span<const Factor> factors() const {
    return {spilled_ ? spilled_.get() : inline_.data(), size_};
  }
  int degree() const;
  /// This monomial without its Atom::Size factors, and their dims, one per power, in factor order.
  struct SizeSplit;
  SizeSplit split_sizes() const;

  /// Lexicographic over the factors (a monomial before any longer one it begins).
  std::strong_ordering operator<=>(const Monomial &other) const;
  bool operator==(const Monomial &other) const;

private:
  static constexpr std::size_t kFirstSpill = 16;
  /// The heap capacity that holds `size` factors.
  static std::size_t spill_capacity(std::size_t size);
  void push_back(Factor f);

  std::uint16_t size_ = 0;
  std::array<Factor, kInlineFactors> inline_{};
  std::unique_ptr<Factor[]> spilled_; // every factor, once there are more than kInlineFactors
};

struct Monomial::SizeSplit {
  Monomial rest;
  std::vector<int> size_dims;
};

/// One term of a posynomial.
struct Term {
  Monomial monomial;
  double coef = 0;
  bool operator==(const Term &) const = default;
};
static_assert(sizeof(Term) == 48);

/// A sum of terms coef * monomial. Coefficients may be negative (partial-sum read-backs).
class Posynomial {
public:
  Posynomial() = default;
  static Posynomial constant(double c);
  static Posynomial monomial(const Monomial &m, double coef = 1.0);
  static Posynomial atom(int dim, Atom a) { return monomial(Monomial::of(dim, a)); }

  Posynomial &operator+=(const Posynomial &other);
  Posynomial &operator-=(const Posynomial &other);
  Posynomial operator+(const Posynomial &other) const;
  Posynomial operator-(const Posynomial &other) const;
  Posynomial operator*(const Posynomial &other) const;
  Posynomial operator*(double s) const;

  /// This posynomial with every Atom::Size factor replaced by its dim's size (`sizes[dim]`).
  Posynomial with_sizes(const std::vector<std::int64_t> &sizes) const;

  /// Sorted by monomial, each monomial once, no zero coefficient.
  const std::vector<Term> &terms() const { return terms_; }
  bool operator==(const Posynomial &) const = default;

  std::string to_string(const std::vector<std::string> &dim_names) const;

private:
  /// The posynomial of `terms`, equal monomials summed in the order they come.
  static Posynomial merged(std::vector<Term> terms);
  /// this + sign * other, merged in one pass over both sorted term lists.
  void add_scaled(const Posynomial &other, double sign);
  std::vector<Term> terms_;
};

/// Sound symbolic check that `lhs(T) <= rhs(T)` for every tiling, treating each factor as an
/// independent variable in its range (>= 1, or >= 0 for the *Minus1 atoms): the negative mass of
/// `rhs - lhs` must be covered by positive terms whose monomials are large multiples of it.
bool provably_less_equal(const Posynomial &lhs, const Posynomial &rhs);

/// The distinct monomials of a sequence of posynomials numbered in monomial order (their ranks),
/// and the rank of every term added, each monomial found once through a hash table. The
/// monomials are held by pointer: the posynomials must outlive the ranks.
class MonomialRanks {
public:
  /// Adds p's terms, after those added before.
  void add(const Posynomial &p);
  /// Adds the terms added to `other` (not finished), after those added before: posynomials can be
  /// added in parts, each part on its own thread.
  void append(const MonomialRanks &other);
  /// Ranks the distinct monomials; call once every posynomial is added.
  void finish();
  std::size_t size() const { return monomials_.size(); }
  const Monomial &monomial(std::uint32_t rank) const { return *monomials_[rank]; }
  /// The rank of the monomial of the i-th term added.
  std::uint32_t term_rank(std::size_t i) const { return rank_of_number_[term_numbers_[i]]; }
  std::size_t terms() const { return term_numbers_.size(); }

private:
  struct Hash {
    std::size_t operator()(const Monomial *m) const;
  };
  struct Same {
    bool operator()(const Monomial *a, const Monomial *b) const { return *a == *b; }
  };
  std::unordered_map<const Monomial *, std::uint32_t, Hash, Same> number_; // as first met
  std::vector<const Monomial *> monomials_;   // per number until finish(), then per rank
  std::vector<std::uint32_t> term_numbers_;   // per term added, its monomial's number
  std::vector<std::uint32_t> rank_of_number_; // per number
};

/// Reads the terms of `rhs - lhs` off two term lists sorted by `key` (a term's monomial or its
/// rank) in one pass: put(key, coefficient) for each key of either list in order, a key of both
/// with the difference of their coefficients.
template <typename Term, typename Key, typename Put>
void for_each_difference_term(std::span<const Term> lhs, std::span<const Term> rhs, const Key &key,
                              const Put &put) {
  auto r = rhs.begin();
  auto l = lhs.begin();
  while (r != rhs.end() || l != lhs.end()) {
    const std::strong_ordering order = r == rhs.end()   ? std::strong_ordering::greater
                                       : l == lhs.end() ? std::strong_ordering::less
                                                        : key(*r) <=> key(*l);
    if (order < 0) {
      put(key(*r), r->coef);
      ++r;
    } else if (order > 0) {
      put(key(*l), -l->coef);
      ++l;
    } else {
      put(key(*r), r->coef - l->coef);
      ++r;
      ++l;
    }
  }
}

/// A term of `rhs - lhs` in provably_less_equal's coverage: `id` names its monomial to the
/// caller's divisibility test, `amount` is the coefficient's magnitude.
struct TermMass {
  std::uint32_t id;
  double amount;
  int degree; // of the monomial
};

/// The coverage of provably_less_equal over the terms of `rhs - lhs` split by sign (each list in
/// monomial order): the most specific negative terms first (they have the fewest possible
/// donors), each covered by the positive terms it divides with a large quotient
/// (`divides(negative id, positive id)`). The lists' amounts are used up.
template <typename Divides>
bool covers_negative_terms(std::vector<TermMass> &positive, std::vector<TermMass> &negative,
                           const Divides &divides) {
  // By decreasing degree, equal degrees in monomial order: an insertion sort (the lists are
  // short, and it allocates nothing).
  for (size_t i = 1; i < negative.size(); ++i)
    for (size_t j = i; j > 0 && negative[j - 1].degree < negative[j].degree; --j)
      std::swap(negative[j - 1], negative[j]);
  for (TermMass &neg : negative) {
    for (TermMass &pos : positive) {
      if (pos.amount <= 0.0 || !divides(neg.id, pos.id))
        continue;
      const double take = std::min(pos.amount, neg.amount);
      pos.amount -= take;
      neg.amount -= take;
      if (neg.amount <= 0.0)
        break;
    }
    if (neg.amount > 1e-9)
      return false;
  }
  return true;
}

} // namespace dse
