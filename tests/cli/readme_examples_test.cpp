// The hardware, workload and mapping examples of README.md (today's form and the general hierarchy)
// are accepted by `dse` as written.
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
  ASSERT_EQ(blocks.size(), 5u) << "expected the hardware, workload and mapping examples, then "
                                  "the general hierarchy and its mapping";
  write("hw.yaml", blocks[0]);
  write("workload.yaml", blocks[1]);
  write("mapping.yaml", blocks[2]);
  const RunResult front = run_ok({"explore", "--hw", "hw.yaml", "--workload", "workload.yaml"});
  EXPECT_FALSE(parse_csv(front.out).rows.empty());
  run_ok({"eval", "--hw", "hw.yaml", "--workload",
          repo_file("workloads/ffn-2048x768x3072x768.yaml"), "--mapping", "mapping.yaml"});
}

TEST_F(ReadmeExamples, GeneralHierarchyAndItsMappingEvaluateAsTheShippedFiles) {
  const std::vector<std::string> blocks = readme_yaml_blocks();
  ASSERT_EQ(blocks.size(), 5u);
  write("hw.yaml", blocks[3]);
  write("mapping.yaml", blocks[4]);
  const std::string workload = repo_file("workloads/gemm-256.yaml");
  EXPECT_EQ(
      run_ok({"eval", "--hw", "hw.yaml", "--workload", workload, "--mapping", "mapping.yaml"}).out,
      run_ok({"eval", "--hw", repo_file("hw_configs/a16-timeloop.yaml"), "--workload", workload,
              "--mapping", repo_file("mappings/a16-gemm-256.yaml")})
          .out);
}

} // namespace
} // namespace dse::testing
