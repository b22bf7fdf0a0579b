// Kernel plans without compiling: the arena peak equals the model's buffer words (the
// online-softmax state included), panels and register blocks follow the hardware, and every
// schedule the emitter cannot execute exactly is refused with its reason.
#include "codegen/kernel_fixture.hpp"

#include "dse/codegen/kernel_plan.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/support/error.hpp"

namespace dse::codegen_test {
namespace {

Hardware hardware() { return parse_hardware(vector_hardware(4096), "test-hw.yaml"); }

SegmentPlan plan_of(const KernelSegment &s) {
  return plan_segment(*s.problem, s.candidate, s.tiling, codegen_target(hardware()));
}

double model_buffer_words(const KernelSegment &s) {
  return evaluate_mapping(*s.problem, s.candidate, s.tiling, hardware(), LatencyModel::Roofline)
      .totals.buffer_words;
}

const std::string kPair = test_common::gemm_pair_workload("pair", 24, 16, 20, 18);
const std::string kAttention = test_common::attention_workload("attention", 2, 12, 20, 8, 6);

TEST(KernelPlan, ArenaPeakIsTheModelsBufferNeed) {
  const Schedule fused(
      kPair, mapping("pair", {segment("[mm1, mm2]", "[l, m]", "mm1: [n, k], mm2: [n]",
                                      "A: 2, B: 0, C: 2, D: 1, E: 2", "m: 8, n: 20, k: 8, l: 6")}));
  const Schedule single(
      kPair,
      mapping("pair",
              {segment("[mm1]", "", "mm1: [k, m, n]", "A: 2, B: 1, C: 3", "m: 7, n: 6, k: 5"),
               segment("[mm2]", "", "mm2: [m, l, n]", "C: 0, D: 3, E: 2", "m: 8, n: 5, l: 9")}));
  for (const Schedule *s : {&fused, &single})
    for (const KernelSegment &seg : s->segments())
      EXPECT_EQ(static_cast<double>(plan_of(seg).peak_words), model_buffer_words(seg));
}

TEST(KernelPlan, OnlineSoftmaxStateIsThreeWordsPerRow) {
  const Schedule s(kAttention,
                   mapping("attention", {segment("[qk, pv]", "[h, m, n]", "qk: [k], pv: [l]",
                                                 "Q: 2, K: 3, S: 3, V: 3, O: 2",
                                                 "h: 1, m: 6, n: 8, k: 8, l: 6")}));
  const KernelSegment seg = s.segments().at(0);
  const SegmentPlan plan = plan_of(seg);
  ASSERT_EQ(plan.softmax.form, SoftmaxForm::Online);
  EXPECT_EQ(plan.tiles.at(static_cast<size_t>(plan.softmax.state_tile)).words, 3 * 6);
  EXPECT_EQ(static_cast<double>(plan.peak_words), model_buffer_words(seg));
}

TEST(KernelPlan, ArenaPeakIsTheModelsBufferNeedOnEveryAttentionFrontPoint) {
  // Online (normalised dim in the prefix) and whole-row forms, with and without recompute.
  const Front front(kAttention, hardware());
  ASSERT_GE(front.size(), 2u);
  for (size_t p = 0; p < front.size(); ++p)
    for (const KernelSegment &seg : front.point(p))
      EXPECT_EQ(static_cast<double>(plan_of(seg).peak_words), model_buffer_words(seg))
          << "front point " << p;
}

TEST(KernelPlan, PanelsAndRegisterRowsFollowTheHardware) {
  const Hardware host =
      load_hardware(std::string(DSE_SOURCE_DIR) + "/hw_configs/host-cpu-avx512.yaml");
  const CodegenTarget t = codegen_target(host);
  EXPECT_EQ(t.lanes, 16);
  EXPECT_EQ(t.col_block(), 32);
  EXPECT_EQ(t.rows, 12);
  EXPECT_EQ(t.cores, 2);
  const std::string gemm = test_common::gemm_workload("gemm", 256, 16, 256);
  const Schedule s(gemm, mapping("gemm", {segment("[mm]", "", "mm: [m, n, k]", "A: 3, B: 3, C: 2",
                                                  "m: 128, n: 128, k: 16")}));
  const KernelSegment seg = s.segments().at(0);
  const SegmentPlan plan =
      plan_segment(*seg.problem, seg.candidate, seg.tiling, codegen_target(hardware()));
  const OpPlan &op = plan.ops.at(0);
  EXPECT_EQ(plan.dims.at(static_cast<size_t>(op.vec_dim)).name, "n");
  EXPECT_EQ(plan.dims.at(static_cast<size_t>(op.row_dim)).name, "m");
  EXPECT_EQ(op.rows, 8); // the 128-word register level holds 8 rows of 16 lanes
  EXPECT_EQ(plan.tiles.at(static_cast<size_t>(op.a_tile)).block, 8);   // A in panels of 8 rows
  EXPECT_EQ(plan.tiles.at(static_cast<size_t>(op.b_tile)).block, 16);  // B in panels of 16 lanes
  EXPECT_EQ(plan.tiles.at(static_cast<size_t>(op.c_tile)).block, 128); // C plain
}

/// The reason plan_segment gives for the only segment of `mapping_yaml`.
std::string refusal(const std::string &workload, const std::string &mapping_yaml) {
  const Schedule s(workload, mapping_yaml);
  try {
    plan_of(s.segments().at(0));
  } catch (const UserError &e) {
    return e.message();
  }
  return "";
}

TEST(KernelPlan, RefusesElementwiseOperators) {
  const char *const relu = R"(name: relu
dims: {m: 4, k: 4, n: 4}
ops:
  - {name: mm, einsum: "C[m,n] += A[m,k] * B[k,n]"}
  - {name: act, kind: elementwise, tensor: C, out: D}
)";
  EXPECT_EQ(refusal(relu, mapping("relu", {segment("[mm]", "", "mm: [m, n, k]", "A: 0, B: 0, C: 0",
                                                   "m: 4, n: 4, k: 4")})),
            "elementwise op 'act' names no function, so the emitter cannot execute it");
}

TEST(KernelPlan, RefusesOneInputEinsums) {
  const char *const sum = R"(name: rowsum
dims: {m: 4, k: 4}
ops:
  - {name: total, einsum: "Y[m] += X[m,k]"}
)";
  EXPECT_EQ(refusal(sum, mapping("rowsum", {segment("[total]", "", "total: [m, k]", "X: 0, Y: 0",
                                                    "m: 4, k: 4")})),
            "op 'total' has one input; the emitter executes two-input einsums only");
}

