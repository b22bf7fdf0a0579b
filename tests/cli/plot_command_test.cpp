// `dse plot`: fronts and buffer curves render to SVG and PNG; the gnuplot script (`-o FILE.gp`)
// draws a sweep's fronts one per configuration, fronts in their objectives and summaries against
// the swept value; unknown CSVs, formats and mixed axes fail.
#include <algorithm>
#include <cstdlib>
#include <sstream>

#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

/// A script written by `dse plot -o FILE.gp`, taken apart: its settings (the lines other than
/// data blocks and `plot`) and, per series in plot order, its title and data lines.
struct Script {
  std::vector<std::string> settings;
  std::vector<std::string> titles;
  std::vector<std::vector<std::string>> data;
  bool has(const std::string &setting) const {
    return std::find(settings.begin(), settings.end(), setting) != settings.end();
  }
};

/// The single-quoted titles of a `plot` line ('' stands for a quote).
std::vector<std::string> plot_titles(const std::string &line) {
  std::vector<std::string> titles;
  const std::string key = " title '";
  for (size_t at = line.find(key); at != std::string::npos; at = line.find(key, at)) {
    std::string title;
    for (at += key.size(); !(line[at] == '\'' && line[at + 1] != '\''); ++at)
      title += line[line[at] == '\'' ? ++at : at];
    titles.push_back(title);
  }
  return titles;
}

Script parse_script(const std::string &text) {
  Script s;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("$series")) {
      s.data.emplace_back();
      while (std::getline(in, line) && line != "EOD")
        s.data.back().push_back(line);
    } else if (line.starts_with("plot ")) {
      s.titles = plot_titles(line);
    } else {
      s.settings.push_back(line);
    }
  }
  return s;
}

/// The x or y value of a data line.
double coordinate(const std::string &line, int which) {
  std::istringstream in(line);
  double x = 0, y = 0;
  in >> x >> y;
  return which == 0 ? x : y;
}

class PlotCommandTest : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    run_ok({"explore", "--hw", sim_, "--workload", repo_file("workloads/gemm-1024.yaml"), "-o",
            "front.csv"});
  }

  /// `dse plot inputs... -o plot.gp` with `extra` options, and the script it wrote.
  Script plot_script(const std::vector<std::string> &inputs,
                     const std::vector<std::string> &extra = {}) const {
    run_ok(concat(concat({"plot"}, inputs), concat({"-o", "plot.gp"}, extra)));
    return parse_script(read("plot.gp"));
  }

  void sweep(const std::vector<std::string> &options) const {
    run_ok(concat({"sweep", "--hw", sim_, "--workload", small_, "-o", "s.csv"}, options));
  }

  const std::string sim_ = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
  const std::string small_ = repo_file("workloads/gemm-small-64.yaml");
};

TEST_F(PlotCommandTest, FrontRendersToSvgAndPng) {
  run_ok({"plot", "front.csv", "-o", "front.svg"});
  EXPECT_NE(read("front.svg").find("<svg"), std::string::npos);
  run_ok({"plot", "front.csv", "front.csv", "-o", "front.png"});
  EXPECT_EQ(read("front.png").substr(1, 3), "PNG");
}

TEST_F(PlotCommandTest, BufferCurveRendersWithTheLowerBound) {
  sweep({"--set", "GlobalBuffer.capacity_kib=1..16:x2", "--buffer-curve"});
  run_ok({"plot", "s-buffer-curve.csv", "-o", "curve.svg"});
  EXPECT_NE(read("curve.svg").find("I/O lower bound"), std::string::npos);
  run_ok({"plot", "s-summary.csv", "-o", "summary.svg"});
}

TEST_F(PlotCommandTest, ScriptRendersThroughGnuplot) {
  plot_script({"front.csv"});
  const std::string command = "cd '" + dir_.string() +
                              "' && gnuplot -e \"set terminal svg; set output 'plot.svg'\" "
                              "plot.gp 2>/dev/null";
  ASSERT_EQ(std::system(command.c_str()), 0);
  EXPECT_NE(read("plot.svg").find("<svg"), std::string::npos);
}

