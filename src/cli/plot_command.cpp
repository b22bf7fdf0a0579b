// `dse plot`: renders fronts (several files or configurations overlaid), buffer-size curves
// (log-log, with the I/O lower bound) and sweep summaries to SVG or PNG through gnuplot.
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/support/error.hpp"

namespace dse {

namespace {

struct Table {
  std::string file;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  int column(const std::string &name) const {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name)
        return static_cast<int>(i);
    return -1;
  }
};

std::vector<std::string> split_csv_line(const std::string &line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"')
      out.back() += line[++i];
    else if (c == '"')
      quoted = !quoted;
    else if (c == ',' && !quoted)
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

Table read_table(const std::string &path) {
  std::ifstream in(path);
  if (!in)
    throw UserError("cannot read file '" + path + "'");
  Table t{path, {}, {}};
  std::string line;
  if (!std::getline(in, line))
    throw UserError(SourceLocation{path, 1, 0}, "empty CSV file");
  t.header = split_csv_line(line);
  for (int n = 2; std::getline(in, line); ++n) {
    t.rows.push_back(split_csv_line(line));
    if (t.rows.back().size() != t.header.size())
      throw UserError(SourceLocation{path, n, 0}, "expected " + std::to_string(t.header.size()) +
                                                      " fields, got " +
                                                      std::to_string(t.rows.back().size()));
  }
  return t;
}

/// The number in column `col` of row `r`, checked to be finite: gnuplot would fail on it later
/// with a message that names neither the file nor the row.
const std::string &plotted_number(const Table &t, size_t r, int col) {
  const std::string &text = t.rows[r][static_cast<size_t>(col)];
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    throw UserError(SourceLocation{t.file, static_cast<int>(r) + 2, 0},
                    "column '" + t.header[static_cast<size_t>(col)] +
                        "' must be a finite number, got '" + text + "'");
  return text;
}

/// Rows of a sweep summary or curve whose configuration fits no mapping have nothing to plot.
bool is_infeasible_row(const Table &t, size_t r) {
  const int feasible = t.column("feasible");
  return feasible >= 0 && t.rows[r][static_cast<size_t>(feasible)] == "no";
}

bool is_capacity_column(const std::string &name) {
  return name.ends_with(".capacity_kib") || name.ends_with(".capacity_words");
}

/// Series label of a row: the identifying columns before `stop`, capacity axes left out.
std::string series_label(const Table &t, const std::vector<std::string> &row, int stop,
                         bool include_stem) {
  std::string label = include_stem ? std::filesystem::path(t.file).stem().string() : "";
  for (int i = 0; i < stop; ++i)
    if (!is_capacity_column(t.header[static_cast<size_t>(i)]))
      label += (label.empty() ? "" : " ") + row[static_cast<size_t>(i)];
  return label.empty() ? "front" : label;
}

struct Plot {
  std::string title, xlabel, ylabel;
  bool logx = false, logy = false;
  std::map<std::string, std::string> series; // label -> "x y\n" data
  std::map<std::string, std::string> dashed; // reference series
};

void add_fronts(Plot &plot, const Table &t, bool stem) {
  const int point = t.column("point"), x = t.column("latency_s"), y = t.column("energy_pj");
  plot.title = "Pareto fronts";
  plot.xlabel = "latency (s)";
  plot.ylabel = "energy (pJ)";
  plot.logx = plot.logy = true;
  for (size_t r = 0; r < t.rows.size(); ++r)
    plot.series[series_label(t, t.rows[r], point, stem)] +=
        plotted_number(t, r, x) + " " + plotted_number(t, r, y) + "\n";
}

void add_curves(Plot &plot, const Table &t) {
  const int cap = t.column("capacity_words"), dram = t.column("min_dram_words"),
            bound = t.column("io_lower_bound_words");
  plot.title = "Lowest DRAM traffic per global-buffer capacity";
  plot.xlabel = "global buffer (words)";
  plot.ylabel = "DRAM traffic (words)";
  plot.logx = plot.logy = true;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (is_infeasible_row(t, r))
      continue;
    const std::string label = series_label(t, t.rows[r], cap, false);
    plot.series[label] += plotted_number(t, r, cap) + " " + plotted_number(t, r, dram) + "\n";
    if (bound >= 0 && !t.rows[r][static_cast<size_t>(bound)].empty())
      plot.dashed[label + " I/O lower bound"] +=
          plotted_number(t, r, cap) + " " + plotted_number(t, r, bound) + "\n";
  }
}

void add_summary(Plot &plot, const Table &t) {
  const int workload = t.column("workload"), edp = t.column("best_edp_pj_s");
  plot.title = "Best EDP per configuration";
  plot.xlabel = "configuration (row order)";
  plot.ylabel = "EDP (pJ s)";
  plot.logy = true;
  std::map<std::string, int> index;
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string &w = t.rows[r][static_cast<size_t>(workload)];
    const int x = index[w]++; // infeasible configurations keep their place on the axis
    if (!is_infeasible_row(t, r))
      plot.series[w] += std::to_string(x) + " " + plotted_number(t, r, edp) + "\n";
  }
}

