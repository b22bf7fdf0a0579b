// `dse plot`: fronts and buffer curves render to SVG and PNG; unknown CSVs and formats fail.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

class PlotCommandTest : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    run_ok({"explore", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--workload",
            repo_file("workloads/gemm-1024.yaml"), "-o", "front.csv"});
  }
};

TEST_F(PlotCommandTest, FrontRendersToSvgAndPng) {
  run_ok({"plot", "front.csv", "-o", "front.svg"});
  EXPECT_NE(read("front.svg").find("<svg"), std::string::npos);
  run_ok({"plot", "front.csv", "front.csv", "-o", "front.png"});
  EXPECT_EQ(read("front.png").substr(1, 3), "PNG");
}

TEST_F(PlotCommandTest, BufferCurveRendersWithTheLowerBound) {
  run_ok({"sweep", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--workload",
          repo_file("workloads/gemm-small-64.yaml"), "--set", "GlobalBuffer.capacity_kib=1..16:x2",
          "--buffer-curve", "-o", "s.csv"});
  run_ok({"plot", "s-buffer-curve.csv", "-o", "curve.svg"});
  EXPECT_NE(read("curve.svg").find("I/O lower bound"), std::string::npos);
  run_ok({"plot", "s-summary.csv", "-o", "summary.svg"});
}

TEST_F(PlotCommandTest, UnknownInputsFail) {
  const RunResult jpg = run({"plot", "front.csv", "-o", "x.jpg"});
  EXPECT_EQ(jpg.exit_code, 1);
  EXPECT_EQ(jpg.err, "error: -o must end in .svg or .png, got 'x.jpg'\n");
  write("other.csv", "a,b\n1,2\n");
  const RunResult other = run({"plot", "other.csv", "-o", "x.svg"});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(other.err,
            "other.csv:1: error: not a front, sweep summary or buffer-curve CSV written by dse\n");
  EXPECT_FALSE(exists("x.svg"));
}

} // namespace
} // namespace dse::testing
