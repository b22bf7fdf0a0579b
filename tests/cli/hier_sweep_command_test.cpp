// `dse sweep` on general hierarchies: fronts whose rows are those of `dse explore`, the summary,
// the buffer curve down to a few words of level 1 (bypassed there) and never below the I/O
// bound, the --within answer, and the errors of mixed or curve-less sweeps.
#include <cmath>

#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kGemm64 = "name: gemm-64\n"
                            "dims: {m: 64, k: 64, n: 64}\n"
                            "ops:\n"
                            "  - {name: gemm, einsum: \"Z[m,n] += A[m,k] * B[k,n]\"}\n";

/// Two by two PEs with four-word register files below a one-level buffer `L1`: little enough
/// storage that the I/O bound of a 64^3 GEMM lies above its compulsory traffic.
const std::string kSmallHierarchy =
    "name: small\n"
    "clock_ghz: 1.0\n"
    "word_bytes: 2\n"
    "hierarchy:\n"
    "  - {level: DRAM, bandwidth_words_per_cycle: 4, read_energy_pj: 100, write_energy_pj: 100}\n"
    "  - {level: L1, capacity_words: 4096, bandwidth_words_per_cycle: 16, read_energy_pj: 6,\n"
    "     write_energy_pj: 6}\n"
    "  - {fanout: PE, x: 2, y: 2}\n"
    "  - {level: RF, capacity_words: 4, read_energy_pj: 0.5, write_energy_pj: 0.5}\n"
    "compute: {mac_energy_pj: 1.0}\n";

const std::string kA16 = repo_file("hw_configs/a16-timeloop.yaml");

class HierSweepTest : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("gemm-64.yaml", kGemm64);
    write("small.yaml", kSmallHierarchy);
  }

  /// The a16 global buffer from 1 to 32768 words, with the buffer curve.
  std::vector<std::string> a16_curve_args(const std::string &output) const {
    return {"sweep",
            "--hw",
            kA16,
            "--workload",
            "gemm-64.yaml",
            "--set",
            "GlobalBuffer.capacity_words=1..65536:x8",
            "--buffer-curve",
            "-o",
            output};
  }
};

