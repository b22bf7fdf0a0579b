// Mapspace constraints end to end: `dse eval` refuses a mapping outside a rule of the hardware
// file, naming the rule's location; names a workload lacks are errors at the rule's name in eval
// and explore; explore's front on the shipped constrained a16 keeps its rules and evaluates.
#include "cli_fixture.hpp"

namespace dse::testing {
namespace {

// a16-timeloop with a rule on every target (lines 12 to 14).
const std::string kRules = R"(name: a16-rules
clock_ghz: 1.0
word_bytes: 2
hierarchy:
  - {level: DRAM, bandwidth_words_per_cycle: 4, read_energy_pj: 100.0, write_energy_pj: 100.0}
  - {level: GlobalBuffer, capacity_words: 65536, bandwidth_words_per_cycle: 64,
     read_energy_pj: 6.0, write_energy_pj: 6.0}
  - {fanout: PE, x: 16, y: 16}
  - {level: RegisterFile, capacity_words: 16, read_energy_pj: 0.5, write_energy_pj: 0.5}
compute: {mac_energy_pj: 1.0}
mapspace:
  - {target: GlobalBuffer, factors: {k: 256}, order: [n, k]}
  - {target: PE, x: [n, m], y: [m], one_axis_per_dim: true, min_utilisation: 0.5}
  - {target: RegisterFile, keep: [output], bypass: [operand0, operand1]}
)";

// A mapping of gemm-256 within every rule of kRules.
const std::string kMapping = R"(workload: gemm-256
segments:
  - ops: [gemm]
    levels:
      - {level: DRAM, order: [k, n, m]} # factors: the rest of each dimension
      - {level: GlobalBuffer, order: [n, k], factors: {n: 8, k: 256}, keep: [A, B]}
      - {fanout: PE, x: {n: 16}, y: {m: 16}}
      - {level: RegisterFile, keep: [Z]}
)";

class MapspaceEvalTest : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("hw.yaml", kRules);
  }

  std::vector<std::string> eval_args() const {
    return {"eval",      "--hw",    "hw.yaml", "--workload", repo_file("workloads/gemm-256.yaml"),
            "--mapping", "map.yaml"};
  }

  /// `dse eval` of kMapping with `from` replaced by `to` fails with `message` at the segment.
  void expect_broken(const std::string &from, const std::string &to,
                     const std::string &message) const {
    write("map.yaml", with(kMapping, from, to));
    expect_error(eval_args(), "map.yaml:3:5: error: " + message);
  }
};

TEST_F(MapspaceEvalTest, AMappingWithinTheRulesEvaluates) {
  write("map.yaml", kMapping);
  EXPECT_NE(run_ok(eval_args()).out.find("segment: gemm"), std::string::npos);
}

TEST_F(MapspaceEvalTest, KeepingABypassedTensor) {
  expect_broken("keep: [Z]", "keep: [A, Z]",
                "level 'RegisterFile' keeps 'A', which the mapspace constraint at hw.yaml:14:5 "
                "bypasses");
}

TEST_F(MapspaceEvalTest, BypassingAKeptTensor) {
  expect_broken("keep: [Z]", "keep: []",
                "level 'RegisterFile' does not keep 'Z', which the mapspace constraint at "
                "hw.yaml:14:5 keeps");
}

TEST_F(MapspaceEvalTest, AFactorOtherThanTheFixedOne) {
  expect_broken("factors: {n: 8, k: 256}", "factors: {n: 8, k: 128}",
                "level 'GlobalBuffer' has factor 128 for 'k', which the mapspace constraint at "
                "hw.yaml:12:5 fixes to 256");
}

TEST_F(MapspaceEvalTest, LoopsAgainstTheOrder) {
  expect_broken("order: [n, k]", "order: [k, n]",
                "level 'GlobalBuffer' orders its loops k, n (outermost first), against the order "
                "n, k of the mapspace constraint at hw.yaml:12:5");
}

TEST_F(MapspaceEvalTest, ADimensionOnAnAxisTheRuleDoesNotAllow) {
  expect_broken("y: {m: 16}}", "y: {m: 8, n: 2}}",
                "fan-out 'PE' spreads 'n' over y, which the mapspace constraint at hw.yaml:13:5 "
                "does not allow");
}

TEST_F(MapspaceEvalTest, ADimensionOnBothAxes) {
  expect_broken("x: {n: 16}, y: {m: 16}", "x: {n: 4, m: 4}, y: {m: 4}",
                "fan-out 'PE' spreads 'm' over both axes, against one_axis_per_dim of the "
                "mapspace constraint at hw.yaml:13:5");
}

TEST_F(MapspaceEvalTest, UtilisationBelowTheLeast) {
  expect_broken("x: {n: 16}", "x: {n: 4}",
                "fan-out 'PE' uses 64 of its 256 units, below min_utilisation 0.5 of the "
                "mapspace constraint at hw.yaml:13:5");
}

TEST_F(MapspaceEvalTest, ADimensionTheWorkloadLacks) {
  write("hw.yaml", with(kRules, "order: [n, k]", "order: [n, q]"));
  write("map.yaml", kMapping);
  const std::string message = "hw.yaml:12:58: error: mapspace constraint names dimension 'q', "
                              "which workload 'gemm-256' does not have";
  expect_error(eval_args(), message);
  expect_error({"explore", "--hw", "hw.yaml", "--workload", repo_file("workloads/gemm-256.yaml")},
               message);
}

TEST_F(MapspaceEvalTest, ATensorTheWorkloadLacks) {
  write("hw.yaml", with(kRules, "bypass: [operand0, operand1]", "bypass: [operand0, Q]"));
  write("map.yaml", kMapping);
  expect_error(eval_args(), "hw.yaml:14:63: error: mapspace constraint names tensor 'Q', which "
                            "workload 'gemm-256' does not have");
}

TEST_F(MapspaceEvalTest, TheShippedConstrainedFrontKeepsItsRules) {
  const std::string hw = repo_file("hw_configs/a16-timeloop-constrained.yaml");
  const std::string workload = repo_file("workloads/gemm-256.yaml");
  write("map.yaml",
        run_ok({"explore", "--hw", hw, "--workload", workload, "--emit-mapping", "0"}).out);
  const std::string mapping = read("map.yaml");
  EXPECT_NE(mapping.find("{level: RegisterFile, keep: [Z]}"), std::string::npos) << mapping;
  EXPECT_NE(mapping.find("{fanout: PE, x: {n: 16}, y: {m: 16}}"), std::string::npos) << mapping;
  run_ok({"eval", "--hw", hw, "--workload", workload, "--mapping", "map.yaml"});
}

} // namespace
} // namespace dse::testing
