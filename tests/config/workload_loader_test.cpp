// Tests of src/config/workload_loader.cpp: the accepted format and one test per error message,
// each checking the exact file:line:col (columns inside einsum strings included).
#include "dse/config/workload_loader.hpp"

#include <gtest/gtest.h>

#include "common/workloads.hpp"
#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::error_message;
using testing::throws_at;
using testing::with;

// Line 2 is `dims: {h: 4, m: 8, n: 8, k: 2, l: 2}`; line 4 is the qk op, whose einsum string
// starts at column 25 (offset o in it is column 25 + o); line 5 the softmax and line 6 pv.
const std::string kBase = test_common::attention_workload("test-wl", 4, 8, 8, 2, 2);

::testing::AssertionResult fails(const std::string &yaml, const std::string &line_col,
                                 const std::string &message) {
  return throws_at([&] { parse_workload(yaml, "wl.yaml"); }, "wl.yaml:" + line_col, message);
}

TEST(WorkloadLoader, ParsesAttention) {
  const Workload w = parse_workload(kBase, "wl.yaml");
  EXPECT_EQ(w.name, "test-wl");
  EXPECT_EQ(w.source_file, "wl.yaml");
  ASSERT_EQ(w.dims.size(), 5u);
  EXPECT_EQ(w.dims[1].name, "m");
  EXPECT_EQ(w.dims[1].size, 8);
  EXPECT_EQ(w.dims[1].where.line, 2);
  EXPECT_EQ(w.dims[1].where.column, 14);
  ASSERT_EQ(w.ops.size(), 3u);
  const Operator &qk = w.ops[0];
  EXPECT_EQ(qk.kind, OpKind::Einsum);
  EXPECT_EQ(qk.where.line, 4);
  EXPECT_EQ(qk.where.column, 5);
  EXPECT_EQ(qk.einsum.output.tensor, "S");
  ASSERT_EQ(qk.einsum.inputs.size(), 2u);
  EXPECT_EQ(qk.einsum.inputs[1].tensor, "K");
  EXPECT_EQ(qk.einsum.inputs[1].indices[1].terms[0].dim, w.dim_index("n"));
  EXPECT_EQ(qk.reduction_dims(), std::vector<int>{w.dim_index("k")});
  const Operator &softmax = w.ops[1];
  EXPECT_EQ(softmax.kind, OpKind::Softmax);
  EXPECT_EQ(softmax.tensor, "S");
  EXPECT_EQ(softmax.out, "P");
  EXPECT_EQ(softmax.over_dim, w.dim_index("n"));
  EXPECT_DOUBLE_EQ(softmax.ops_per_element, 4.0);
  EXPECT_EQ(w.ops[2].einsum.inputs[0].tensor, "P");
}

TEST(WorkloadLoader, ElementwiseDefaultsAndOverrides) {
  const std::string yaml = with(kBase, "  - {name: pv,",
                                "  - {name: relu, kind: elementwise, tensor: P, out: R}\n"
                                "  - {name: scale, kind: elementwise, tensor: R, out: R2, "
                                "ops_per_element: 2}\n"
                                "  - {name: pv,");
  const Workload w = parse_workload(with(yaml, "P[h,m,n] * V", "R2[h,m,n] * V"), "wl.yaml");
  EXPECT_EQ(w.ops[2].kind, OpKind::Elementwise);
  EXPECT_DOUBLE_EQ(w.ops[2].ops_per_element, 1.0);
  EXPECT_DOUBLE_EQ(w.ops[3].ops_per_element, 2.0);
  EXPECT_EQ(w.ops[4].einsum.inputs[0].tensor, "R2");
}

