// docs/HIERARCHY.md §2.4 end to end: hw_configs/sim-1g-1mb-60gbps.yaml and its spelling in the
// general form with counting: legacy give byte-identical `dse explore` and `dse eval` outputs.
#include <fstream>
#include <sstream>

#include "cli/cli_fixture.hpp"
#include "common/sim_hierarchy_spelling.hpp"

namespace dse::testing {
namespace {

const std::string kShipped = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");

const std::string &kHierarchy = test_common::kSimHierarchySpelling;

/// The shipped file with its comments, name, source, clock and word size, then kHierarchy.
std::string general_spelling() {
  std::ifstream in(kShipped);
  std::ostringstream text;
  text << in.rdbuf();
  const std::string shipped = text.str();
  const size_t at = shipped.find("pe_array:");
  EXPECT_NE(at, std::string::npos);
  return shipped.substr(0, at) + kHierarchy;
}

class HierarchySpelling : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("general.yaml", general_spelling());
  }

  /// Runs `dse args...` once with each spelling as --hw and expects the same standard output.
  std::string expect_same_output(const std::vector<std::string> &args) const {
    const std::string today = run_ok(concat(args, {"--hw", kShipped})).out;
    EXPECT_EQ(run_ok(concat(args, {"--hw", "general.yaml"})).out, today);
    return today;
  }
};

TEST_F(HierarchySpelling, ExploreOutputsAreIdentical) {
  for (const char *workload : {"gemm-small-64", "bert-base-attention-s512"}) {
    SCOPED_TRACE(workload);
    const std::vector<std::string> explore = {
        "explore", "--workload", repo_file("workloads/" + std::string(workload) + ".yaml"),
        "--threads", "2"};
    EXPECT_NE(expect_same_output(explore), "");
    expect_same_output(concat(explore, {"--json"}));
  }
}

TEST_F(HierarchySpelling, EvalOutputsAreIdentical) {
  const std::string workload = repo_file("workloads/bert-base-attention-s512.yaml");
  const std::string mapping =
      expect_same_output({"explore", "--workload", workload, "--threads", "2", "--objectives",
                          "dram,buffer", "--emit-mapping", "0", "-o", "front.csv"});
  write("point.yaml", mapping);
  const std::vector<std::string> eval = {"eval", "--workload", workload, "--mapping", "point.yaml"};
  EXPECT_NE(expect_same_output(eval), "");
  expect_same_output(concat(eval, {"--json"}));
}

} // namespace
} // namespace dse::testing
