// Tests of src/config/einsum_parser.cpp: affine indices, whitespace, and syntax errors that
// point at the offending column.
#include "dse/config/einsum_parser.hpp"

#include <gtest/gtest.h>

#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::throws_at;

// The einsum string starts at line 3, column 10 of w.yaml; an error at offset o is at 10 + o.
const SourceLocation kWhere{"w.yaml", 3, 10};

ParsedEinsum parse(const std::string &text) { return parse_einsum(text, kWhere); }

::testing::AssertionResult fails(const std::string &text, int column, const std::string &message) {
  return throws_at([&] { parse(text); }, "w.yaml:3:" + std::to_string(column), message);
}

TEST(EinsumParser, Gemm) {
  const ParsedEinsum e = parse("C[m,n] += A[m,k] * B[k,n]");
  EXPECT_EQ(e.output.tensor, "C");
  EXPECT_EQ(e.output.text, "C[m,n]");
  ASSERT_EQ(e.output.indices.size(), 2u);
  EXPECT_EQ(e.output.indices[1].terms[0].dim, "n");
  EXPECT_EQ(e.output.indices[1].offset, 4);
  ASSERT_EQ(e.inputs.size(), 2u);
  EXPECT_EQ(e.inputs[0].tensor, "A");
  EXPECT_EQ(e.inputs[0].offset, 10);
  EXPECT_EQ(e.inputs[1].tensor, "B");
  EXPECT_EQ(e.inputs[1].offset, 19);
  EXPECT_EQ(e.inputs[1].indices[0].terms[0].dim, "k");
  EXPECT_EQ(e.inputs[1].indices[0].terms[0].coef, 1);
}

TEST(EinsumParser, ConstantsInAnIndex) {
  const ParsedEinsum e = parse("Y[k,p] += W[k,c,r] * X[c, p + r - 1, 2 + q - 3]");
  const ParsedIndex &padded = e.inputs[1].indices[1];
  EXPECT_EQ(padded.text, "p + r - 1");
  ASSERT_EQ(padded.terms.size(), 2u);
  EXPECT_EQ(padded.constant, -1);
  EXPECT_EQ(e.inputs[1].indices[2].constant, -1);
  EXPECT_EQ(e.inputs[1].indices[2].terms.at(0).dim, "q");
}

TEST(EinsumParser, ConstantErrors) {
  EXPECT_TRUE(fails("Y[p] += X[p-q]", 22, "only a constant can be subtracted in an index"));
  EXPECT_TRUE(fails("Y[p] += X[p-2*q]", 22, "only a constant can be subtracted in an index"));
  EXPECT_TRUE(fails("Y[p] += X[p,3]", 22, "index '3' names no dimension"));
  EXPECT_TRUE(fails("Y[p] += X[p-3000000000]", 22, "constant must be at most 2147483647"));
  EXPECT_TRUE(fails("Y[p] += X[p-2000000000-2000000000]", 33,
                    "the constants of an index must sum to at most 2147483647 in magnitude"));
}

TEST(EinsumParser, OneInput) {
  const ParsedEinsum e = parse("Y[i] += X[i,j]");
  ASSERT_EQ(e.inputs.size(), 1u);
  EXPECT_EQ(e.inputs[0].indices.size(), 2u);
}

TEST(EinsumParser, HaloIndices) {
  const ParsedEinsum e = parse("Y[k,p,q] += W[k,c,r,s] * X[c,p+r,q+s]");
  const ParsedIndex &index = e.inputs[1].indices[1];
  EXPECT_EQ(index.text, "p+r");
  ASSERT_EQ(index.terms.size(), 2u);
  EXPECT_EQ(index.terms[0].dim, "p");
  EXPECT_EQ(index.terms[1].dim, "r");
  EXPECT_EQ(index.terms[1].coef, 1);
  EXPECT_EQ(index.terms[1].offset, 31);
}