TEST_F(PlotCommandTest, SweepFrontsAreOneSeriesPerConfigurationAndWorkload) {
  run_ok({"sweep", "--hw", sim_, "--workload", small_, "--workload",
          repo_file("workloads/gemm-1024.yaml"), "--set", "GlobalBuffer.capacity_kib=16,64",
          "--set", "DRAM.bandwidth_gbps=10,60", "-o", "s.csv"});
  const Csv fronts = parse_csv(read("s.csv"));
  std::vector<std::string> titles;
  std::vector<std::vector<std::string>> data;
  for (size_t r = 0; r < fronts.rows.size(); ++r) {
    const std::string title =
        "GlobalBuffer.capacity_kib=" + fronts.text(r, "GlobalBuffer.capacity_kib") +
        " DRAM.bandwidth_gbps=" + fronts.text(r, "DRAM.bandwidth_gbps") + " " +
        fronts.text(r, "workload");
    if (titles.empty() || titles.back() != title) {
      titles.push_back(title);
      data.emplace_back();
    }
    data.back().push_back(fronts.text(r, "latency_s") + " " + fronts.text(r, "energy_pj"));
  }
  ASSERT_EQ(titles.size(), 8u); // each front's rows are together in the file
  const Script script = plot_script({"s.csv"});
  EXPECT_EQ(script.titles, titles);
  EXPECT_EQ(script.data, data);
  EXPECT_TRUE(script.has("set xlabel 'latency (s)' noenhanced"));
  EXPECT_TRUE(script.has("set ylabel 'energy (pJ)' noenhanced"));
}

TEST_F(PlotCommandTest, FrontIsDrawnInTheObjectivesItWasExploredFor) {
  const Script front = plot_script({"front.csv"});
  EXPECT_TRUE(front.has("set xlabel 'latency (s)' noenhanced"));
  EXPECT_TRUE(front.has("set ylabel 'energy (pJ)' noenhanced"));
  EXPECT_EQ(front.titles, std::vector<std::string>{"front"});

  run_ok({"explore", "--hw", sim_, "--workload", small_, "--objectives", "dram,buffer", "-o",
          "d.csv"});
  const Csv d = parse_csv(read("d.csv"));
  ASSERT_GE(d.rows.size(), 3u);
  const Script detected = plot_script({"d.csv"});
  EXPECT_TRUE(detected.has("set xlabel 'DRAM traffic (words)' noenhanced"));
  EXPECT_TRUE(detected.has("set ylabel 'global buffer (words)' noenhanced"));
  ASSERT_EQ(detected.data.size(), 1u);
  ASSERT_EQ(detected.data[0].size(), d.rows.size());
  for (size_t r = 0; r < d.rows.size(); ++r) {
    EXPECT_EQ(coordinate(detected.data[0][r], 0),
              d.number(r, "dram_read_words") + d.number(r, "dram_write_words"));
    EXPECT_EQ(coordinate(detected.data[0][r], 1), d.number(r, "gb_words_gemm"));
  }

  const Script chosen = plot_script({"d.csv"}, {"--objectives", "latency,energy"});
  EXPECT_TRUE(chosen.has("set xlabel 'latency (s)' noenhanced"));
  EXPECT_TRUE(chosen.has("set ylabel 'energy (pJ)' noenhanced"));
  const Script one = plot_script({"d.csv"}, {"--objectives", "buffer"});
  EXPECT_TRUE(one.has("set xlabel 'global buffer (words)' noenhanced"));
  EXPECT_TRUE(one.has("set ylabel 'latency (s)' noenhanced"));
}

TEST_F(PlotCommandTest, FrontOfUnclearObjectivesIsDrawnWithAWarning) {
  const std::string header =
      "point,latency_s,energy_pj,dram_read_words,dram_write_words,gb_words_a\n";
  write("two.csv", header + "0,1,5,20,0,100\n1,2,5,10,0,50\n");
  const RunResult two = run({"plot", "two.csv", "-o", "two.gp"});
  EXPECT_EQ(two.exit_code, 0);
  EXPECT_EQ(two.err, "two.csv: warning: its rows are ordered as a front of latency,dram and of "
                     "latency,buffer; plotting latency,dram (--objectives chooses)\n");
  EXPECT_TRUE(parse_script(read("two.gp")).has("set ylabel 'DRAM traffic (words)' noenhanced"));

  write("none.csv", header + "0,1,5,10,0,100\n1,2,6,20,0,200\n");
  const RunResult none = run({"plot", "none.csv", "-o", "none.gp"});
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.err, "none.csv: warning: its rows are not ordered as a front of two "
                      "objectives; plotting latency,energy (--objectives chooses)\n");
  EXPECT_TRUE(parse_script(read("none.gp")).has("set xlabel 'latency (s)' noenhanced"));
}

