// The counts README.md quotes are what `dse` prints: the pruning table of its Pruning section
// (candidates before -> after pruning, from `dse explore -v`) and the loop-nest counts of the
// --max-loop-nests row (from the message refusing a space above the limit).
// bench/regenerate_figures.sh prints both in the README's form.
#include <fstream>
#include <regex>
#include <sstream>

#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

std::string readme_text() {
  std::ifstream in(repo_file("README.md"));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The lines of `text` from the line `heading` up to the next heading of the same level.
std::vector<std::string> section(const std::string &text, const std::string &heading) {
  std::istringstream in(text);
  std::vector<std::string> lines;
  bool inside = false;
  for (std::string line; std::getline(in, line);) {
    if (line == heading)
      inside = true;
    else if (inside && line.rfind("## ", 0) == 0)
      break;
    else if (inside)
      lines.push_back(line);
  }
  return lines;
}

/// "9,179,136" -> "9179136".
std::string without_commas(std::string s) {
  std::erase(s, ',');
  return s;
}

/// One row of the README's pruning table.
struct QuotedPruning {
  std::string workload; // file name in workloads/, without .yaml
  std::string problem;  // the problem's label in `dse explore -v`
  std::string before, after;
};

using ReadmeFigures = CliTest;

TEST_F(ReadmeFigures, PruningCountsAreWhatExploreVerbosePrints) {
  const std::vector<std::string> lines = section(readme_text(), "## Pruning");
  ASSERT_FALSE(lines.empty()) << "README.md has no '## Pruning' section";

  // The command the table is taken from, then its rows.
  const std::regex command_re(R"(`dse explore -v --hw (\S+) --workload workloads/W\.yaml`)");
  const std::regex row_re(R"(^\| `([^`]+)` \| `([^`]+)`[^|]*\| ([0-9,]+) -> ([0-9,]+) \|$)");
  std::string hw;
  std::vector<QuotedPruning> quoted;
  for (const std::string &line : lines) {
    std::smatch m;
    if (hw.empty() && std::regex_search(line, m, command_re))
      hw = m[1];
    else if (std::regex_match(line, m, row_re))
      quoted.push_back({m[1], m[2], without_commas(m[3]), without_commas(m[4])});
  }
  ASSERT_FALSE(hw.empty()) << "the Pruning section does not name its `dse explore -v --hw ... "
                              "--workload workloads/W.yaml` command";
  ASSERT_GE(quoted.size(), 3u) << "expected the pruning table (GEMM, FFN pair, attention)";

  const std::regex counts_re(R"(; candidates ([0-9]+) -> ([0-9]+);)");
  for (const QuotedPruning &q : quoted) {
    SCOPED_TRACE(q.workload + ", " + q.problem);
    const RunResult r = run({"explore", "-v", "--hw", repo_file(hw), "--workload",
                             repo_file("workloads/" + q.workload + ".yaml"), "-o", "front.csv"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    // The statistics line of the problem: "LABEL: dataflows ... ; candidates A -> B; ...".
    std::istringstream err(r.err);
    bool found = false;
    for (std::string line; std::getline(err, line);) {
      std::smatch m;
      if (line.rfind(q.problem + ": dataflows ", 0) != 0 || !std::regex_search(line, m, counts_re))
        continue;
      found = true;
      EXPECT_EQ(q.before, m[1].str())
          << "README.md quotes " << q.before << " candidates before pruning; dse prints:\n"
          << line;
      EXPECT_EQ(q.after, m[2].str())
          << "README.md quotes " << q.after << " candidates after pruning; dse prints:\n"
          << line;
    }
    EXPECT_TRUE(found) << "no statistics for problem '" << q.problem << "' in:\n" << r.err;
  }
}

TEST_F(ReadmeFigures, LoopNestCountsAreWhatTheLimitMessagePrints) {
  const std::string text = readme_text();
  const std::regex quoted_re(
      R"(an einsum of ([0-9]+) tiled dimensions has ([0-9.e]+), of ([0-9]+) dimensions ([0-9.e]+))");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(text, m, quoted_re))
      << "README.md no longer quotes the loop nests of two einsum sizes";
  const std::regex printed_re(R"(the candidate space has (\S+) loop nests)");
  for (int i : {1, 3}) {
    const int dims = std::stoi(m[i]);
    SCOPED_TRACE(std::to_string(dims) + " dimensions");
    write("wide.yaml", wide_einsum(dims));
    // A limit of 1 refuses the space and prints its size.
    const RunResult r = run({"explore", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"),
                             "--workload", "wide.yaml", "--max-loop-nests", "1"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    std::smatch printed;
    ASSERT_TRUE(std::regex_search(r.err, printed, printed_re)) << r.err;
    EXPECT_EQ(m[i + 1].str(), printed[1].str()) << r.err;
  }
}

} // namespace
} // namespace dse::testing
