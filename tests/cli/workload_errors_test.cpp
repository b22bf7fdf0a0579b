// Bad workload files given to `dse explore`: YAML structure, dimension sizes, einsum syntax and
// operator rules, one test per error message, each checking the exact text and that no output
// file is written.
#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

// Line 2 holds the dims {m: 8, k: 8, n: 8}; line 4 the op `g`, whose einsum string
// "C[m,n] += A[m,k] * B[k,n]" starts at column 24.
const std::string kWorkload = test_common::gemm_workload("w", 8, 8, 8, "g");

class WorkloadErrors : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("hw.yaml", kTinyHardware);
  }
  /// `dse explore` with `workload` as w.yaml fails with "w.yaml:<message>".
  void expect_workload_error(const std::string &workload, const std::string &message) const {
    write("w.yaml", workload);
    expect_error({"explore", "--hw", "hw.yaml", "--workload", "w.yaml"}, "w.yaml:" + message);
  }
  /// The base workload with its einsum replaced by `einsum`.
  static std::string einsum(const std::string &einsum) {
    return with(kWorkload, "C[m,n] += A[m,k] * B[k,n]", einsum);
  }
  /// The base workload with `ops` appended after its einsum.
  static std::string plus(const std::string &ops) { return kWorkload + ops; }
};

TEST_F(WorkloadErrors, ValidFileIsAccepted) {
  write("w.yaml", kWorkload);
  run_ok({"explore", "--hw", "hw.yaml", "--workload", "w.yaml"});
}

TEST_F(WorkloadErrors, MalformedYaml) {
  expect_workload_error(with(kWorkload, "n: 8}", "n: 8"),
                        "3:4: error: invalid yaml: end of map flow not found");
}

TEST_F(WorkloadErrors, UnknownTopLevelKey) {
  expect_workload_error(kWorkload + "batch: 4\n", "5:1: error: unknown key 'batch' at the top "
                                                  "level (expected one of: name, dims, ops)");
}

TEST_F(WorkloadErrors, UnknownOpKey) {
  expect_workload_error(with(kWorkload, "{name: g,", "{name: g, stride: 2,"),
                        "4:15: error: unknown key 'stride' in op 'g' (expected one of: name, "
                        "kind, einsum, residual)");
}

TEST_F(WorkloadErrors, MissingDims) {
  expect_workload_error(with(kWorkload, "dims: {m: 8, k: 8, n: 8}\n", ""),
                        "1:1: error: missing required key 'dims'");
}

// The searches hold a set of dimensions as the bits of a 64-bit word.
TEST_F(WorkloadErrors, MoreThanSixtyFourDimensions) {
  std::string dims = "m: 8, k: 8, n: 8";
  for (int i = 0; i < 62; ++i)
    dims += ", x" + std::to_string(i) + ": 1";
  expect_workload_error(with(kWorkload, "m: 8, k: 8, n: 8", dims),
                        "2:7: error: dims: 65 dimensions declared; a workload has at most 64");
}

TEST_F(WorkloadErrors, MissingEinsum) {
  expect_workload_error(with(kWorkload, ", einsum: \"C[m,n] += A[m,k] * B[k,n]\"", ""),
                        "4:5: error: op 'g': missing required key 'einsum'");
}

TEST_F(WorkloadErrors, NoOps) {
  expect_workload_error("name: w\ndims: {m: 8}\nops: []\n",
                        "3:6: error: ops must list at least one op");
}

TEST_F(WorkloadErrors, NoDims) {
  expect_workload_error(with(kWorkload, "{m: 8, k: 8, n: 8}", "{}"),
                        "2:7: error: dims: dims must declare at least one dimension");
}

TEST_F(WorkloadErrors, DimsIsAList) {
  expect_workload_error(with(kWorkload, "{m: 8, k: 8, n: 8}", "[m, k, n]"),
                        "2:7: error: key 'dims' must be a map, got a list");
}

TEST_F(WorkloadErrors, SizeIsText) {
  expect_workload_error(with(kWorkload, "k: 8", "k: eight"),
                        "2:17: error: dims: key 'k' must be an integer, got 'eight'");
}

TEST_F(WorkloadErrors, EinsumIsAList) {
  expect_workload_error(with(kWorkload, "\"C[m,n] += A[m,k] * B[k,n]\"", "[C, A, B]"),
                        "4:23: error: op 'g': key 'einsum' must be a string, got a list");
}

TEST_F(WorkloadErrors, ZeroSize) {
  expect_workload_error(with(kWorkload, "k: 8", "k: 0"),
                        "2:17: error: dims: k must be a positive integer, got 0");
}

TEST_F(WorkloadErrors, NegativeSize) {
  expect_workload_error(with(kWorkload, "k: 8", "k: -8"),
                        "2:17: error: dims: k must be a positive integer, got -8");
}

