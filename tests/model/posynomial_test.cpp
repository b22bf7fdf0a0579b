// Posynomial arithmetic: canonical sorted terms, cancellation, and monomials of more factors than
// a monomial holds inline (wide einsums), which must multiply, compare, evaluate and prune alike.
#include "dse/model/posynomial.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "dse/model/tiling.hpp"

namespace dse {
namespace {

/// The product of the Tile atoms of dims [first, last), multiplied in the order given.
Monomial tiles(int first, int last, bool descending = false) {
  Monomial m;
  for (int i = 0; i < last - first; ++i)
    m = m * Monomial::of(descending ? last - 1 - i : first + i, Atom::Tile);
  return m;
}

TEST(Posynomial, TermsStaySortedAndCancelledTermsVanish) {
  const Posynomial a = Posynomial::atom(0, Atom::Tile);
  const Posynomial b = Posynomial::atom(1, Atom::Trips) * 3.0;
  const Posynomial product = (a + b) * (a - b);
  ASSERT_EQ(product.terms().size(), 2U); // the cross terms cancel
  EXPECT_TRUE(product.terms()[0].monomial < product.terms()[1].monomial);
  EXPECT_EQ(product, a * a - b * b);
  EXPECT_TRUE((a - a).terms().empty());
  EXPECT_TRUE((a * 0.0).terms().empty());
  EXPECT_EQ(b * a, a * b);
}

TEST(Posynomial, SizesBecomeCoefficients) {
  // (2 X_0 + 1) * T_1 - X_0^2 * T_1 + 3 X_1 at X_0 = 5, X_1 = 4: -14 T_1 + 12, each monomial once.
  const Posynomial x0 = Posynomial::atom(0, Atom::Size);
  const Posynomial t1 = Posynomial::atom(1, Atom::Tile);
  const Posynomial p = (x0 * 2.0 + Posynomial::constant(1)) * t1 - x0 * x0 * t1 +
                       Posynomial::atom(1, Atom::Size) * 3.0;
  EXPECT_EQ(p.with_sizes({5, 4}), t1 * -14.0 + Posynomial::constant(12));
  // A size that cancels a term leaves no zero term behind.
  EXPECT_TRUE((x0 * t1 - t1 * 5.0).with_sizes({5, 4}).terms().empty());
  // Evaluated with the sizes in its atom table, the symbolic form gives the same value.
  AtomTable atoms;
  for (std::int64_t size : {5, 4}) {
    AtomValues v{};
    v[static_cast<size_t>(Atom::Tile)] = 3.0;
    v[static_cast<size_t>(Atom::Size)] = static_cast<double>(size);
    atoms.per_dim.push_back(v);
  }
  EXPECT_EQ(evaluate(p, atoms), evaluate(p.with_sizes({5, 4}), atoms));
}

TEST(Posynomial, MonomialsOfEveryWidthCopyMoveAndAssign) {
  // Inline, at the inline limit, spilled, and across each growth of the heap capacity.
  const int kInline = static_cast<int>(Monomial::kInlineFactors);
  for (int width : {0, 1, kInline, kInline + 1, 16, 17, 32, 33, 64}) {
    const Monomial m = tiles(0, width);
    ASSERT_EQ(m.factors().size(), static_cast<size_t>(width));
    EXPECT_EQ(m, tiles(0, width, true)) << width;
    Monomial copy = m;
    EXPECT_EQ(copy, m) << width;
    Monomial moved = std::move(copy);
    EXPECT_EQ(moved, m) << width;
    EXPECT_TRUE(copy.factors().empty()) << width; // NOLINT(bugprone-use-after-move): emptied
    Monomial assigned = tiles(0, 20);
    assigned = m;
    EXPECT_EQ(assigned, m) << width;
    assigned = tiles(1, 3);
    EXPECT_EQ(assigned, tiles(1, 3)) << width;
    assigned = std::move(moved);
    EXPECT_EQ(assigned, m) << width;
    // Growing a copy leaves the original as it was.
    const Monomial longer = assigned * Monomial::of(width, Atom::Trips);
    EXPECT_EQ(longer.factors().size(), static_cast<size_t>(width) + 1) << width;
    EXPECT_EQ(assigned, m) << width;
  }
}

TEST(Posynomial, MonomialsWiderThanTheirInlineStorage) {
  constexpr int kWide = static_cast<int>(Monomial::kInlineFactors) + 3;
  const Monomial up = tiles(0, kWide);
  const Monomial down = tiles(0, kWide, true);
  ASSERT_EQ(up.factors().size(), static_cast<size_t>(kWide));
  EXPECT_EQ(up.degree(), kWide);
  EXPECT_EQ(up, down); // the product is the same whatever the order
  const Monomial copy = up;
  EXPECT_EQ(copy, up);
  for (size_t i = 1; i < up.factors().size(); ++i)
    EXPECT_LT(up.factors()[i - 1].key, up.factors()[i].key);

  // Ordering across the inline limit: a monomial comes before any longer one it begins.
  const Monomial inline_full = tiles(0, static_cast<int>(Monomial::kInlineFactors));
  EXPECT_TRUE(inline_full < up);
  EXPECT_TRUE(up < tiles(1, kWide)); // dim 0 first: the smaller first key
  EXPECT_TRUE(inline_full.divides_with_large_quotient(up));
  EXPECT_FALSE(up.divides_with_large_quotient(inline_full));

  // Squaring doubles every power, and evaluation multiplies every factor.
  const Monomial square = up * up;
  EXPECT_EQ(square.degree(), 2 * kWide);
  AtomTable atoms;
  for (int d = 0; d < kWide; ++d) {
    AtomValues v{};
    v[static_cast<size_t>(Atom::Tile)] = 2.0;
    atoms.per_dim.push_back(v);
  }
  EXPECT_EQ(evaluate_monomial(square, atoms), std::ldexp(1.0, 2 * kWide));

  const Posynomial p = Posynomial::monomial(up);
  EXPECT_TRUE(provably_less_equal(p, p * Posynomial::atom(0, Atom::Trips)));
  EXPECT_FALSE(provably_less_equal(p * Posynomial::atom(0, Atom::Trips), p));
  EXPECT_EQ((p + p).terms().size(), 1U);
  EXPECT_EQ((p + p).terms()[0].coef, 2.0);
}

TEST(Posynomial, RanksAddedInPartsAreTheRanksAddedAtOnce) {
  // Posynomials sharing some monomials, added one by one or in parts appended in order (the
  // numbering as first met differs, ranks must not).
  std::vector<Posynomial> rows;
  for (int i = 0; i < 12; ++i)
    rows.push_back(Posynomial::atom(i % 5, Atom::Tile) * Posynomial::atom(i % 3, Atom::Trips) +
                   Posynomial::atom(7 - i % 4, Atom::Size) * double(i + 1));
  MonomialRanks at_once;
  for (const Posynomial &p : rows)
    at_once.add(p);
  MonomialRanks in_parts, second, third;
  for (size_t i = 0; i < rows.size(); ++i)
    (i < 5 ? second : third).add(rows[i]);
  in_parts.add(rows[0]); // a posynomial added before the parts, again in them
  in_parts.append(second);
  in_parts.append(third);
  at_once.finish();
  in_parts.finish();
  ASSERT_EQ(in_parts.size(), at_once.size());
  for (std::uint32_t r = 0; r < at_once.size(); ++r) {
    EXPECT_EQ(in_parts.monomial(r), at_once.monomial(r));
    if (r > 0) {
      EXPECT_TRUE(at_once.monomial(r - 1) < at_once.monomial(r));
    }
  }
  ASSERT_EQ(in_parts.terms(), at_once.terms() + rows[0].terms().size());
  for (size_t t = 0; t < at_once.terms(); ++t)
    EXPECT_EQ(in_parts.term_rank(t + rows[0].terms().size()), at_once.term_rank(t));
}

} // namespace
} // namespace dse