TEST(WorkloadLoader, StridedConvolution) {
  const Workload w = parse_workload("name: c\ndims: {p: 56, r: 3, c: 8, k: 4}\nops:\n"
                                    "  - name: conv\n    kind: einsum\n"
                                    "    einsum: Y[k,p] += W[k,c,r] * X[c, 2*p + r]\n",
                                    "wl.yaml");
  const IndexExpr &index = w.ops[0].einsum.inputs[1].indices[1];
  ASSERT_EQ(index.terms.size(), 2u);
  EXPECT_EQ(index.terms[0].dim, w.dim_index("p"));
  EXPECT_EQ(index.terms[0].coef, 2);
  EXPECT_EQ(index.terms[1].dim, w.dim_index("r"));
  EXPECT_FALSE(index.is_plain());
}

TEST(WorkloadLoader, PlainScalarEinsumColumns) {
  EXPECT_TRUE(fails("name: c\ndims: {m: 4}\nops:\n  - name: a\n    einsum: Y[m] += X[z]\n", "5:23",
                    "undefined dimension 'z' in einsum of op 'a'"));
}

TEST(WorkloadLoader, UndefinedDimension) {
  EXPECT_TRUE(fails(with(kBase, "S[h,m,n] +=", "S[h,m,z] +="), "4:31",
                    "undefined dimension 'z' in einsum of op 'qk'"));
}

TEST(WorkloadLoader, OutputIndexMustBeBare) {
  EXPECT_TRUE(fails(with(kBase, "S[h,m,n] +=", "S[h,m+k,n] +="), "4:29",
                    "op 'qk': output index 'm+k' must be a bare dimension"));
}

TEST(WorkloadLoader, OutputIndexWithCoefficient) {
  EXPECT_TRUE(fails(with(kBase, "S[h,m,n] +=", "S[h,2*m,n] +="), "4:29",
                    "op 'qk': output index '2*m' must be a bare dimension"));
}

TEST(WorkloadLoader, RepeatedDimensionInAccess) {
  EXPECT_TRUE(fails(with(kBase, "Q[h,m,k]", "Q[h,m,m]"), "4:43",
                    "op 'qk': dimension 'm' repeats in access 'Q[h,m,m]'"));
}

TEST(WorkloadLoader, OutputDimensionNotRead) {
  EXPECT_TRUE(fails(with(kBase, "K[h,n,k]", "K[h,k]"), "4:31",
                    "op 'qk': output dimension 'n' does not index any input"));
}

TEST(WorkloadLoader, ReadsOwnOutput) {
  EXPECT_TRUE(
      fails(with(kBase, "Q[h,m,k]", "S[h,m,k]"), "4:37", "op 'qk' reads its own output 'S'"));
}

TEST(WorkloadLoader, EinsumSyntaxError) {
  EXPECT_TRUE(fails(with(kBase, "S[h,m,n] +=", "S[h,m,n] ="), "4:34",
                    "op 'qk': invalid einsum: expected '+=' after the output access, found '='"));
}

TEST(WorkloadLoader, ZeroCoefficient) {
  EXPECT_TRUE(fails(with(kBase, "Q[h,m,k]", "Q[h,m,0*k]"), "4:43",
                    "op 'qk': invalid einsum: coefficient must be a positive integer, got 0"));
}

TEST(WorkloadLoader, UnusedDimension) {
  EXPECT_TRUE(
      fails(with(kBase, "l: 2}", "l: 2, z: 3}"), "2:38", "dimension 'z' is not used by any op"));
}

TEST(WorkloadLoader, DimensionSizeZero) {
  EXPECT_TRUE(
      fails(with(kBase, "h: 4", "h: 0"), "2:11", "dims: h must be a positive integer, got 0"));
}

TEST(WorkloadLoader, DimensionSizeTooLarge) {
  EXPECT_TRUE(fails(with(kBase, "h: 4", "h: 2147483648"), "2:11",
                    "dims: h must be at most 2147483647, got 2147483648"));
}

TEST(WorkloadLoader, DimensionSizeNotInteger) {
  EXPECT_TRUE(fails(with(kBase, "h: 4", "h: four"), "2:11",
                    "dims: key 'h' must be an integer, got 'four'"));
}