TEST_F(WorkloadErrors, NonFiniteSize) {
  expect_workload_error(with(kWorkload, "k: 8", "k: .inf"),
                        "2:17: error: dims: key 'k' must be an integer, got '.inf'");
}

TEST_F(WorkloadErrors, HugeSize) {
  expect_workload_error(with(kWorkload, "k: 8", "k: 4294967296"),
                        "2:17: error: dims: k must be at most 2147483647, got 4294967296");
}

TEST_F(WorkloadErrors, HugeTensor) {
  expect_workload_error(with(kWorkload, "{m: 8, k: 8,", "{m: 2000000000, k: 2000000000,"),
                        "4:34: error: op 'g': tensor 'A' has more than 1125899906842624 (2^50) "
                        "elements");
}

TEST_F(WorkloadErrors, DimensionNameIsNotAnIdentifier) {
  expect_workload_error(with(kWorkload, "n: 8}", "n: 8, 2x: 4}"),
                        "2:26: error: dims: dimension name '2x' must be an identifier (letters, "
                        "digits, _)");
}

TEST_F(WorkloadErrors, EinsumWithoutAccumulation) {
  expect_workload_error(einsum("C[m,n] = A[m,k] * B[k,n]"),
                        "4:31: error: op 'g': invalid einsum: expected '+=' after the output "
                        "access, found '='");
}

TEST_F(WorkloadErrors, EinsumWithoutBrackets) {
  expect_workload_error(einsum("C += A[m,k] * B[k,n]"),
                        "4:26: error: op 'g': invalid einsum: expected '[' after tensor name 'C', "
                        "found '+'");
}

TEST_F(WorkloadErrors, EinsumWithThreeInputs) {
  expect_workload_error(einsum("C[m,n] += A[m,k] * B[k,n] * D[n]"),
                        "4:50: error: op 'g': invalid einsum: an einsum takes at most two inputs");
}

TEST_F(WorkloadErrors, EinsumEndsEarly) {
  expect_workload_error(einsum("C[m,n] += A[m,k] * B[k,"),
                        "4:47: error: op 'g': invalid einsum: expected a dimension name, found "
                        "the end of the einsum");
}

TEST_F(WorkloadErrors, EinsumWithTrailingText) {
  expect_workload_error(einsum("C[m,n] += A[m,k] * B[k,n] + D[n]"),
                        "4:50: error: op 'g': invalid einsum: expected '*' or the end of the "
                        "einsum, found '+'");
}

TEST_F(WorkloadErrors, EinsumWithNegativeCoefficient) {
  expect_workload_error(einsum("C[m,n] += A[m,-k] * B[k,n]"),
                        "4:38: error: op 'g': invalid einsum: expected a dimension name, found "
                        "'-' (coefficients must be positive)");
}

TEST_F(WorkloadErrors, EinsumWithCoefficientAfterDimension) {
  expect_workload_error(einsum("C[m,n] += A[m,k*2] * B[k,n]"),
                        "4:39: error: op 'g': invalid einsum: expected '+', ',' or ']' in the "
                        "indices of 'A', found '*' (write a coefficient before its dimension: "
                        "2*p)");
}

TEST_F(WorkloadErrors, EinsumWithZeroCoefficient) {
  expect_workload_error(einsum("C[m,n] += A[m,0*k] * B[k,n]"),
                        "4:38: error: op 'g': invalid einsum: coefficient must be a positive "
                        "integer, got 0");
}

TEST_F(WorkloadErrors, EinsumWithHugeCoefficient) {
  expect_workload_error(einsum("C[m,n] += A[m,4294967296*k] * B[k,n]"),
                        "4:38: error: op 'g': invalid einsum: coefficient must be at most "
                        "2147483647, got 4294967296");
}

TEST_F(WorkloadErrors, UndefinedDimension) {
  expect_workload_error(einsum("C[m,n] += A[m,x] * B[k,n]"),
                        "4:38: error: undefined dimension 'x' in einsum of op 'g'");
}

TEST_F(WorkloadErrors, UnusedDimension) {
  expect_workload_error(with(kWorkload, "n: 8}", "n: 8, j: 2}"),
                        "2:26: error: dimension 'j' is not used by any op");
}

TEST_F(WorkloadErrors, OutputIndexIsAffine) {
  expect_workload_error(einsum("C[m+k,n] += A[m,k] * B[k,n]"),
                        "4:26: error: op 'g': output index 'm+k' must be a bare dimension");
}

TEST_F(WorkloadErrors, DimensionRepeatsInAnAccess) {
  expect_workload_error(einsum("C[m,n] += A[m,m] * B[k,n]"),
                        "4:38: error: op 'g': dimension 'm' repeats in access 'A[m,m]'");
}

TEST_F(WorkloadErrors, OutputDimensionIndexesNoInput) {
  expect_workload_error(einsum("C[m,n] += A[m,k] * B[k]"),
                        "4:28: error: op 'g': output dimension 'n' does not index any input");
}

