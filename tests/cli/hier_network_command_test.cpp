// `dse network` on a general hierarchy: the summary and the report directory (summary, segments
// and network front, whose totals agree), output independent of the thread count, and the options
// that plan today's global buffer or fuse refused by name, leaving nothing behind.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kHierarchy = repo_file("hw_configs/a16-timeloop.yaml");
const std::string kTinyCnn = repo_file("networks/tiny-cnn.yaml");

class HierNetworkCommand : public CliTest {
protected:
  static std::vector<std::string> network(const std::vector<std::string> &extra = {}) {
    return concat({"network", "--hw", kHierarchy, "--model", kTinyCnn, "--threads", "2"}, extra);
  }
};

std::string without_time(std::string text) {
  const size_t at = text.find("planning time: ");
  return at == std::string::npos ? text : text.substr(0, at);
}

TEST_F(HierNetworkCommand, WritesTheSummarySegmentsAndNetworkFront) {
  const RunResult r = run_ok(network({"-o", "report"}));
  EXPECT_EQ(r.out.rfind("network tiny-cnn (" + kTinyCnn + ") on a16-timeloop: 15 nodes", 0), 0u)
      << r.out;
  EXPECT_NE(r.out.find("\nschedule on the hierarchy (best latency, divisor factors at every "
                       "level): 10 segments (7 compute nodes searched with their attached "
                       "operators, 3 vector and movement nodes), 7 searches, 0 reused; every "
                       "tensor between segments through DRAM\n  total: latency "),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("memory plan of whole tensors"), std::string::npos) << r.out;
  EXPECT_EQ(listing(), std::vector<std::string>{"report"});
  for (const char *file : {"summary.txt", "segments.csv", "network_front.csv"})
    EXPECT_TRUE(exists(std::string("report/") + file)) << file;
  for (const char *file : {"hotspots.txt", "memory.csv", "splits.csv", "layout.csv"})
    EXPECT_FALSE(exists(std::string("report/") + file)) << file;
  EXPECT_EQ(r.out, read("report/summary.txt"));

  const Csv segments = parse_csv(read("report/segments.csv"));
  ASSERT_EQ(segments.rows.size(), 11u); // 10 segments and the total
  double latency = 0, energy = 0, dram = 0, macs = 0;
  for (size_t i = 0; i + 1 < segments.rows.size(); ++i) {
    latency += segments.number(i, "latency_s");
    energy += segments.number(i, "energy_pj");
    dram += segments.number(i, "dram_words");
    macs += segments.number(i, "macs");
    EXPECT_EQ(segments.text(i, "kept_on_chip"), "");
    EXPECT_EQ(segments.number(i, "dram_words"), segments.number(i, "dram_words_through"));
  }
  const size_t total = segments.rows.size() - 1;
  EXPECT_EQ(segments.text(total, "segment"), "total");
  EXPECT_TRUE(near_relative(segments.number(total, "latency_s"), latency, 1e-12));
  EXPECT_TRUE(near_relative(segments.number(total, "energy_pj"), energy, 1e-12));
  EXPECT_EQ(segments.number(total, "dram_words"), dram);
  EXPECT_EQ(segments.number(total, "macs"), macs);

  const Csv front = parse_csv(read("report/network_front.csv"));
  ASSERT_GE(front.rows.size(), 2u);
  EXPECT_TRUE(near_relative(front.number(0, "latency_s"), latency, 1e-12));
  for (size_t i = 1; i < front.rows.size(); ++i) {
    EXPECT_GT(front.number(i, "latency_s"), front.number(i - 1, "latency_s"));
    EXPECT_LT(front.number(i, "energy_pj"), front.number(i - 1, "energy_pj"));
  }
}

TEST_F(HierNetworkCommand, ReportsDoNotDependOnTheThreadCount) {
  run_ok({"network", "--hw", kHierarchy, "--model", kTinyCnn, "--threads", "1", "-o", "one"});
  run_ok({"network", "--hw", kHierarchy, "--model", kTinyCnn, "--threads", "2", "-o", "two"});
  EXPECT_EQ(without_time(read("one/summary.txt")), without_time(read("two/summary.txt")));
  for (const char *file : {"segments.csv", "network_front.csv"})
    EXPECT_EQ(read(std::string("one/") + file), read(std::string("two/") + file)) << file;
}

TEST_F(HierNetworkCommand, RefusesWhatPlansTheGlobalBufferOrFuses) {
  const std::string prefix =
      kHierarchy + ": error: OPTION: 'a16-timeloop' is a general hierarchy (counting: timeloop), ";
  const auto message = [&](const std::string &option, const std::string &why) {
    std::string m = prefix;
    m.replace(m.find("OPTION"), 6, option);
    return m + why;
  };
  const std::string no_memory_plan =
      "whose network plan has no memory planning of whole tensors (its levels hold tiles)";
  expect_error(network({"--report"}), message("--report", no_memory_plan));
  expect_error(network({"--no-search"}), message("--no-search", no_memory_plan));
  expect_error(network({"--max-fused", "2"}),
               message("--max-fused 2", "whose network plan searches each compute node alone, "
                                        "and with --hier-fusion each linked pair fused too"));
  expect_error(network({"--tiles", "pow2"}),
               message("--tiles pow2", "searched with divisor factors at every level"));
  expect_error(network({"--every-column"}),
               message("--every-column", "searched level by level, not by boxes of tilings"));
}

TEST_F(HierNetworkCommand, FusesLinkedPairsWithHierFusion) {
  const std::string perceptron = repo_file("tests/data/perceptron.yaml");
  const RunResult r = run_ok(
      {"network", "--hw", kHierarchy, "--model", perceptron, "--hier-fusion", "-o", "report"});
  EXPECT_NE(r.out.find("): 2 segments (1 compute nodes searched with their attached operators, 1 "
                       "fused pairs, 0 vector and movement nodes), "),
            std::string::npos)
      << r.out;
  const Csv segments = parse_csv(read("report/segments.csv"));
  ASSERT_EQ(segments.rows.size(), 3u); // the pair, the last layer and the total
  EXPECT_EQ(segments.text(0, "kind"), "fused");
  EXPECT_EQ(segments.text(0, "nodes"), "fc1+relu1+fc2+relu2");
  EXPECT_EQ(segments.text(1, "kind"), "single");
  // On today's model fused runs are searched by default: the flag is refused by name.
  expect_error({"network", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--model",
                perceptron, "--hier-fusion"},
               "error: --hier-fusion applies to general hierarchies; on this hardware fused pairs "
               "are searched unless --no-fusion");
}

TEST_F(HierNetworkCommand, TakesDivisorTilesWhenAsked) {
  const RunResult r = run_ok(network({"--tiles", "divisors"}));
  EXPECT_EQ(without_time(r.out), without_time(run_ok(network()).out));
}

} // namespace
} // namespace dse::testing