TEST(EinsumParser, StridedIndices) {
  const ParsedEinsum e = parse("Y[p] += X[2*p+r] * W[r]");
  const ParsedIndex &index = e.inputs[0].indices[0];
  ASSERT_EQ(index.terms.size(), 2u);
  EXPECT_EQ(index.terms[0].coef, 2);
  EXPECT_EQ(index.terms[0].dim, "p");
  EXPECT_EQ(index.terms[0].offset, 10);
  EXPECT_EQ(index.terms[1].coef, 1);
}

TEST(EinsumParser, WhitespaceAndExplicitCoefficients) {
  const ParsedEinsum e = parse("  Y [ p , q ]\t+=  X[ 2 * p + 1*r , q ]  *  W [r]  ");
  EXPECT_EQ(e.output.tensor, "Y");
  EXPECT_EQ(e.output.indices[1].terms[0].dim, "q");
  const ParsedIndex &index = e.inputs[0].indices[0];
  EXPECT_EQ(index.text, "2 * p + 1*r");
  EXPECT_EQ(index.terms[0].coef, 2);
  EXPECT_EQ(index.terms[1].coef, 1);
  EXPECT_EQ(index.terms[1].dim, "r");
  EXPECT_EQ(e.inputs[1].tensor, "W");
}

TEST(EinsumParser, MultiCharacterNames) {
  const ParsedEinsum e = parse("Out_1[head,seq] += In2[head,seq,d0]");
  EXPECT_EQ(e.output.tensor, "Out_1");
  EXPECT_EQ(e.inputs[0].indices[2].terms[0].dim, "d0");
}

TEST(EinsumParser, MissingAccumulate) {
  EXPECT_TRUE(
      fails("C[m,n] = A[m,k] * B[k,n]", 17, "expected '+=' after the output access, found '='"));
}

TEST(EinsumParser, MissingBracket) {
  EXPECT_TRUE(fails("C += A[m]", 12, "expected '[' after tensor name 'C', found '+'"));
}

TEST(EinsumParser, NegativeCoefficient) {
  EXPECT_TRUE(fails("C[m] += A[-1*m]", 20,
                    "expected a dimension name, found '-' (coefficients must be positive)"));
}

TEST(EinsumParser, ZeroCoefficient) {
  EXPECT_TRUE(fails("C[m] += A[0*m]", 20, "coefficient must be a positive integer, got 0"));
}

TEST(EinsumParser, HugeCoefficient) {
  EXPECT_TRUE(fails("C[m] += A[3000000000*m]", 20,
                    "coefficient must be at most 2147483647, got 3000000000"));
}

TEST(EinsumParser, CoefficientWithoutStar) {
  EXPECT_TRUE(fails("C[p] += A[2 p]", 22, "expected '*' after coefficient 2, found 'p'"));
}

TEST(EinsumParser, CoefficientAfterDimension) {
  EXPECT_TRUE(fails("C[p] += A[p*2]", 21,
                    "expected '+', ',' or ']' in the indices of 'A', found '*' (write a "
                    "coefficient before its dimension: 2*p)"));
}

TEST(EinsumParser, ThreeInputs) {
  EXPECT_TRUE(fails("C[m] += A[m] * B[m] * D[m]", 30, "an einsum takes at most two inputs"));
}

TEST(EinsumParser, TrailingText) {
  EXPECT_TRUE(fails("C[m] += A[m] B[m]", 23, "expected '*' or the end of the einsum, found 'B'"));
}

TEST(EinsumParser, Unterminated) {
  EXPECT_TRUE(fails("C[m] += A[m", 21,
                    "expected '+', ',' or ']' in the indices of 'A', found the end of the einsum"));
}

TEST(EinsumParser, EmptyIndexList) {
  EXPECT_TRUE(fails("C[] += A[m]", 12, "expected a dimension name, found ']'"));
}

TEST(EinsumParser, Empty) {
  EXPECT_TRUE(fails("", 10, "expected a tensor name, found the end of the einsum"));
}

TEST(EinsumParser, UnknownColumnStaysUnknown) {
  EXPECT_TRUE(throws_at(
      [] {
        parse_einsum("C[m] = A[m]", SourceLocation{"w.yaml", 3, 0});
      },
      "w.yaml:3", "expected '+='"));
}

} // namespace
} // namespace dse
