// Bad command lines and unusable files: option values, usage errors, missing inputs and output
// paths that cannot be written. Each checks the exact message and the exit code.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kGemm = repo_file("workloads/gemm-small-64.yaml");

class OptionErrors : public CliTest {
protected:
  static std::vector<std::string> explore(const std::vector<std::string> &extra) {
    return concat({"explore", "--hw", kHw, "--workload", kGemm}, extra);
  }
  /// `dse eval` of front point 0 of gemm-small-64, saved as point.yaml.
  std::vector<std::string> eval(const std::vector<std::string> &extra) const {
    write("point.yaml", run_ok(explore({"--emit-mapping", "0"})).out);
    return concat({"eval", "--hw", kHw, "--workload", kGemm, "--mapping", "point.yaml"}, extra);
  }
};

TEST_F(OptionErrors, UnknownTileMenu) {
  expect_error(explore({"--tiles", "odd"}),
               "error: unknown tile menu 'odd'; expected divisors, pow2, array or all");
}

TEST_F(OptionErrors, UnknownObjective) {
  expect_error(explore({"--objectives", "latency,area"}),
               "error: unknown objective 'area'; expected latency, energy, edp, dram or buffer");
}

TEST_F(OptionErrors, ObjectiveListedTwice) {
  expect_error(explore({"--objectives", "energy,latency,energy"}),
               "error: objective 'energy' is listed twice");
}

TEST_F(OptionErrors, TooManyObjectives) {
  expect_error(explore({"--objectives", "latency,energy,dram,buffer"}),
               "error: --objectives takes one to three objectives, got "
               "'latency,energy,dram,buffer'");
}

TEST_F(OptionErrors, NoObjectives) {
  expect_error(explore({"--objectives", ""}),
               "error: --objectives takes one to three objectives, got ''");
}

TEST_F(OptionErrors, UnknownLatencyModelForExplore) {
  expect_error(explore({"--latency-model", "overlapped"}),
               "error: unknown latency model 'overlapped'; expected roofline or sequential");
}

TEST_F(OptionErrors, UnknownLatencyModelForEval) {
  expect_error(eval({"--latency-model", "overlapped"}),
               "error: unknown latency model 'overlapped'; expected roofline or sequential");
}

TEST_F(OptionErrors, EmitMappingOutOfRange) {
  const size_t points = parse_csv(run_ok(explore({})).out).rows.size();
  expect_error(explore({"--emit-mapping", std::to_string(points)}),
               "error: --emit-mapping " + std::to_string(points) + ": the front has " +
                   std::to_string(points) + " points");
}

TEST_F(OptionErrors, NonexistentHardwareFile) {
  expect_error({"explore", "--hw", "missing.yaml", "--workload", kGemm},
               "error: cannot read file 'missing.yaml': no such file or directory");
}

TEST_F(OptionErrors, NonexistentWorkloadFile) {
  expect_error({"explore", "--hw", kHw, "--workload", "missing.yaml"},
               "error: cannot read file 'missing.yaml': no such file or directory");
}

TEST_F(OptionErrors, NonexistentMappingFile) {
  expect_error({"eval", "--hw", kHw, "--workload", kGemm, "--mapping", "missing.yaml"},
               "error: cannot read file 'missing.yaml': no such file or directory");
}

TEST_F(OptionErrors, InputIsADirectory) {
  std::filesystem::create_directory(dir_ / "configs");
  expect_error({"explore", "--hw", "configs", "--workload", kGemm},
               "error: cannot read file 'configs': it is a directory");
}

TEST_F(OptionErrors, OutputInANonexistentDirectory) {
  for (const std::vector<std::string> &args :
       {explore({"-o", "missing/front.csv"}), eval({"-o", "missing/front.csv"})}) {
    const std::vector<std::string> before = listing();
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 1) << args[0];
    EXPECT_EQ(r.err,
              "error: cannot write output file 'missing/front.csv': No such file or directory\n");
    EXPECT_EQ(r.out, "");
    EXPECT_EQ(listing(), before) << args[0] << " created a file or directory";
  }
}

TEST_F(OptionErrors, OutputIsADirectory) {
  std::filesystem::create_directory(dir_ / "results");
  const RunResult r = run(explore({"-o", "results"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output file 'results': Is a directory\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"results"}) << "the temporary file must go";
  EXPECT_TRUE(std::filesystem::is_empty(dir_ / "results"));
}

TEST_F(OptionErrors, MissingRequiredOption) {
  expect_usage_error({"explore", "--hw", kHw}, "--workload is required");
}

TEST_F(OptionErrors, MissingMappingOption) {
  expect_usage_error({"eval", "--hw", kHw, "--workload", kGemm}, "--mapping is required");
}

TEST_F(OptionErrors, UnknownOption) {
  expect_usage_error(explore({"--bogus"}), "The following argument was not expected: --bogus");
}

TEST_F(OptionErrors, ThreadsOutOfRange) {
  expect_usage_error(explore({"--threads", "-2"}), "--threads: Value -2 not in range 0 to 4096");
}

TEST_F(OptionErrors, MaxFusedOutOfRangeOrOnAGeneralHierarchy) {
  expect_usage_error(explore({"--max-fused", "0"}), "--max-fused: Value 0 not in range 1 to 8");
  expect_usage_error(explore({"--max-fused", "9"}), "--max-fused: Value 9 not in range 1 to 8");
  expect_error({"explore", "--hw", repo_file("hw_configs/a16-timeloop.yaml"), "--workload", kGemm,
                "--max-fused", "3"},
               "error: --max-fused 3: general hierarchies fuse pairs (--hier-fusion), not longer "
               "chains");
}

TEST_F(OptionErrors, NegativeEmitMapping) {
  const RunResult r = run(explore({"--emit-mapping", "-1"}));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("--emit-mapping: Value -1 not in range 0", 0), 0u) << r.err;
  EXPECT_EQ(r.out, "");
}

} // namespace
} // namespace dse::testing
