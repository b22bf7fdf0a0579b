// `dse eval` on general hierarchies: Timeloop's input files evaluated directly give Timeloop's
// numbers per level, with first-read elision on and off, text and JSON agree, and the errors
// that only these inputs can meet name their cause.
#include <nlohmann/json.hpp>

#include <fstream>

#include "cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kReference = "tests/data/timeloop-a16/";

std::vector<std::string> timeloop_eval(const std::string &id) {
  const std::string dir = repo_file(kReference + "inputs/" + id + "/");
  return {"eval",           "--hw",       dir + "arch.yaml",    "--ert",
          dir + "ert.yaml", "--workload", dir + "problem.yaml", "--mapping",
          dir + "map.yaml"};
}

/// The record of reference mapping `id` in a16_gemm.jsonl.
nlohmann::json reference_record(const std::string &id) {
  std::ifstream in(repo_file(kReference + "a16_gemm.jsonl"));
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json record = nlohmann::json::parse(line);
    if (record["id"] == id)
      return record;
  }
  ADD_FAILURE() << "no reference record " << id;
  return {};
}

class HierEvalTest : public CliTest {
protected:
  /// Every level's energy and every tensor's counts of `dse eval --json` equal `stats`.
  void expect_reference_numbers(const std::vector<std::string> &args,
                                const nlohmann::json &stats) const {
    const nlohmann::json doc = nlohmann::json::parse(run_ok(concat(args, {"--json"})).out);
    const nlohmann::json &levels = doc["segments"][0]["levels"];
    ASSERT_EQ(levels.size(), 3u);
    for (const nlohmann::json &level : levels) {
      const nlohmann::json &expected = stats["levels"][level["name"].get<std::string>()];
      EXPECT_DOUBLE_EQ(level["energy_pj"].get<double>(), expected["energy_pJ"].get<double>());
      EXPECT_LE(std::abs(level["cycles"].get<double>() - expected["cycles"].get<double>()), 1.0);
      for (const auto &[tensor, counts] : expected["tensors"].items()) {
        const nlohmann::json &got = level["tensors"][tensor];
        EXPECT_EQ(got["reads"].get<double>(), counts["reads_total"].get<double>()) << tensor;
        EXPECT_EQ(got["fills"].get<double>(), counts["fills_total"].get<double>()) << tensor;
        EXPECT_EQ(got["updates"].get<double>(), counts["updates_total"].get<double>()) << tensor;
      }
    }
    EXPECT_DOUBLE_EQ(doc["total"]["energy_pj"].get<double>(),
                     stats["energy_pJ_total"].get<double>());
    EXPECT_LE(
        std::abs(doc["total"]["latency_cycles"].get<double>() - stats["cycles"].get<double>()),
        1.0);
  }
};

TEST_F(HierEvalTest, TimeloopFilesGiveTimeloopsNumbersOnEveryShape) {
  for (const char *id : {"a16_M256_N256_K256_03", "a16_M512_N128_K1024_07", "a16_M96_N384_K192_11",
                         "a16_M1024_N1024_K64_15"}) {
    SCOPED_TRACE(id);
    const nlohmann::json record = reference_record(id);
    expect_reference_numbers(timeloop_eval(id), record["stats"]);
    expect_reference_numbers(concat(timeloop_eval(id), {"--no-first-read-elision"}),
                             record["stats_no_first_read_elision"]);
  }
}

TEST_F(HierEvalTest, TextAndJsonCarryTheSameNumbers) {
  const std::vector<std::string> args = timeloop_eval("a16_M256_N256_K256_00");
  const std::string text = run_ok(args).out;
  const nlohmann::json doc = nlohmann::json::parse(run_ok(concat(args, {"--json"})).out);
  EXPECT_NE(text.find("latency_cycles 294912 (bound: DRAM), energy_pj 171147264"),
            std::string::npos)
      << text;
  EXPECT_EQ(doc["segments"][0]["latency_cycles"], 294912.0);
  EXPECT_EQ(doc["segments"][0]["bound"], "DRAM");
  EXPECT_EQ(doc["segments"][0]["energy_pj"], 171147264.0);
}

TEST_F(HierEvalTest, ATimeloopArchitectureNeedsItsEnergyTable) {
  std::vector<std::string> args = timeloop_eval("a16_M256_N256_K256_00");
  args.erase(args.begin() + 3, args.begin() + 5); // --ert FILE
  const std::string arch = args[2];
  expect_error(args, arch + ": error: a Timeloop architecture needs its energies: give --ert FILE "
                            "(a Timeloop energy reference table)");
}

TEST_F(HierEvalTest, ElisionSwitchIsRefusedOnLegacyHardware) {
  write("hw.yaml", kTinyHardware);
  write("w.yaml", wide_einsum(2));
  write("m.yaml", "segments: []\n");
  expect_error({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml",
                "--no-first-read-elision"},
               "error: --no-first-read-elision applies to general hierarchies (counting: "
               "timeloop); 'tiny' uses the legacy model");
}

} // namespace
} // namespace dse::testing