TEST(WorkloadLoader, DimensionNameNotIdentifier) {
  EXPECT_TRUE(fails(with(kBase, "h: 4", "h-1: 4"), "2:8",
                    "dims: dimension name 'h-1' must be an identifier"));
}

TEST(WorkloadLoader, NoDimensions) {
  EXPECT_TRUE(fails(with(kBase, "{h: 4, m: 8, n: 8, k: 2, l: 2}", "{}"), "2:7",
                    "dims: dims must declare at least one dimension"));
}

TEST(WorkloadLoader, NoOps) {
  EXPECT_TRUE(fails("name: x\ndims: {m: 1}\nops: []\n", "3:6", "ops must list at least one op"));
}

TEST(WorkloadLoader, DuplicateOpName) {
  EXPECT_TRUE(fails(with(kBase, "name: pv", "name: qk"), "6:12", "duplicate op name 'qk'"));
}

TEST(WorkloadLoader, TensorProducedTwice) {
  EXPECT_TRUE(fails(with(kBase, "O[h,m,l]", "S[h,m,l]"), "6:25",
                    "op 'pv': tensor 'S' is already produced by op 'qk'"));
}

TEST(WorkloadLoader, TensorReadBeforeProduced) {
  EXPECT_TRUE(fails("name: x\ndims: {m: 4, k: 4}\nops:\n"
                    "  - {name: a, einsum: \"Y[m] += X[m,k]\"}\n"
                    "  - {name: b, einsum: \"X[m,k] += Z[m,k]\"}\n",
                    "5:24", "op 'b': tensor 'X' is read by op 'a' before this op produces it"));
}

// A 3x3 convolution over a 56x56 output of another: reading 58x58 would need the padding.
const std::string kConvPair = "name: x\ndims: {c: 2, k: 2, p: 56, q: 56, r: 3, s: 3}\nops:\n"
                              "  - {name: a, einsum: \"Y[k,p,q] += X[c,p,q] * W[k,c]\"}\n"
                              "  - {name: b, einsum: \"Z[k,p,q] += Y[c,p+r,q+s] * V[k,c,r,s]\"}\n";

TEST(WorkloadLoader, WindowPastTheProducersOutput) {
  EXPECT_TRUE(fails(kConvPair, "5:36",
                    "op 'b': index 2 of 'Y' (p+r) spans 58 elements, but op 'a' writes 56 there "
                    "('p'); a window past the producer's output needs the padding written out"));
}

TEST(WorkloadLoader, StridedWindowPastTheProducersOutput) {
  EXPECT_TRUE(fails(with(with(kConvPair, "p+r", "p"), "q+s", "2*q+s"), "5:36",
                    "op 'b': index 3 of 'Y' (2*q+s) spans 113 elements, but op 'a' writes 56"));
}

TEST(WorkloadLoader, WindowWithinTheProducersOutput) {
  const std::string within = with(with(kConvPair, "p: 56, q: 56", "p: 54, q: 54, i: 56, j: 56"),
                                  "Y[k,p,q] += X[c,p,q]", "Y[k,i,j] += X[c,i,j]");
  EXPECT_EQ(parse_workload(within, "w.yaml").ops.size(), 2u);
}

TEST(WorkloadLoader, PaddedWindowReadsZerosAroundTheProducersOutput) {
  const Workload w = parse_workload(with(kConvPair, "Y[c,p+r,q+s]", "Y[c,p+r-1,q+s-1]"), "w.yaml");
  const IndexExpr &read = w.ops[1].einsum.inputs[0].indices[1];
  EXPECT_EQ(read.offset, -1);
  EXPECT_FALSE(read.is_plain());
  EXPECT_EQ(index_text(read, w.dims), "p+r-1");
}

