// Search spaces too large for memory: every searching command refuses them before allocating,
// naming the limit and the flag that raises it, and runs once the flag raises it far enough.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kGemm = repo_file("workloads/gemm-small-64.yaml");
const std::string kTinyCnn = repo_file("networks/tiny-cnn.yaml");

/// gemm-small-64: 15 x 15 x 15 tilings with --tiles all (the smallest tile of each of the 15 trip
/// counts of 64), 3! x 3^3 loop nests.
const std::string kGemmAllTilings =
    "error: operator 'gemm': --tiles all gives 15 tile sizes for dimension m; the tiling space "
    "has 3375 tilings, above the limit of 3374 (raise it with --max-tilings)";
const std::string kGemmLoopNests =
    "error: operator 'gemm': the candidate space has 162 loop nests to enumerate (every order of "
    "up to 3 loops with every retention depth), above the limit of 161 (raise it with "
    "--max-loop-nests)";

std::string gemm_workload(const std::string &m) {
  return "name: huge\ndims: {m: " + m +
         ", k: 64, n: 64}\nops:\n"
         "  - {name: mm, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n";
}

class SpaceLimits : public CliTest {
protected:
  static std::vector<std::string> explore(const std::string &workload,
                                          const std::vector<std::string> &extra) {
    return concat({"explore", "--hw", kHw, "--workload", workload}, extra);
  }
  /// Runs `args`, expecting exit code 1 and exactly `message` on stderr.
  void expect_refused(const std::vector<std::string> &args, const std::string &message) const {
    const RunResult r = run(args);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.err, message + "\n");
    EXPECT_EQ(r.out, "");
  }
};

TEST_F(SpaceLimits, LargestGemmWithEveryTileSize) {
  // 92681 trip counts of 2^31 - 1 (one tile size each), counted without building the menu.
  write("huge.yaml", gemm_workload("2147483647"));
  expect_error(explore("huge.yaml", {"--tiles", "all"}),
               "error: operator 'mm': --tiles all gives 92681 tile sizes for dimension m; "
               "the tiling space has 2.1e7 tilings, above the limit of 1e7 (raise it with "
               "--max-tilings)");
}

TEST_F(SpaceLimits, GemmOfAHundredMillionRowsWithEveryTileSizeIsSearched) {
  // 19999 tile sizes of m (one per trip count) x 15 x 15: 4.5e6 tilings, within the limit.
  write("huge.yaml", gemm_workload("100000000"));
  EXPECT_FALSE(parse_csv(run_ok(explore("huge.yaml", {"--tiles", "all"})).out).rows.empty());
}

TEST_F(SpaceLimits, SizeInExponentNotationIsNotAnInteger) {
  write("huge.yaml", gemm_workload("1e8"));
  expect_error(explore("huge.yaml", {"--tiles", "all"}),
               "huge.yaml:2:11: error: dims: key 'm' must be an integer, got '1e8'");
}

TEST_F(SpaceLimits, EinsumOfEightDimensions) {
  // 8! loop orders x 9^3 retention depths.
  write("wide.yaml", wide_einsum(8));
  expect_error(explore("wide.yaml", {}),
               "error: operator 'big': the candidate space has 2.9e7 loop nests to enumerate "
               "(every order of up to 8 loops with every retention depth), above the limit of "
               "2e6 (raise it with --max-loop-nests)");
}

TEST_F(SpaceLimits, EinsumOfTwentyDimensionsIsCountedWithoutEnumerating) {
  write("wide.yaml", wide_einsum(20));
  expect_error(explore("wide.yaml", {}),
               "error: operator 'big': the candidate space has more than 1e18 loop nests to "
               "enumerate (every order of up to 20 loops with every retention depth), above the "
               "limit of 2e6 (raise it with --max-loop-nests)");
}

TEST_F(SpaceLimits, MaxTilingsRaisesTheTilingLimit) {
  expect_error(explore(kGemm, {"--tiles", "all", "--max-tilings", "3374"}), kGemmAllTilings);
  const Csv front =
      parse_csv(run_ok(explore(kGemm, {"--tiles", "all", "--max-tilings", "3.375e3"})).out);
  EXPECT_FALSE(front.rows.empty());
}

TEST_F(SpaceLimits, MaxLoopNestsRaisesTheCandidateLimit) {
  expect_error(explore(kGemm, {"--max-loop-nests", "161"}), kGemmLoopNests);
  EXPECT_FALSE(parse_csv(run_ok(explore(kGemm, {"--max-loop-nests", "162"})).out).rows.empty());
}

TEST_F(SpaceLimits, LimitsMustBeWholeNumbers) {
  for (const char *value : {"0", "1.5", "-3", "2e15", "many"}) {
    const RunResult r = run(explore(kGemm, {"--max-tilings", value}));
    EXPECT_NE(r.exit_code, 0) << value;
    EXPECT_NE(r.exit_code, 1) << value;
    EXPECT_EQ(r.err.substr(0, r.err.find('\n')),
              "--max-tilings: expected a whole number from 1 to 1e15, got '" + std::string(value) +
                  "'");
  }
}

TEST_F(SpaceLimits, SweepTakesTheLimits) {
  expect_error(
      {"sweep", "--hw", kHw, "--workload", kGemm, "--tiles", "all", "--max-tilings", "3374"},
      kGemmAllTilings);
}

TEST_F(SpaceLimits, EmitAndRunTakeTheLimits) {
  for (const char *command : {"emit", "run"})
    expect_refused(
        {command, "--hw", kHw, "--workload", kGemm, "--point", "0", "--max-loop-nests", "161"},
        kGemmLoopNests);
}

TEST_F(SpaceLimits, NetworkTakesTheLimits) {
  // The stem convolution: 4 loops (batch and every dim of extent 1 dropped).
  expect_refused({"network", "--hw", kHw, "--model", kTinyCnn, "--max-loop-nests", "10"},
                 "error: operator 'stem': the candidate space has 1152 loop nests to enumerate "
                 "(every order of up to 4 loops with every retention depth), above the limit of "
                 "10 (raise it with --max-loop-nests)");
}

TEST_F(SpaceLimits, VerboseEstimatesEachSearchBeforeItRuns) {
  const RunResult r = run(explore(kGemm, {"-v"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.rfind("gemm: 45 candidates x 343 tilings = 15435 mappings to decide, expected "
                        "time about ",
                        0),
            0u)
      << r.err;
}

} // namespace
} // namespace dse::testing