TEST(KernelPlan, RefusesADepthwiseProducerFusedThroughAWindow) {
  // Its channels are read by both inputs and its positions run at run time: no lane dimension.
  const char *const dw = R"(name: dw
dims: {c: 8, p: 10, r: 3, k: 4, a: 8, u: 3}
ops:
  - {name: depthwise, einsum: "Y[c,p] += W1[c,r] * X[c,p+r]"}
  - {name: conv, einsum: "Z[k,a] += W2[k,c,u] * Y[c,a+u]"}
)";
  EXPECT_EQ(
      refusal(dw, mapping("dw", {segment("[depthwise, conv]", "[a]", "depthwise: [c], conv: [k, c]",
                                         "X: 1, W1: 0, Y: 1, W2: 0, Z: 1", "a: 4, c: 8, k: 4")})),
      "op 'depthwise' has no output dimension that exactly one input reads contiguously, "
      "so the emitter has no vector dimension for it");
}

TEST(KernelPlan, RefusesSoftmaxSplitOverADimTheConsumerKeeps) {
  const char *const over_m = R"(name: attention-m
dims: {h: 2, m: 12, n: 20, k: 8, l: 6}
ops:
  - {name: qk, einsum: "S[h,m,n] += Q[h,m,k] * K[h,n,k]"}
  - {name: softmax, kind: softmax, over: m, tensor: S, out: P}
  - {name: pv, einsum: "O[h,m,l] += P[h,m,n] * V[h,n,l]"}
)";
  EXPECT_EQ(refusal(over_m,
                    mapping("attention-m", {segment("[qk, pv]", "[h, m]", "qk: [n, k], pv: [n, l]",
                                                    "Q: 2, K: 0, S: 2, V: 0, O: 2",
                                                    "h: 1, m: 4, n: 20, k: 8, l: 6")})),
            "softmax 'softmax' over 'm' is split by a prefix loop, but op 'pv' does not reduce "
            "over it: rows cannot be normalised before they are used");
}

TEST(KernelPlan, RefusesSoftmaxOnTheOutputOfAFusedPair) {
  const char *const tail = R"(name: tail
dims: {m: 4, k: 4, n: 4, l: 4}
ops:
  - {name: mm1, einsum: "C[m,n] += A[m,k] * B[k,n]"}
  - {name: mm2, einsum: "E[m,l] += C[m,n] * D[n,l]"}
  - {name: norm, kind: softmax, over: l, tensor: E, out: F}
)";
  EXPECT_EQ(refusal(tail, mapping("tail", {segment("[mm1, mm2]", "[m]", "mm1: [n, k], mm2: [l, n]",
                                                   "A: 1, B: 0, C: 1, D: 0, E: 1",
                                                   "m: 4, n: 4, k: 4, l: 4")})),
            "softmax op 'norm' on the output of fused op 'mm2' is not executed: the model counts "
            "no pass for it");
}

} // namespace
} // namespace dse::codegen_test