std::string quoted(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

std::string gnuplot_script(const Plot &plot, const std::filesystem::path &dir,
                           const std::string &terminal, const std::filesystem::path &image) {
  std::ostringstream s;
  s << "set terminal " << terminal << " size 900,600\nset output " << quoted(image.string())
    << "\nset title " << quoted(plot.title) << " noenhanced\nset xlabel " << quoted(plot.xlabel)
    << "\nset ylabel " << quoted(plot.ylabel) << "\nset grid\nset key below noenhanced\n";
  if (plot.logx)
    s << "set logscale x\n";
  if (plot.logy)
    s << "set logscale y\n";
  s << "plot ";
  int n = 0;
  auto add = [&](const std::map<std::string, std::string> &series, const std::string &style) {
    for (const auto &[label, data] : series) {
      const std::filesystem::path file = dir / ("series" + std::to_string(n) + ".dat");
      write_output(file.string(), data);
      s << (n++ ? ", " : "") << quoted(file.string()) << " using 1:2 with " << style << " title "
        << quoted(label);
    }
  };
  add(plot.series, "linespoints pointtype 7");
  add(plot.dashed, "lines dashtype 2");
  s << "\n";
  return s.str();
}

std::string terminal_for(const std::string &output) {
  if (output.ends_with(".svg"))
    return "svg";
  if (output.ends_with(".png"))
    return "pngcairo";
  throw UserError("-o must end in .svg or .png, got '" + output + "'");
}

} // namespace

int run_plot(const PlotArgs &args) {
  const std::string terminal = terminal_for(args.output_path);
  Plot plot;
  for (const std::string &path : args.inputs) {
    const Table t = read_table(path);
    if (t.column("capacity_words") >= 0 && t.column("min_dram_words") >= 0)
      add_curves(plot, t);
    else if (t.column("best_edp_pj_s") >= 0 && t.column("workload") >= 0)
      add_summary(plot, t);
    else if (t.column("point") >= 0 && t.column("latency_s") >= 0 && t.column("energy_pj") >= 0)
      add_fronts(plot, t, args.inputs.size() > 1);
    else
      throw UserError(SourceLocation{path, 1, 0},
                      "not a front, sweep summary or buffer-curve CSV written by dse");
  }
  const ScratchDir scratch("dse-plot");
  const std::filesystem::path &dir = scratch.path();
  const std::filesystem::path image =
      dir / ("plot" + std::filesystem::path(args.output_path).extension().string());
  write_output((dir / "plot.gp").string(), gnuplot_script(plot, dir, terminal, image));
  const std::string command = "gnuplot " + quoted((dir / "plot.gp").string()) + " 2> " +
                              quoted((dir / "gnuplot.log").string());
  const int status = std::system(command.c_str());
  std::ifstream rendered(image, std::ios::binary);
  std::ostringstream bytes;
  bytes << rendered.rdbuf();
  if (status != 0 || bytes.str().empty()) {
    std::ifstream log(dir / "gnuplot.log");
    std::ostringstream why;
    why << log.rdbuf();
    throw UserError("gnuplot failed (is the gnuplot package installed?): " + why.str());
  }
  write_output(args.output_path, bytes.str());
  return 0;
}

} // namespace dse
