// `dse eval` of a fused pair on a general hierarchy (mappings/a16-ffn-fused.yaml): the counts that
// follow from the loop tree by hand, the text and JSON reports, and a fused pair too large for
// the global buffer refused at its segment.
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

#include "cli_fixture.hpp"
#include "common/text.hpp"

namespace dse::testing {
namespace {

class HierFusedEvalTest : public CliTest {
protected:
  std::vector<std::string> eval_args(const std::string &mapping) const {
    return {"eval",
            "--hw",
            repo_file("hw_configs/a16-timeloop.yaml"),
            "--workload",
            repo_file("workloads/ffn-2048x768x3072x768.yaml"),
            "--mapping",
            mapping};
  }

  static std::string shipped_mapping() {
    std::ifstream in(repo_file("mappings/a16-ffn-fused.yaml"));
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_F(HierFusedEvalTest, LoopTreeGivesTheDramAndBufferCounts) {
  const nlohmann::json doc = nlohmann::json::parse(
      run_ok(concat(eval_args(repo_file("mappings/a16-ffn-fused.yaml")), {"--json"})).out);
  ASSERT_EQ(doc["segments"].size(), 1u);
  const nlohmann::json &s = doc["segments"][0];
  EXPECT_EQ(s["operators"], nlohmann::json::array({"up", "down"}));
  const nlohmann::json &dram = s["levels"][0]["tensors"];
  const double a = 2048.0 * 768, w1 = 768.0 * 3072, o = 2048.0 * 768;
  // Prefix m (32 steps of 64) then n (48 steps of 64): A is fetched again for every n step, W1
  // for every m step; O's tiles go back after every n step and come back but the first time.
  EXPECT_EQ(dram["A"]["reads"].get<double>(), a * 48);
  EXPECT_EQ(dram["W1"]["reads"].get<double>(), w1 * 32);
  EXPECT_EQ(dram["O"]["updates"].get<double>(), o * 48);
  EXPECT_EQ(dram["O"]["reads"].get<double>(), o * 47);
  EXPECT_FALSE(dram.contains("H")); // the intermediate never reaches DRAM
  const nlohmann::json &gb = s["levels"][1];
  // Live words while up runs: A 64x128, W1 128x64 and H 64x64 (down's: H, W2 64x128, O 64x128).
  EXPECT_EQ(gb["buffer_words"].get<double>(), 8192 + 8192 + 4096);
  EXPECT_EQ(gb["tensors"]["H"]["fills"].get<double>(), 0);
  // up's register files send each H word up once per (m, n) step of the buffer: 2048 x 3072 x
  // 6 k steps at DRAM, as the register file's H tile spans no k loop above it.
  EXPECT_EQ(gb["tensors"]["H"]["updates"].get<double>(), 2048.0 * 3072 * 6);
  EXPECT_EQ(s["compute"]["macs"].get<double>(), 2.0 * 2048 * 768 * 3072);
  EXPECT_EQ(s["bound"], "DRAM");
}

TEST_F(HierFusedEvalTest, TextNamesThePairAndCarriesTheJsonNumbers) {
  const std::string text = run_ok(eval_args(repo_file("mappings/a16-ffn-fused.yaml"))).out;
  EXPECT_NE(text.find("segment: up + down (fused)\n"), std::string::npos) << text;
  const nlohmann::json doc = nlohmann::json::parse(
      run_ok(concat(eval_args(repo_file("mappings/a16-ffn-fused.yaml")), {"--json"})).out);
  std::ostringstream energy;
  energy << "energy_pj " << static_cast<long long>(doc["total"]["energy_pj"].get<double>());
  EXPECT_NE(text.find(energy.str()), std::string::npos) << text;
}

TEST_F(HierFusedEvalTest, PairBeyondTheGlobalBuffer) {
  // m in blocks of 512 rows: A 512x128, W1 and H 512x64 while up runs.
  write("big.yaml", test_common::with(test_common::with(shipped_mapping(), "factors: {m: 4, n: 2",
                                                        "factors: {m: 32, n: 2"),
                                      "factors: {m: 4, l: 4", "factors: {m: 32, l: 4"));
  expect_error(
      eval_args("big.yaml"),
      "big.yaml:11:5: error: level 'GlobalBuffer' needs 106496 words per instance for its tiles, "
      "more than its capacity of 65536");
}

} // namespace
} // namespace dse::testing
