// The hardware, workload and mapping examples of README.md are accepted by `dse` as written.
#include <fstream>
#include <sstream>

#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

/// The ```yaml blocks of README.md, in order.
std::vector<std::string> readme_yaml_blocks() {
  std::ifstream in(repo_file("README.md"));
  std::vector<std::string> blocks;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "```yaml") {
      blocks.emplace_back();
      inside = true;
    } else if (line.rfind("```", 0) == 0) {
      inside = false;
    } else if (inside) {
      blocks.back() += line + "\n";
    }
  }
  return blocks;
}

using ReadmeExamples = CliTest;

TEST_F(ReadmeExamples, HardwareWorkloadAndMappingAreAccepted) {
  const std::vector<std::string> blocks = readme_yaml_blocks();
  ASSERT_EQ(blocks.size(), 3u) << "expected the hardware, workload and mapping examples";
  write("hw.yaml", blocks[0]);
  write("workload.yaml", blocks[1]);
  write("mapping.yaml", blocks[2]);
  const RunResult front = run_ok({"explore", "--hw", "hw.yaml", "--workload", "workload.yaml"});
  EXPECT_FALSE(parse_csv(front.out).rows.empty());
  run_ok({"eval", "--hw", "hw.yaml", "--workload",
          repo_file("workloads/ffn-2048x768x3072x768.yaml"), "--mapping", "mapping.yaml"});
}

} // namespace
} // namespace dse::testing
