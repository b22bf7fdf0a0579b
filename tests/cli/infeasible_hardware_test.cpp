// Hardware that fits no mapping, end to end: a sweep marks such configurations and keeps going
// (failing only when none fits), `dse network` fails like `dse explore`, and `dse plot` skips
// the marked rows but rejects numbers that are not finite.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

class InfeasibleHardware : public CliTest {
protected:
  std::vector<std::string> sweep(const std::string &capacities) const {
    return {"sweep",
            "--hw",
            "tiny.yaml",
            "--workload",
            repo_file("workloads/gemm-small-64.yaml"),
            "--set",
            "GlobalBuffer.capacity_words=" + capacities,
            "--buffer-curve"};
  }
  void SetUp() override {
    CliTest::SetUp();
    write("tiny.yaml", kTinyHardware);
  }
};

constexpr const char *kTooSmall =
    "global buffer 'GlobalBuffer' holds 2 words, too small for any mapping of 'gemm' in workload "
    "'gemm-small-64' (it needs at least 3 words)";

TEST_F(InfeasibleHardware, SweepMarksTheConfigurationAndKeepsTheCurve) {
  const RunResult r = run(concat(sweep("2,16,256"), {"-o", "s.csv"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "warning: hw 'tiny' with GlobalBuffer.capacity_words=2, workload "
                   "'gemm-small-64': no mapping fits (marked infeasible): tiny.yaml: error: " +
                       std::string(kTooSmall) + "\n");
  const Csv summary = parse_csv(read("s-summary.csv"));
  ASSERT_EQ(summary.rows.size(), 3u);
  EXPECT_EQ(summary.text(0, "feasible"), "no");
  EXPECT_EQ(summary.text(0, "best_latency_s"), "");
  EXPECT_EQ(summary.text(0, "best_edp_dataflow"), "");
  for (size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(summary.text(i, "feasible"), "yes");
    EXPECT_GT(summary.number(i, "best_latency_s"), 0);
  }
  const Csv curve = parse_csv(read("s-buffer-curve.csv"));
  ASSERT_EQ(curve.rows.size(), 3u);
  EXPECT_EQ(curve.text(0, "capacity_words"), "2");
  EXPECT_EQ(curve.text(0, "min_dram_words"), "");
  EXPECT_EQ(curve.text(0, "feasible"), "no");
  EXPECT_GT(curve.number(1, "min_dram_words"), curve.number(2, "min_dram_words"));
  EXPECT_EQ(curve.text(2, "feasible"), "yes");
  const Csv fronts = parse_csv(read("s.csv"));
  for (size_t i = 0; i < fronts.rows.size(); ++i)
    EXPECT_NE(fronts.text(i, "GlobalBuffer.capacity_words"), "2");
  // The marked rows are left out of the plots, the others drawn.
  run_ok({"plot", "s-buffer-curve.csv", "-o", "curve.svg"});
  run_ok({"plot", "s-summary.csv", "-o", "summary.svg"});
}

TEST_F(InfeasibleHardware, SweepFailsWhenNoConfigurationFits) {
  expect_error(sweep("1,2"), "tiny.yaml: error: no configuration of the sweep fits any mapping; "
                             "the first: global buffer 'GlobalBuffer' holds 1 words, too small "
                             "for any mapping of 'gemm' in workload 'gemm-small-64' (it needs at "
                             "least 3 words)");
}

TEST_F(InfeasibleHardware, NetworkFailsLikeExplore) {
  write("two.yaml", with(kTinyHardware, "capacity_words: 4096", "capacity_words: 2"));
  const RunResult r = run({"network", "--hw", "two.yaml", "--model",
                           repo_file("networks/tiny-cnn.yaml"), "-o", "report"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "two.yaml: error: segment 'stem+stem_relu': global buffer 'GlobalBuffer' "
                   "holds 2 words, too small for any mapping of 'stem' in workload 'stem' (it "
                   "needs at least 19 words)\n");
  EXPECT_FALSE(exists("report"));
}

TEST_F(InfeasibleHardware, PlotRejectsNumbersThatAreNotFinite) {
  write("front.csv", "point,latency_s,energy_pj\n0,1e-3,5\n1,inf,4\n");
  const RunResult r = run({"plot", "front.csv", "-o", "front.svg"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "front.csv:3: error: column 'latency_s' must be a finite number, got 'inf'\n");
  EXPECT_FALSE(exists("front.svg"));
}

} // namespace
} // namespace dse::testing