TEST_F(WorkloadErrors, EinsumReadsItsOwnOutput) {
  expect_workload_error(einsum("C[m,n] += C[m,k] * B[k,n]"),
                        "4:34: error: op 'g' reads its own output 'C'");
}

TEST_F(WorkloadErrors, DuplicateOpName) {
  expect_workload_error(plus("  - {name: g, einsum: \"D[m,n] += C[m,k] * B[k,n]\"}\n"),
                        "5:12: error: ops[1]: duplicate op name 'g'");
}

TEST_F(WorkloadErrors, UnknownOpKind) {
  expect_workload_error(plus("  - {name: r, kind: relu, tensor: C, out: D}\n"),
                        "5:21: error: op 'r': kind must be one of einsum, softmax, elementwise, "
                        "got 'relu'");
}

TEST_F(WorkloadErrors, SoftmaxOverUndefinedDimension) {
  expect_workload_error(plus("  - {name: s, kind: softmax, over: q, tensor: C, out: P}\n"),
                        "5:36: error: op 's': over names undefined dimension 'q'");
}

TEST_F(WorkloadErrors, SoftmaxOverDimensionOfAnotherTensor) {
  expect_workload_error(plus("  - {name: s, kind: softmax, over: k, tensor: C, out: P}\n"),
                        "5:36: error: op 's': dimension 'k' does not index tensor 'C'");
}

TEST_F(WorkloadErrors, ElementwiseOnAWorkloadInput) {
  expect_workload_error(plus("  - {name: r, kind: elementwise, tensor: A, out: A2}\n"),
                        "5:42: error: op 'r': tensor 'A' is not produced by an earlier op");
}

TEST_F(WorkloadErrors, ElementwiseOverwritesATensor) {
  expect_workload_error(plus("  - {name: r, kind: elementwise, tensor: C, out: B}\n"),
                        "5:50: error: op 'r': out tensor 'B' already exists");
}

TEST_F(WorkloadErrors, ZeroOpsPerElement) {
  expect_workload_error(
      plus("  - {name: r, kind: elementwise, tensor: C, out: D, ops_per_element: 0}\n"),
      "5:70: error: op 'r': ops_per_element must be a positive number, got 0");
}

TEST_F(WorkloadErrors, TensorProducedTwice) {
  expect_workload_error(plus("  - {name: h, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"),
                        "5:24: error: op 'h': tensor 'C' is already produced by op 'g'");
}

TEST_F(WorkloadErrors, TensorReadBeforeItIsProduced) {
  expect_workload_error(plus("  - {name: h, einsum: \"A[m,k] += C[m,n] * B[n,k]\"}\n"),
                        "5:24: error: op 'h': tensor 'A' is read by op 'g' before this op "
                        "produces it");
}

TEST_F(WorkloadErrors, TensorRankChanges) {
  expect_workload_error(plus("  - {name: h, einsum: \"D[m] += B[m] * C[m,n]\"}\n"),
                        "5:32: error: op 'h': tensor 'B' has 1 indices here but 2 in op 'g'");
}

TEST_F(WorkloadErrors, ATensorReadTwiceGoesThroughDram) {
  write("w.yaml", plus("  - {name: h1, einsum: \"D[m,n] += C[m,k] * B[k,n]\"}\n"
                       "  - {name: h2, einsum: \"E[m,n] += C[m,k] * B[k,n]\"}\n"));
  const RunResult r = run({"explore", "--hw", "hw.yaml", "--workload", "w.yaml", "-v"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // Three problems searched alone: C is written once and read by both.
  for (const char *op : {"\ng: dataflows", "\nh1: dataflows", "\nh2: dataflows"})
    EXPECT_NE(r.err.find(op), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("fused"), std::string::npos) << r.err;
}

TEST_F(WorkloadErrors, GraphThatChainsInTooManyWays) {
  std::string ops;
  for (int i = 0; i < 7; ++i) {
    const std::string n = std::to_string(i);
    ops += "  - {name: a" + n + ", einsum: \"A" + n + "[m,n] += X[m,k] * B[k,n]\"}\n" +
           "  - {name: b" + n + ", einsum: \"F" + n + "[m,n] += X[m,k] * B[k,n]\"}\n" +
           "  - {name: c" + n + ", einsum: \"D" + n + "[m,n] += A" + n + "[m,k] * F" + n +
           "[k,n]\"}\n";
  }
  // The base einsum and a0 are siblings (they read B, with weights A and X of their own).
  expect_workload_error(plus(ops), "25:5: error: op 'c6': the einsums of workload 'w' chain in "
                                   "more than 64 ways (each einsum that reads the results of "
                                   "several others continues the chain of one of them, and "
                                   "siblings stack in several ways: --no-stacking leaves them "
                                   "apart); `dse network` plans graphs this branched");
}

} // namespace
} // namespace dse::testing
