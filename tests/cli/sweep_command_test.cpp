// `dse sweep` end to end: the output files, the buffer curve answer, errors, and a 2-rank MPI
// run whose files are byte-identical to the single-process run.

#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

class SweepCommandTest : public CliTest {
protected:
  std::vector<std::string> sweep_args(const std::string &output) const {
    return {"sweep",
            "--hw",
            repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"),
            "--workload",
            repo_file("workloads/gemm-small-64.yaml"),
            "--workload",
            repo_file("workloads/gemm-1024.yaml"),
            "--set",
            "GlobalBuffer.capacity_kib=8..128:x2",
            "--set",
            "DRAM.bandwidth_gbps=60,128",
            "--buffer-curve",
            "--within",
            "5%",
            "-o",
            output};
  }
};

TEST_F(SweepCommandTest, WritesFrontsSummaryAndCurve) {
  const RunResult r = run_ok(sweep_args("sweep.csv"));
  const Csv fronts = parse_csv(read("sweep.csv"));
  EXPECT_EQ(fronts.header[0], "hw");
  EXPECT_EQ(fronts.header[1], "GlobalBuffer.capacity_kib");
  EXPECT_EQ(fronts.header[2], "DRAM.bandwidth_gbps");
  const Csv summary = parse_csv(read("sweep-summary.csv"));
  EXPECT_EQ(summary.rows.size(), 5u * 2 * 2); // capacities x bandwidths x workloads
  const Csv curve = parse_csv(read("sweep-buffer-curve.csv"));
  ASSERT_EQ(curve.rows.size(), 20u);
  for (size_t i = 1; i < curve.rows.size(); ++i) {
    const bool same_curve =
        curve.text(i, "workload") == curve.text(i - 1, "workload") &&
        curve.text(i, "DRAM.bandwidth_gbps") == curve.text(i - 1, "DRAM.bandwidth_gbps");
    if (same_curve) {
      EXPECT_LE(curve.number(i, "min_dram_words"), curve.number(i - 1, "min_dram_words"));
    }
  }
  // One answer per curve, each naming the configuration it belongs to.
  for (const char *bandwidth : {"60", "128"})
    EXPECT_NE(r.out.find("workload gemm-1024 on sim-1g-1mb-60gbps with DRAM.bandwidth_gbps=" +
                         std::string(bandwidth) +
                         ": smallest global buffer within 5% of the best latency is"),
              std::string::npos)
        << r.out;
}

TEST_F(SweepCommandTest, UnknownParameterPathFails) {
  expect_error({"sweep", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--workload",
                repo_file("workloads/gemm-small-64.yaml"), "--set", "Cache.capacity_kib=1,2"},
               repo_file("hw_configs/sim-1g-1mb-60gbps.yaml") +
                   ": error: unknown parameter path 'Cache.capacity_kib': no section or level "
                   "named 'Cache'");
}

TEST_F(SweepCommandTest, StandardOutputCannotHoldItsSeveralFiles) {
  const RunResult r = run(sweep_args("-"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: dse sweep needs -o FILE.csv (the summary and curve files are written "
                   "beside it)\n");
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(listing().empty());
}

TEST_F(SweepCommandTest, RangeSyntaxErrorFails) {
  expect_error({"sweep", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--workload",
                repo_file("workloads/gemm-small-64.yaml"), "--set",
                "GlobalBuffer.capacity_kib=64..8:x2"},
               "error: --set GlobalBuffer.capacity_kib=64..8:x2: the range ends below its start");
}

#ifdef DSE_WITH_MPI
TEST_F(SweepCommandTest, TwoRanksWriteTheSameFilesAsOneProcess) {
  expect_two_ranks_write_what_one_process_writes(
      [this](const std::string &output) { return sweep_args(output); });
}
#endif

} // namespace
} // namespace dse::testing