TEST_F(PlotCommandTest, SummaryIsDrawnAgainstTheSweptValue) {
  sweep({"--set", "GlobalBuffer.capacity_kib=1..16:x2", "--set", "DRAM.bandwidth_gbps=10,60"});
  const Csv summary = parse_csv(read("s-summary.csv"));
  const Script script = plot_script({"s-summary.csv"});
  EXPECT_TRUE(script.has("set xlabel 'GlobalBuffer.capacity_kib' noenhanced"));
  EXPECT_TRUE(script.has("set logscale x")); // 1 to 16 KiB spans more than a decade
  EXPECT_EQ(script.titles, (std::vector<std::string>{"DRAM.bandwidth_gbps=10 gemm-small-64",
                                                     "DRAM.bandwidth_gbps=60 gemm-small-64"}));
  ASSERT_EQ(script.data.size(), 2u);
  for (size_t r = 0; r < summary.rows.size(); ++r) {
    const std::vector<std::string> &series = script.data[r % 2]; // bandwidth varies fastest
    ASSERT_EQ(series.size(), 5u);
    EXPECT_EQ(series[r / 2], summary.text(r, "GlobalBuffer.capacity_kib") + " " +
                                 summary.text(r, "best_edp_pj_s"));
  }

  sweep({"--set", "DRAM.bandwidth_gbps=10,60"});
  const Script narrow = plot_script({"s-summary.csv"});
  EXPECT_TRUE(narrow.has("set xlabel 'DRAM.bandwidth_gbps' noenhanced"));
  EXPECT_FALSE(narrow.has("set logscale x")); // 10 to 60 GB/s does not
  EXPECT_EQ(narrow.titles, std::vector<std::string>{"gemm-small-64"});
}

TEST_F(PlotCommandTest, SummaryOfHardwareFilesNamesThemOnTheXAxis) {
  write("tiny.yaml", kTinyHardware);
  sweep({"--hw", "tiny.yaml"});
  const Script script = plot_script({"s-summary.csv"});
  EXPECT_TRUE(script.has("set xlabel 'hardware' noenhanced"));
  EXPECT_TRUE(script.has("set xtics ('sim-1g-1mb-60gbps' 0, 'tiny' 1) noenhanced"));
  EXPECT_EQ(script.titles, std::vector<std::string>{"gemm-small-64"});
}

TEST_F(PlotCommandTest, UnknownInputsFail) {
  const RunResult jpg = run({"plot", "front.csv", "-o", "x.jpg"});
  EXPECT_EQ(jpg.exit_code, 1);
  EXPECT_EQ(jpg.err, "error: -o must end in .svg, .png or .gp, got 'x.jpg'\n");
  write("other.csv", "a,b\n1,2\n");
  const RunResult other = run({"plot", "other.csv", "-o", "x.svg"});
  EXPECT_EQ(other.exit_code, 1);
  EXPECT_EQ(other.err,
            "other.csv:1: error: not a front, sweep summary or buffer-curve CSV written by dse\n");
  EXPECT_FALSE(exists("x.svg"));
}

TEST_F(PlotCommandTest, FrontWithoutTheObjectiveColumnFails) {
  write("network.csv", "point,latency_s,energy_pj,dram_words\n0,1,2,3\n");
  const RunResult missing =
      run({"plot", "network.csv", "--objectives", "dram,buffer", "-o", "y.gp"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.err, "network.csv:1: error: no column for objective 'buffer'\n");
  EXPECT_FALSE(exists("y.gp"));
}

TEST_F(PlotCommandTest, InputsOnDifferentAxesFail) {
  sweep({"--set", "GlobalBuffer.capacity_kib=1..4:x2", "--buffer-curve"});
  const RunResult r = run({"plot", "s-buffer-curve.csv", "front.csv", "-o", "x.gp"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "front.csv:1: error: its axes 'latency (s)' and 'energy (pJ)' are not those "
            "of 's-buffer-curve.csv' ('global buffer (words)' and 'DRAM traffic (words)')\n");
  EXPECT_FALSE(exists("x.gp"));
  // A front of buffer need and DRAM traffic shares the axes of the curve.
  run_ok({"explore", "--hw", sim_, "--workload", small_, "--objectives", "buffer,dram", "-o",
          "b.csv"});
  const Script both = plot_script({"s-buffer-curve.csv", "b.csv"});
  EXPECT_EQ(both.titles,
            (std::vector<std::string>{"s-buffer-curve gemm-small-64", "b",
                                      "s-buffer-curve gemm-small-64 I/O lower bound"}));
}

} // namespace
} // namespace dse::testing
