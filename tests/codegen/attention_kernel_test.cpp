// Emitted attention kernels: online softmax (running max and sum, the consumer's output
// rescaled, with recompute and output spills), whole-row softmax when the normalised dim stays in
// the sub-nests, and the unfused softmax pass; compiled, checked against a real softmax and
// counted against the model.
#include "codegen/kernel_fixture.hpp"

#include "dse/config/hardware_loader.hpp"

namespace dse::codegen_test {
namespace {

const std::string kAttention = test_common::attention_workload("attention", 2, 12, 20, 8, 6);

Hardware hardware(std::int64_t gb_words = 4096) {
  return parse_hardware(vector_hardware(gb_words), "test-hw.yaml");
}

KernelOutcome expect_fused(const std::string &title, const std::string &prefix,
                           const std::string &loops, const std::string &retention,
                           const std::string &tiles) {
  const Schedule s(kAttention,
                   mapping("attention", {segment("[qk, pv]", prefix, loops, retention, tiles)}));
  return expect_matches_model(title, s.segments(), hardware());
}

TEST(AttentionKernel, OnlineSoftmaxOverPaddedKeyTiles) {
  expect_fused("attention online", "[h, m, n]", "qk: [k], pv: [l]", "Q: 2, K: 3, S: 3, V: 3, O: 2",
               "h: 1, m: 6, n: 8, k: 8, l: 6");
}

TEST(AttentionKernel, OnlineSoftmaxWithRecomputeAndOutputSpills) {
  // l is recomputed inside the n loop (the state is updated on its first trip only), and O is
  // allocated below n: it is rescaled when read back and normalised before its last write.
  const KernelOutcome k =
      expect_fused("attention online, recompute", "[h, n, l, m]", "qk: [k], pv: []",
                   "Q: 5, K: 2, S: 4, V: 3, O: 4", "h: 2, n: 8, l: 3, m: 4, k: 8");
  EXPECT_GT(measured(k, "O", "reads"), 0);
  EXPECT_EQ(measured(k, "qk", "macs"), 2 * 2 * 12 * 24 * 8); // l has 2 trips, n padded to 24
}

TEST(AttentionKernel, WholeRowsWhenTheNormalisedDimIsNotInThePrefix) {
  expect_fused("attention whole rows", "[h, m]", "qk: [n, k], pv: [n, l]",
               "Q: 2, K: 0, S: 2, V: 0, O: 2", "h: 1, m: 5, n: 8, k: 4, l: 6");
}

TEST(AttentionKernel, UnfusedSoftmaxRunsAsItsOwnPass) {
  const Schedule s(kAttention,
                   mapping("attention", {segment("[qk]", "", "qk: [h, m, n, k]", "Q: 4, K: 4, S: 3",
                                                 "h: 1, m: 5, n: 8, k: 8"),
                                         segment("[pv]", "", "pv: [h, m, l, n]", "P: 4, V: 4, O: 3",
                                                 "h: 2, m: 12, n: 20, l: 6")}));
  const KernelOutcome k = expect_matches_model("attention unfused", s.segments(), hardware());
  EXPECT_EQ(measured(k, "softmax pass", "reads"), 2 * 15 * 24); // S at its padded extents
}

TEST(AttentionKernel, EveryFrontPointFitsWithItsSoftmaxState) {
  // The model counts the online-softmax state among the buffer words, so no point of the front
  // needs more arena than the global buffer holds; the two ends of the front run and match.
  const Hardware hw = hardware(2048);
  const Front front(kAttention, hw);
  ASSERT_GE(front.size(), 2u);
  for (size_t p = 0; p < front.size(); ++p)
    EXPECT_EQ(arena_overflow(front.point(p), hw), "") << "front point " << p;
  for (size_t p : {size_t{0}, front.size() - 1})
    expect_matches_model("attention front point " + std::to_string(p), front.point(p), hw);
}

} // namespace
} // namespace dse::codegen_test
