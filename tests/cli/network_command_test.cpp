// `dse network` end to end on the vector DSP (with its DMA units): the printed summary and
// hotspot report, the report directory and its CSV tables with consistent totals, and bad inputs
// that exit with status 1 (or a usage error) naming the file and leaving nothing behind.
#include <fstream>
#include <iterator>

#include "cli/cli_fixture.hpp"
#include "common/suite_scale.hpp"

namespace dse::testing {
namespace {

const std::string kDsp = repo_file("hw_configs/vector-dsp-4core-8m.yaml");
const std::string kResnet = repo_file("networks/resnet18.onnx");

/// The number printed right before `word` in `text` ("40 segments" -> 40); -1 if absent.
long number_before(const std::string &text, const std::string &word) {
  const size_t at = text.find(" " + word);
  if (at == std::string::npos)
    return -1;
  const size_t start = text.find_last_of(" (", at - 1) + 1;
  return std::stol(text.substr(start, at - start));
}

class NetworkCommand : public CliTest {
protected:
  static std::vector<std::string> network(const std::string &model,
                                          const std::vector<std::string> &extra = {}) {
    return concat({"network", "--hw", kDsp, "--model", model, "--threads", "2"}, extra);
  }
};

TEST_F(NetworkCommand, WritesTheReportDirectoryAndListsHotspots) {
  const RunResult r = run_ok(network(kResnet, {"--report", "-o", "report"}));
  EXPECT_EQ(r.out.rfind("network resnet18 (" + kResnet + ") on vector-dsp-4core-8m: ", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("\nhotspots before splitting:\n  GSM: steps "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\ndecisions:\n  Conv '"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nhotspots after splitting:\n"), std::string::npos) << r.out;
  EXPECT_EQ(listing(), std::vector<std::string>{"report"});
  EXPECT_NE(r.out.find("  network front (every segmentation through DRAM, and the schedules "
                       "evaluated): "),
            std::string::npos)
      << r.out;
  for (const char *file : {"summary.txt", "hotspots.txt", "memory.csv", "splits.csv",
                           "segments.csv", "network_front.csv", "layout.csv"})
    EXPECT_TRUE(exists(std::string("report/") + file)) << file;
  // stdout is the summary followed by the hotspot report, as written to the directory.
  EXPECT_EQ(r.out, read("report/summary.txt") + "\n" + read("report/hotspots.txt"));
  const std::string summary = read("report/summary.txt");
  EXPECT_NE(summary.find("  DMA units (balanced load, summed over segments):\n    dma0: "),
            std::string::npos)
      << summary;

  const Csv segments = parse_csv(read("report/segments.csv"));
  EXPECT_EQ(segments.header, (std::vector<std::string>{"segment",
                                                       "step",
                                                       "kind",
                                                       "nodes",
                                                       "first_node",
                                                       "fused",
                                                       "latency_s",
                                                       "energy_pj",
                                                       "dram_words",
                                                       "buffer_words",
                                                       "macs",
                                                       "restreamed",
                                                       "dram_words_through",
                                                       "kept_on_chip",
                                                       "dma0_words",
                                                       "dma0_cycles",
                                                       "dma1_words",
                                                       "dma1_cycles",
                                                       "dma2_words",
                                                       "dma2_cycles",
                                                       "dma3_words",
                                                       "dma3_cycles"}));
  const long count = number_before(summary, "segments,");
  ASSERT_GT(count, 0) << summary;
  ASSERT_EQ(segments.rows.size(), static_cast<size_t>(count) + 1); // and the total row
  const size_t total = segments.rows.size() - 1;
  EXPECT_EQ(segments.text(total, "segment"), "total");
  double dram = 0, latency = 0, unit_words = 0, through = 0;
  std::vector<bool> steps(total, false);
  for (size_t i = 0; i < total; ++i) {
    EXPECT_EQ(segments.text(i, "segment"), std::to_string(i));
    steps.at(static_cast<size_t>(segments.number(i, "step"))) = true;
    EXPECT_LE(segments.number(i, "dram_words"), segments.number(i, "dram_words_through"));
    through += segments.number(i, "dram_words_through");
    dram += segments.number(i, "dram_words");
    latency += segments.number(i, "latency_s");
    double units = 0;
    for (const char *unit : {"dma0_words", "dma1_words", "dma2_words", "dma3_words"})
      units += segments.number(i, unit);
    // Numbers are printed with 6 significant digits.
    EXPECT_TRUE(near_relative(units, segments.number(i, "dram_words"), 1e-5)) << "segment " << i;
    unit_words += units;
  }
  EXPECT_EQ(std::count(steps.begin(), steps.end(), true), static_cast<long>(total));
  EXPECT_GT(dram, 0);
  EXPECT_LT(dram, through); // ResNet-18 keeps tensors in the 8 MiB GSM between segments
  EXPECT_TRUE(near_relative(dram, segments.number(total, "dram_words"), 1e-5));
  EXPECT_TRUE(near_relative(through, segments.number(total, "dram_words_through"), 1e-5));
  EXPECT_TRUE(near_relative(latency, segments.number(total, "latency_s"), 1e-5));
  EXPECT_TRUE(near_relative(unit_words, dram, 1e-5));

  // The network front: as many rows as the summary says, latency ascending and energy
  // descending, from the latency-optimal plan (the schedule, which keeps tensors on chip) to the
  // energy-optimal one.
  const Csv front = parse_csv(read("report/network_front.csv"));
  EXPECT_EQ(front.header, (std::vector<std::string>{"point", "latency_s", "energy_pj", "edp_pj_s",
                                                    "dram_words", "fused_segments"}));
  ASSERT_EQ(front.rows.size(), static_cast<size_t>(number_before(summary, "points,")));
  ASSERT_GE(front.rows.size(), 2u);
  for (size_t i = 1; i < front.rows.size(); ++i) {
    EXPECT_GT(front.number(i, "latency_s"), front.number(i - 1, "latency_s"));
    EXPECT_LT(front.number(i, "energy_pj"), front.number(i - 1, "energy_pj"));
  }
  EXPECT_TRUE(
      near_relative(front.number(0, "latency_s"), segments.number(total, "latency_s"), 1e-5));
  EXPECT_TRUE(
      near_relative(front.number(0, "dram_words"), segments.number(total, "dram_words"), 1e-5));
  run_ok({"plot", "report/network_front.csv", "-o", "front.svg"});
  EXPECT_TRUE(exists("front.svg"));

  const Csv layout = parse_csv(read("report/layout.csv"));
  EXPECT_EQ(layout.header[0], "node");
  EXPECT_EQ(layout.rows.size(), static_cast<size_t>(number_before(summary, "vector passes: ")));
  for (size_t i = 0; i < layout.rows.size(); ++i) // the passes' latencies in the schedule
    EXPECT_GT(layout.number(i, "latency_s"), 0);
  const Csv memory = parse_csv(read("report/memory.csv"));
  EXPECT_EQ(memory.header,
            (std::vector<std::string>{"plan", "step", "node", "part", "region", "GSM_live_words",
                                      "resident_words", "dram_words"}));
  EXPECT_FALSE(memory.rows.empty());
}

// Same input, same output, whatever the thread count: every report file (the summary but its
// planning time) of MobileNetV2 (the tiny CNN in the sanitizer suite), whose schedule (for
// energy) keeps tensors on chip, fuses pairs through windows and runs a split region part by part.
TEST_F(NetworkCommand, ReportsDoNotDependOnTheThreadCount) {
  const std::string model = repo_file(
      test_common::per_suite<std::string>("networks/mobilenet_v2.onnx", "networks/tiny-cnn.yaml"));
  for (const char *threads : {"1", "2"})
    run_ok({"network", "--hw", kDsp, "--model", model, "--objective", "energy", "--threads",
            threads, "-o", threads == std::string("1") ? "one" : "two"});
  if (test_common::per_suite(true, false)) {
    EXPECT_NE(read("one/segments.csv").find(",split,"), std::string::npos);
  }
  const auto without_time = [](std::string text) {
    const size_t at = text.find("planning time: ");
    return at == std::string::npos ? text : text.substr(0, at);
  };
  EXPECT_EQ(without_time(read("one/summary.txt")), without_time(read("two/summary.txt")));
  for (const char *file : {"hotspots.txt", "memory.csv", "splits.csv", "segments.csv",
                           "network_front.csv", "layout.csv"})
    EXPECT_EQ(read(std::string("one/") + file), read(std::string("two/") + file)) << file;
}

TEST_F(NetworkCommand, WithoutOutputDirectoryOnlyPrints) {
  const RunResult r = run_ok(network(kResnet, {"--no-search"}));
  EXPECT_NE(r.out.find("layout and parallelism (4 cores): "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("schedule ("), std::string::npos) << r.out;
  EXPECT_TRUE(listing().empty());
}

TEST_F(NetworkCommand, MissingModelFile) {
  expect_error(network("missing.onnx"),
               "error: cannot read file 'missing.onnx': no such file or directory");
}

TEST_F(NetworkCommand, MissingHardwareFile) {
  expect_error({"network", "--hw", "missing.yaml", "--model", kResnet},
               "error: cannot read file 'missing.yaml': no such file or directory");
}

TEST_F(NetworkCommand, MalformedYamlGraph) {
  write("broken.yaml", "name: broken\nnodes: [a\n");
  expect_error(network("broken.yaml"),
               "broken.yaml:3:1: error: invalid yaml: end of sequence flow not found");
}

TEST_F(NetworkCommand, OnnxFileThatIsNotOnnx) {
  write("fake.onnx", "name: not a protobuf\n");
  expect_error(network("fake.onnx"),
               "fake.onnx: error: not a valid ONNX model (the protobuf message does not parse)");
}

TEST_F(NetworkCommand, HardwareWithAnEmptyDmaUnitList) {
  std::ifstream in(kDsp);
  const std::string dsp((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write("hw.yaml", dsp.substr(0, dsp.find("dma_units:")) + "dma_units: []\n");
  expect_error({"network", "--hw", "hw.yaml", "--model", kResnet},
               "hw.yaml:24:12: error: dma_units must list at least one unit (or be left out), "
               "got an empty list");
}

TEST_F(NetworkCommand, UnknownOption) {
  expect_usage_error(network(kResnet, {"--frobnicate"}),
                     "The following argument was not expected: --frobnicate");
}

} // namespace
} // namespace dse::testing