// A read of nothing but padding fails, and so does a read past the end without padding.
TEST(WorkloadLoader, PaddingStillReadsTheProducersOutput) {
  EXPECT_TRUE(fails(with(kConvPair, "Y[c,p+r,q+s]", "Y[c,p+r-70,q+s]"), "5:36",
                    "op 'b': index 2 of 'Y' (p+r-70) reads positions -70..-13, none of the 56 "
                    "that op 'a' writes there ('p')"));
  EXPECT_TRUE(fails(with(kConvPair, "Y[c,p+r,q+s]", "Y[c,p+r+1,q+s]"), "5:36",
                    "op 'b': index 2 of 'Y' (p+r+1) reads positions 1..58, but op 'a' writes 56 "
                    "there ('p')"));
}

// A residual block: the second convolution's output starts from the first one's input.
const std::string kBlock = "name: x\ndims: {c: 2, k: 2, p: 8, r: 3, a: 8}\nops:\n"
                           "  - {name: a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r-1]\"}\n"
                           "  - {name: b, einsum: \"Z[c,a] += W2[c,k,r] * Y[k,a+r-1]\", "
                           "residual: X}\n";

TEST(WorkloadLoader, ResidualIsReadAtTheOutputsIndices) {
  const Workload w = parse_workload(kBlock, "w.yaml");
  EXPECT_EQ(w.ops[1].einsum.residual, "X");
  EXPECT_EQ(w.ops[1].einsum.residual_access().indices.size(), 2u);
}

TEST(WorkloadLoader, ResidualOfAnotherRank) {
  EXPECT_TRUE(fails(with(kBlock, "X[c,p+r-1]", "X[c,p+r-1,k]"), "5:69",
                    "op 'b': tensor 'X' has 2 indices here but 3 in op 'a'"));
}

TEST(WorkloadLoader, ResidualOfOtherExtents) {
  EXPECT_TRUE(fails(with(with(kBlock, "residual: X", "residual: Y"), "k: 2", "k: 3"), "5:69",
                    "op 'b': residual 'Y' has 3 elements at index 1, the output 2"));
}

TEST(WorkloadLoader, ResidualIsNotATensorName) {
  EXPECT_TRUE(fails(with(kBlock, "residual: X", "residual: \"X 1\""), "5:69",
                    "op 'b': the residual must name a tensor as an einsum does (letters, digits, "
                    "_), got 'X 1'"));
}

TEST(WorkloadLoader, ResidualIsTheOutput) {
  EXPECT_TRUE(fails(with(kBlock, "residual: X", "residual: Z"), "5:69",
                    "op 'b': the residual must be another tensor than the output 'Z'"));
}

TEST(WorkloadLoader, OutputIndexWithAConstant) {
  EXPECT_TRUE(fails(with(kConvPair, "Z[k,p,q]", "Z[k,p+1,q]"), "5:28",
                    "op 'b': output index 'p+1' must be a bare dimension"));
}

TEST(WorkloadLoader, RankMismatch) {
  EXPECT_TRUE(fails(with(kBase, "P[h,m,n] * V[h,n,l]", "P[h,m] * V[h,n,l]"), "6:37",
                    "op 'pv': tensor 'P' has 2 indices here but 3 in op 'softmax'"));
}

TEST(WorkloadLoader, SoftmaxOfUnproducedTensor) {
  EXPECT_TRUE(fails(with(kBase, "tensor: S", "tensor: Q"), "5:53",
                    "op 'softmax': tensor 'Q' is not produced by an earlier op"));
}

TEST(WorkloadLoader, SoftmaxOverUndefinedDimension) {
  EXPECT_TRUE(fails(with(kBase, "over: n", "over: z"), "5:42",
                    "op 'softmax': over names undefined dimension 'z'"));
}

TEST(WorkloadLoader, SoftmaxOverDimensionNotInTensor) {
  EXPECT_TRUE(fails(with(kBase, "over: n", "over: k"), "5:42",
                    "op 'softmax': dimension 'k' does not index tensor 'S'"));
}

