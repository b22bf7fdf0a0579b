// Einsums equal up to a renaming of their dimensions: the renaming, and what keeps two einsums
// apart (sizes, coefficients, input order, a residual, a residual that is an input).
#include <gtest/gtest.h>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/einsum_renaming.hpp"

namespace dse {
namespace {

/// Whether the workload's second einsum is its first renamed; a third einsum uses every
/// dimension of `dims` (a workload's dimensions must all be used).
std::optional<std::vector<int>>
renaming(const std::string &dims, const std::string &first, const std::string &second,
         const std::string &third = "F[m,n] += G[m,d,k,l,e] * H[n,d]") {
  const Workload w = parse_workload("name: w\ndims: " + dims + "\nops:\n  - {name: a, einsum: \"" +
                                        first + "\"}\n  - {name: b, einsum: \"" + second +
                                        "\"}\n  - {name: c, einsum: \"" + third + "\"}\n",
                                    "w.yaml");
  return einsum_renaming(w, w.ops[0].einsum, w.ops[1].einsum);
}

TEST(EinsumRenaming, DimensionsOfEqualSizesRenameOneToOne) {
  // Dimensions m, n, d, k, l, e are 0..5.
  const std::string dims = "{m: 8, n: 8, d: 4, k: 2, l: 2, e: 3}";
  EXPECT_EQ(renaming(dims, "A[m,k] += X[m,d] * W[d,k]", "B[n,l] += Y[n,d] * V[d,l]"),
            (std::vector<int>{1, -1, 2, 4, -1, -1}));
  // The same einsum, names and all.
  EXPECT_EQ(renaming(dims, "A[m,k] += X[m,d] * W[d,k]", "B[m,k] += X[m,d] * V[d,k]"),
            (std::vector<int>{0, -1, 2, 3, -1, -1}));
}

TEST(EinsumRenaming, WhatKeepsEinsumsApart) {
  const std::string dims = "{m: 8, n: 8, d: 4, k: 2, l: 2, e: 3}";
  const std::string a = "A[m,k] += X[m,d] * W[d,k]";
  EXPECT_FALSE(renaming(dims, a, "B[m,e] += X[m,d] * V[d,e]"));   // sizes 2 and 3
  EXPECT_FALSE(renaming(dims, a, "B[m,k] += V[d,k] * X[m,d]"));   // inputs swapped
  EXPECT_FALSE(renaming(dims, a, "B[m,k] += X[m,d] * V[k,d]"));   // weight transposed
  EXPECT_FALSE(renaming(dims, a, "B[m,k] += X[m,d] * V[d,k,l]")); // one index more
  EXPECT_FALSE(renaming("{p: 8, c: 2, r: 3, k: 2}", "A[k,p] += W[k,c,r] * X[c,p+r]",
                        "B[k,p] += V[k,c,r] * Z[c,2*p+r]",
                        "C[k,p] += U[k,c,r] * Y[c,p+r]")); // strided
  EXPECT_EQ(renaming("{p: 8, c: 2, r: 3, k: 2}", "A[k,p] += W[k,c,r] * X[c,p+r]",
                     "B[k,p] += V[k,c,r] * Z[c,p+r]", "C[k,p] += U[k,c,r] * Y[c,p+r]"),
            (std::vector<int>{0, 1, 2, 3})); // a window alike
}

TEST(EinsumRenaming, AResidualThatIsAnInputIsNotOneOfItsOwn) {
  const Workload w = parse_workload("name: w\ndims: {m: 8, k: 4, l: 4}\nops:\n"
                                    "  - {name: a, einsum: \"A[m,l] += X[m,k] * W[k,l]\", "
                                    "residual: X}\n"
                                    "  - {name: b, einsum: \"B[m,l] += Y[m,k] * V[k,l]\", "
                                    "residual: R}\n"
                                    "  - {name: c, einsum: \"C[m,l] += Z[m,k] * U[k,l]\", "
                                    "residual: Z}\n"
                                    "  - {name: d, einsum: \"D[m,l] += T[m,k] * S[k,l]\"}\n",
                                    "w.yaml");
  EXPECT_FALSE(einsum_renaming(w, w.ops[0].einsum, w.ops[1].einsum));
  EXPECT_TRUE(einsum_renaming(w, w.ops[0].einsum, w.ops[2].einsum));
  EXPECT_FALSE(einsum_renaming(w, w.ops[1].einsum, w.ops[3].einsum)); // a residual against none
}

} // namespace
} // namespace dse