TEST_F(HierSweepTest, WithHierFusionFrontRowsAreThoseOfExploreWithIt) {
  write("ffn.yaml", "name: ffn8\ndims: {m: 8, k: 4, n: 8, l: 4}\nops:\n"
                    "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                    "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n");
  run_ok({"sweep", "--hw", kA16, "--workload", "ffn.yaml", "--set",
          "GlobalBuffer.capacity_words=65536", "--hier-fusion", "-o", "sweep.csv"});
  const std::string explored =
      run_ok({"explore", "--hw", kA16, "--workload", "ffn.yaml", "--hier-fusion"}).out;
  ASSERT_NE(explored.find("up + down (fused): "), std::string::npos) << explored;
  std::string rows;
  for (size_t start = explored.find('\n') + 1; start < explored.size();) {
    const size_t end = explored.find('\n', start) + 1;
    rows += "a16-timeloop,65536,ffn8," + explored.substr(start, end - start);
    start = end;
  }
  const std::string fronts = read("sweep.csv");
  EXPECT_EQ(fronts.substr(fronts.find('\n') + 1), rows);
}

TEST_F(HierSweepTest, FrontRowsAreThoseOfExploreAfterTheConfigurationColumns) {
  run_ok({"sweep", "--hw", kA16, "--workload", "gemm-64.yaml", "--set",
          "GlobalBuffer.capacity_words=65536,8", "-o", "sweep.csv"});
  const std::string explored = run_ok({"explore", "--hw", kA16, "--workload", "gemm-64.yaml"}).out;
  const std::string header = explored.substr(0, explored.find('\n') + 1);
  std::string rows;
  for (size_t start = header.size(); start < explored.size();) {
    const size_t end = explored.find('\n', start) + 1;
    rows += "a16-timeloop,65536,gemm-64," + explored.substr(start, end - start);
    start = end;
  }
  const std::string fronts = read("sweep.csv");
  EXPECT_EQ(fronts.substr(0, fronts.find('\n') + 1),
            "hw,GlobalBuffer.capacity_words,workload," + header);
  EXPECT_NE(fronts.find(rows), std::string::npos) << fronts;

  const Csv front = parse_csv(fronts);
  const Csv summary = parse_csv(read("sweep-summary.csv"));
  ASSERT_EQ(summary.rows.size(), 2u);
  for (size_t i = 0; i < summary.rows.size(); ++i) {
    EXPECT_EQ(summary.text(i, "feasible"), "yes");
    double best = 1e300;
    for (size_t j = 0; j < front.rows.size(); ++j)
      if (front.text(j, "GlobalBuffer.capacity_words") ==
          summary.text(i, "GlobalBuffer.capacity_words"))
        best = std::min(best, front.number(j, "latency_s"));
    EXPECT_EQ(summary.number(i, "best_latency_s"), best);
    EXPECT_EQ(summary.text(i, "best_latency_dataflow").rfind("gemm: DRAM[", 0), 0u);
  }
  EXPECT_FALSE(exists("sweep-buffer-curve.csv"));
}

TEST_F(HierSweepTest, BufferCurveGoesDownToOneWordByBypassingLevelOne) {
  const RunResult r = run_ok(concat(a16_curve_args("sweep.csv"), {"--within", "5%"}));
  const Csv curve = parse_csv(read("sweep-buffer-curve.csv"));
  ASSERT_EQ(curve.rows.size(), 6u); // 1, 8, 64, 512, 4096, 32768 words
  for (size_t i = 0; i < curve.rows.size(); ++i) {
    EXPECT_EQ(curve.text(i, "feasible"), "yes");
    EXPECT_GE(curve.number(i, "min_dram_words"), curve.number(i, "io_lower_bound_words"));
    if (i > 0) {
      EXPECT_LE(curve.number(i, "min_dram_words"), curve.number(i - 1, "min_dram_words"));
    }
  }
  EXPECT_EQ(curve.number(0, "capacity_words"), 1);
  // Compulsory traffic, every operand read once and each output written once, from 64 words on.
  EXPECT_EQ(curve.number(2, "min_dram_words"), 3 * 64 * 64);
  const Csv fronts = parse_csv(read("sweep.csv"));
  EXPECT_NE(fronts.text(0, "mapping").find("GlobalBuffer[] keep none"), std::string::npos);
  EXPECT_EQ(r.out, "workload gemm-64 on a16-timeloop: smallest GlobalBuffer within 5% of the "
                   "best latency is 64 words (0.125 KiB)\n");
}

TEST_F(HierSweepTest, MinimalTrafficNeverBeatsTheIoBoundOfAllOnChipWords) {
  run_ok({"sweep", "--hw", "small.yaml", "--workload", "gemm-64.yaml", "--set",
          "L1.capacity_words=1..4096:x4", "--buffer-curve", "-o", "sweep.csv"});
  const Csv curve = parse_csv(read("sweep-buffer-curve.csv"));
  ASSERT_EQ(curve.rows.size(), 7u);
  for (size_t i = 0; i < curve.rows.size(); ++i)
    EXPECT_GE(curve.number(i, "min_dram_words"), curve.number(i, "io_lower_bound_words")) << i;
  // At one word of L1 the bound counts the 16 register-file words and the 3 words of each of
  // the 4 compute units too: 2MNK/sqrt(29) - 58.
  EXPECT_TRUE(near_relative(curve.number(0, "io_lower_bound_words"),
                            2.0 * 64 * 64 * 64 / std::sqrt(29.0) - 58, 1e-12));
  EXPECT_GT(curve.number(0, "io_lower_bound_words"), 3 * 64 * 64);
}

TEST_F(HierSweepTest, FilesNamingLevelOneDifferentlyShareABufferColumn) {
  run_ok({"sweep", "--hw", kA16, "--hw", "small.yaml", "--workload", "gemm-64.yaml", "-o",
          "sweep.csv"});
  const Csv fronts = parse_csv(read("sweep.csv"));
  EXPECT_EQ(fronts.header[0], "hw");
  EXPECT_EQ(fronts.header[1], "workload");
  fronts.column("buffer_words");
  EXPECT_EQ(fronts.text(fronts.rows.size() - 1, "hw"), "small");
}

TEST_F(HierSweepTest, EachFileKeepsItsFirstReadElision) {
  write("plain.yaml", "first_read_elision: false\n" + with(kSmallHierarchy, "small", "plain"));
  run_ok({"sweep", "--hw", "small.yaml", "--hw", "plain.yaml", "--workload", "gemm-64.yaml", "-o",
          "sweep.csv"});
  const Csv fronts = parse_csv(read("sweep.csv"));
  std::vector<std::string> energies;
  for (const std::string name : {"small", "plain"}) {
    const Csv explored =
        parse_csv(run_ok({"explore", "--hw", name + ".yaml", "--workload", "gemm-64.yaml"}).out);
    size_t first = 0;
    while (fronts.text(first, "hw") != name)
      ++first;
    EXPECT_EQ(fronts.text(first, "energy_pj"), explored.text(0, "energy_pj")) << name;
    energies.push_back(explored.text(0, "energy_pj"));
  }
  EXPECT_NE(energies[0], energies[1]);
}

TEST_F(HierSweepTest, OneSweepTakesHardwareOfOneModel) {
  write("tiny.yaml", kTinyHardware);
  expect_error({"sweep", "--hw", kA16, "--hw", "tiny.yaml", "--workload", "gemm-64.yaml"},
               "tiny.yaml: error: 'tiny' is in today's model (counting: legacy) but "
               "'a16-timeloop' (" +
                   kA16 +
                   ") is a general hierarchy (counting: timeloop); one sweep takes hardware of "
                   "one model, so sweep them separately");
}

TEST_F(HierSweepTest, BufferCurveNeedsLevelOnesCapacitySwept) {
  expect_error(
      {"sweep", "--hw", kA16, "--workload", "gemm-64.yaml", "--set", "PE.x=8,16", "--buffer-curve"},
      "error: --buffer-curve needs a swept capacity of the first on-chip level, e.g. "
      "--set GlobalBuffer.capacity_words=8..65536:x2");
}

TEST_F(HierSweepTest, UnknownPathsListTheLevelsAndFanouts) {
  expect_error({"sweep", "--hw", "small.yaml", "--workload", "gemm-64.yaml", "--set",
                "GlobalBuffer.capacity_words=8"},
               "small.yaml: error: unknown parameter path 'GlobalBuffer.capacity_words': no "
               "section, level or fan-out named 'GlobalBuffer' (levels: DRAM, L1, RF; fan-outs: "
               "PE; sections: compute; top-level: clock_ghz, word_bytes)");
}

#ifdef DSE_WITH_MPI
TEST_F(HierSweepTest, TwoRanksWriteTheSameFilesAsOneProcess) {
  expect_two_ranks_write_what_one_process_writes(
      [this](const std::string &output) { return a16_curve_args(output); });
}
#endif

} // namespace
} // namespace dse::testing