TEST(WorkloadLoader, OutClashesWithExistingTensor) {
  EXPECT_TRUE(fails(with(kBase, "out: P", "out: Q"), "5:61",
                    "op 'softmax': out tensor 'Q' already exists"));
}

TEST(WorkloadLoader, NonPositiveOpsPerElement) {
  EXPECT_TRUE(fails(with(kBase, "out: P}", "out: P, ops_per_element: 0}"), "5:81",
                    "op 'softmax': ops_per_element must be a positive number, got 0"));
}

TEST(WorkloadLoader, UnknownKind) {
  EXPECT_TRUE(fails(with(kBase, "kind: softmax", "kind: relu"), "5:27",
                    "op 'softmax': kind must be one of einsum, softmax, elementwise, got 'relu'"));
}

TEST(WorkloadLoader, UnknownOpKey) {
  EXPECT_TRUE(fails(with(kBase, "{name: qk,", "{name: qk, over: n,"), "4:16",
                    "unknown key 'over' in op 'qk' (expected one of: name, kind, einsum, "
                    "residual)"));
}

TEST(WorkloadLoader, ElementwiseTakesNoOver) {
  EXPECT_TRUE(fails(with(kBase, "kind: softmax", "kind: elementwise"), "5:40",
                    "unknown key 'over' in op 'softmax'"));
}

TEST(WorkloadLoader, MissingEinsum) {
  EXPECT_TRUE(
      fails(with(kBase, "{name: qk, einsum: \"S[h,m,n] += Q[h,m,k] * K[h,n,k]\"}", "{name: qk}"),
            "4:5", "op 'qk': missing required key 'einsum'"));
}

TEST(WorkloadLoader, OpWithoutName) {
  EXPECT_TRUE(fails(with(kBase, "name: qk, ", ""), "4:5", "ops[0]: missing required key 'name'"));
}

TEST(WorkloadLoader, MissingTopLevelKey) {
  EXPECT_TRUE(fails(with(kBase, "name: test-wl\n", ""), "1:1", "missing required key 'name'"));
}

TEST(WorkloadLoader, UnknownTopLevelKey) {
  EXPECT_TRUE(fails(with(kBase, "ops:", "operators:"), "3:1",
                    "unknown key 'operators' at the top level (expected one of: name, dims, ops)"));
}

TEST(WorkloadLoader, TensorTooLarge) {
  EXPECT_TRUE(fails("name: x\ndims: {a: 2147483647, b: 2147483647}\nops:\n"
                    "  - {name: outer, einsum: \"C[a,b] += A[a] * B[b]\"}\n",
                    "4:28",
                    "op 'outer': tensor 'C' has more than 1125899906842624 (2^50) elements"));
}

TEST(WorkloadLoader, HaloExtentCountsTowardsSize) {
  const std::string yaml = "name: x\ndims: {p: 33554432, q: 33554432, r: 2}\nops:\n"
                           "  - {name: conv, einsum: \"Y[p,q] += X[p+r,q] * W[r]\"}\n";
  EXPECT_TRUE(fails(yaml, "4:37", "op 'conv': tensor 'X' has more than 1125899906842624"));
  // Without the halo, X holds exactly 2^50 elements, which is allowed.
  EXPECT_NO_THROW(parse_workload(with(yaml, "X[p+r,q]", "X[p,q]"), "wl.yaml"));
}

TEST(WorkloadLoader, MalformedYaml) {
  EXPECT_TRUE(
      fails(with(kBase, "out: P}", "out: P"), "6:5", "invalid yaml: end of map flow not found"));
}

TEST(WorkloadLoader, MissingFileNamesThePath) {
  EXPECT_EQ(error_message([] { load_workload("/nonexistent/wl.yaml"); }),
            "cannot read file '/nonexistent/wl.yaml': no such file or directory");
}

} // namespace
} // namespace dse
