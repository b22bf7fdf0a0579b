// `dse plot`: renders fronts (in the objectives they were searched for; several files or
// configurations overlaid), buffer-size curves (with the I/O lower bound) and sweep summaries
// (against the swept value) to SVG or PNG through gnuplot, or writes the gnuplot script itself.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/support/csv.hpp"
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
double plotted_number(const Table &t, size_t r, int col) {
  const std::string &text = t.rows[r][static_cast<size_t>(col)];
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    throw UserError(SourceLocation{t.file, static_cast<int>(r) + 2, 0},
                    "column '" + t.header[static_cast<size_t>(col)] +
                        "' must be a finite number, got '" + text + "'");
  return value;
}

/// Rows of a sweep summary or curve whose configuration fits no mapping have nothing to plot.
bool is_infeasible_row(const Table &t, size_t r) {
  const int feasible = t.column("feasible");
  return feasible >= 0 && t.rows[r][static_cast<size_t>(feasible)] == "no";
}

bool is_capacity_column(const std::string &name) {
  return name.ends_with(".capacity_kib") || name.ends_with(".capacity_words");
}

/// The columns that tell the series of a sweep output apart: of its leading configuration
/// columns (`hw`, one per swept parameter), those taking more than one value in the file, then
/// the workload. An explore front has none.
std::vector<int> distinguishing_columns(const Table &t) {
  std::vector<int> out;
  for (int i = 0; i <= t.column("workload"); ++i) {
    const auto c = static_cast<size_t>(i);
    const bool varies = std::any_of(t.rows.begin(), t.rows.end(),
                                    [&](const auto &row) { return row[c] != t.rows[0][c]; });
    if (varies || t.header[c] == "workload")
      out.push_back(i);
  }
  return out;
}

/// Series label of a row: the file's stem when several files are overlaid, then the values of
/// `columns`, a swept parameter's as `path=value` ("GlobalBuffer.capacity_kib=256 gemm-1024").
std::string series_label(const Table &t, const std::vector<std::string> &row,
                         const std::vector<int> &columns, bool include_stem) {
  std::string label = include_stem ? std::filesystem::path(t.file).stem().string() : "";
  for (int i : columns) {
    const std::string &name = t.header[static_cast<size_t>(i)];
    const std::string &value = row[static_cast<size_t>(i)];
    label += (label.empty() ? "" : " ") +
             (name == "hw" || name == "workload" ? value : name + "=" + value);
  }
  return label.empty() ? "front" : label;
}

struct Axes {
  std::string x, y; // labels
  bool operator==(const Axes &) const = default;
};

struct Point {
  double x, y;
};

/// Labelled series in the order of their first rows, which is the order of the swept values.
class SeriesList {
public:
  /// The points of the series labelled `label`, a new series if there is none yet.
  std::vector<Point> &operator[](const std::string &label) {
    const auto [it, added] = index_.try_emplace(label, series_.size());
    if (added)
      series_.push_back({label, {}});
    return series_[it->second].second;
  }
  auto begin() const { return series_.begin(); }
  auto end() const { return series_.end(); }

private:
  std::vector<std::pair<std::string, std::vector<Point>>> series_;
  std::map<std::string, size_t> index_;
};

struct Plot {
  std::string title;
  Axes axes;
  std::string axes_file; // the input that set the axes, empty before the first
  SeriesList series;
  SeriesList dashed;              // reference series
  std::vector<std::string> xtics; // names of x = 0, 1, ... when x is not a number
};

/// Sets the plot's title and axes from its first input; every later input must be drawn on the
/// same axes (a front of buffer and DRAM traffic can share those of a buffer curve).
void set_axes(Plot &plot, const Table &t, const std::string &title, const Axes &axes) {
  if (plot.axes_file.empty()) {
    plot.title = title;
    plot.axes = axes;
    plot.axes_file = t.file;
    return;
  }
  if (plot.axes != axes)
    throw UserError(SourceLocation{t.file, 1, 0},
                    "its axes '" + axes.x + "' and '" + axes.y + "' are not those of '" +
                        plot.axes_file + "' ('" + plot.axes.x + "' and '" + plot.axes.y + "')");
}

constexpr std::array kObjectives = {Objective::Latency, Objective::Energy, Objective::Edp,
                                    Objective::Dram, Objective::Buffer};
using ObjectivePair = std::array<Objective, 2>;
using ObjectiveValues = std::map<Objective, std::vector<double>>; // value per row

std::string axis_label(Objective o) {
  switch (o) {
  case Objective::Latency:
    return "latency (s)";
  case Objective::Energy:
    return "energy (pJ)";
  case Objective::Edp:
    return "EDP (pJ s)";
  case Objective::Dram:
    return "DRAM traffic (words)";
  case Objective::Buffer:
    return "global buffer (words)";
  }
  return "?";
}

/// The columns objective `o` is computed from, empty when the front lacks one: DRAM traffic is
/// reads plus writes (or their total), the buffer need the largest per-operator need.
std::vector<int> objective_columns(const Table &t, Objective o) {
  auto columns_named = [&](std::initializer_list<const char *> names) {
    std::vector<int> out;
    for (const char *name : names)
      if (t.column(name) >= 0)
        out.push_back(t.column(name));
    return out.size() == names.size() ? out : std::vector<int>{};
  };
  switch (o) {
  case Objective::Latency:
    return columns_named({"latency_s"});
  case Objective::Energy:
    return columns_named({"energy_pj"});
  case Objective::Edp:
    return columns_named({"edp_pj_s"});
  case Objective::Dram:
    return t.column("dram_words") >= 0 ? columns_named({"dram_words"})
                                       : columns_named({"dram_read_words", "dram_write_words"});
  case Objective::Buffer: {
    std::vector<int> out;
    for (size_t i = 0; i < t.header.size(); ++i)
      if (t.header[i].starts_with("gb_words"))
        out.push_back(static_cast<int>(i));
    return out;
  }
  }
  return {};
}

/// Every objective the front has columns for, valued in each row as the search valued it.
ObjectiveValues objective_values(const Table &t) {
  ObjectiveValues out;
  for (Objective o : kObjectives) {
    const std::vector<int> columns = objective_columns(t, o);
    if (columns.empty())
      continue;
    std::vector<double> &values = out[o];
    for (size_t r = 0; r < t.rows.size(); ++r) {
      double v = 0;
      for (int c : columns)
        v = o == Objective::Buffer ? std::max(v, plotted_number(t, r, c))
                                   : v + plotted_number(t, r, c);
      values.push_back(v);
    }
  }
  return out;
}

/// Whether the rows list an exact front of (a, b) in its order: sorted by a, so a rises and,
/// since a point no lower in b than the one before it would be dominated, b falls.
bool ordered_as_front(const ObjectiveValues &values, const ObjectivePair &pair) {
  const std::vector<double> &a = values.at(pair[0]), &b = values.at(pair[1]);
  for (size_t r = 1; r < a.size(); ++r)
    if (!(a[r] > a[r - 1] && b[r] < b[r - 1]))
      return false;
  return true;
}

std::string pair_name(const ObjectivePair &pair) {
  return std::string(objective_name(pair[0])) + "," + objective_name(pair[1]);
}

/// The objectives of an explore front, which the CSV does not record, read from the order of
/// its rows: latency and energy (explore's default) when they fit, else the pair that does.
/// When no pair or several fit, a warning says what is drawn.
ObjectivePair detected_objectives(const Table &t, const ObjectiveValues &values) {
  std::vector<ObjectivePair> candidates{{Objective::Latency, Objective::Energy}};
  for (Objective a : kObjectives)
    for (Objective b : kObjectives)
      if (a != b && candidates.front() != ObjectivePair{a, b} && values.count(a) && values.count(b))
        candidates.push_back({a, b});
  std::vector<ObjectivePair> fitting;
  std::copy_if(candidates.begin(), candidates.end(), std::back_inserter(fitting),
               [&](const ObjectivePair &p) { return ordered_as_front(values, p); });
  if (fitting.size() == 1 || (!fitting.empty() && fitting.front() == candidates.front()))
    return fitting.front();
  const ObjectivePair drawn = fitting.empty() ? candidates.front() : fitting.front();
  std::string why = "its rows are not ordered as a front of two objectives";
  if (!fitting.empty()) {
    why = "its rows are ordered as a front of " + pair_name(fitting.front());
    for (size_t i = 1; i < fitting.size(); ++i)
      why += (i + 1 < fitting.size() ? ", of " : " and of ") + pair_name(fitting[i]);
  }
  std::cerr << t.file << ": warning: " << why << "; plotting " << pair_name(drawn)
            << " (--objectives chooses)\n";
  return drawn;
}

/// The two objectives a front is drawn in: the first two of --objectives (one objective is drawn
/// against latency, or against energy when it is latency); without it, a sweep's fronts in
/// latency and energy (the objectives it searches first), an explore front's as detected.
ObjectivePair front_objectives(const Table &t, const ObjectiveValues &values,
                               const std::string &option) {
  if (option.empty())
    return t.column("workload") >= 0 ? ObjectivePair{Objective::Latency, Objective::Energy}
                                     : detected_objectives(t, values);
  const std::vector<Objective> listed = parse_objective_list(option);
  const Objective other = listed[0] == Objective::Latency ? Objective::Energy : Objective::Latency;
  const ObjectivePair pair{listed[0], listed.size() > 1 ? listed[1] : other};
  for (Objective o : pair)
    if (!values.count(o))
      throw UserError(SourceLocation{t.file, 1, 0},
                      "no column for objective '" + std::string(objective_name(o)) + "'");
  return pair;
}

void add_fronts(Plot &plot, const Table &t, const std::string &objectives, bool stem) {
  const ObjectiveValues values = objective_values(t);
  const auto [x, y] = front_objectives(t, values, objectives);
  set_axes(plot, t, "Pareto fronts", {axis_label(x), axis_label(y)});
  const std::vector<int> columns = distinguishing_columns(t);
  for (size_t r = 0; r < t.rows.size(); ++r)
    plot.series[series_label(t, t.rows[r], columns, stem)].push_back(
        {values.at(x)[r], values.at(y)[r]});
}

void add_curves(Plot &plot, const Table &t, bool stem) {
  const int cap = t.column("capacity_words"), dram = t.column("min_dram_words"),
            bound = t.column("io_lower_bound_words");
  set_axes(plot, t, "Lowest DRAM traffic per global-buffer capacity",
           {axis_label(Objective::Buffer), axis_label(Objective::Dram)});
  std::vector<int> columns = distinguishing_columns(t);
  std::erase_if(columns,
                [&](int c) { return is_capacity_column(t.header[static_cast<size_t>(c)]); });
  for (size_t r = 0; r < t.rows.size(); ++r) {
    if (is_infeasible_row(t, r))
      continue;
    const std::string label = series_label(t, t.rows[r], columns, stem);
    plot.series[label].push_back({plotted_number(t, r, cap), plotted_number(t, r, dram)});
    if (bound >= 0 && !t.rows[r][static_cast<size_t>(bound)].empty())
      plot.dashed[label + " I/O lower bound"].push_back(
          {plotted_number(t, r, cap), plotted_number(t, r, bound)});
  }
}

/// The first swept parameter among a summary's distinguishing columns, or -1 when only hardware
/// files and workloads vary.
int swept_parameter(const Table &t, const std::vector<int> &columns) {
  for (int c : columns)
    if (t.header[static_cast<size_t>(c)] != "hw" && t.header[static_cast<size_t>(c)] != "workload")
      return c;
  return -1;
}

/// Best EDP against the first swept parameter, one series per value of everything else that
/// varies; when only hardware files vary, against the hardware, one series per workload.
void add_summary(Plot &plot, const Table &t, bool stem) {
  const int edp = t.column("best_edp_pj_s"), hw = t.column("hw");
  std::vector<int> columns = distinguishing_columns(t);
  const int swept = swept_parameter(t, columns);
  if (swept >= 0)
    std::erase(columns, swept);
  else
    columns = {t.column("workload")};
  set_axes(
      plot, t, "Best EDP per configuration",
      {swept >= 0 ? t.header[static_cast<size_t>(swept)] : "hardware", axis_label(Objective::Edp)});
  std::map<std::string, size_t> rows_seen; // per series
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const std::string label = series_label(t, t.rows[r], columns, stem);
    // The n-th configuration of every series is the n-th hardware file, feasible or not.
    const size_t n = rows_seen[label]++;
    if (swept < 0 && n == plot.xtics.size())
      plot.xtics.push_back(t.rows[r][static_cast<size_t>(hw)]);
    const double x = swept >= 0 ? plotted_number(t, r, swept) : static_cast<double>(n);
    if (!is_infeasible_row(t, r))
      plot.series[label].push_back({x, plotted_number(t, r, edp)});
  }
}

/// Whether the plotted values of one coordinate span more than a decade, so that a log scale
/// spreads them out (all are positive then).
bool spans_decades(const Plot &plot, double Point::*coordinate) {
  double low = std::numeric_limits<double>::infinity(), high = -low;
  for (const SeriesList *series : {&plot.series, &plot.dashed})
    for (const auto &[label, points] : *series)
      for (const Point &p : points) {
        low = std::min(low, p.*coordinate);
        high = std::max(high, p.*coordinate);
      }
  return low > 0 && high > 10 * low;
}

std::string quoted(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

/// A series as gnuplot data lines, in order of x so that its line does not double back.
std::string data_lines(std::vector<Point> points) {
  std::stable_sort(points.begin(), points.end(),
                   [](const Point &a, const Point &b) { return a.x < b.x; });
  std::string out;
  for (const Point &p : points)
    out += csv_number(p.x) + " " + csv_number(p.y) + "\n";
  return out;
}

/// The gnuplot script drawing `plot`, with its data inline: gnuplot shows it as is, or renders it
/// after `set terminal` and `set output`.
std::string gnuplot_script(const Plot &plot) {
  std::ostringstream data, plots;
  int n = 0;
  auto add = [&](const SeriesList &series, const std::string &style) {
    for (const auto &[label, points] : series) {
      const std::string block = "$series" + std::to_string(n);
      data << block << " << EOD\n" << data_lines(points) << "EOD\n";
      plots << (n++ ? ", " : "") << block << " using 1:2 with " << style << " title "
            << quoted(label);
    }
  };
  add(plot.series, "linespoints pointtype 7");
  add(plot.dashed, "lines dashtype 2");
  std::ostringstream s;
  s << data.str() << "set title " << quoted(plot.title) << " noenhanced\nset xlabel "
    << quoted(plot.axes.x) << " noenhanced\nset ylabel " << quoted(plot.axes.y)
    << " noenhanced\nset grid\nset key below noenhanced\n";
  if (!plot.xtics.empty()) {
    s << "set xtics (";
    for (size_t i = 0; i < plot.xtics.size(); ++i)
      s << (i ? ", " : "") << quoted(plot.xtics[i]) << " " << i;
    s << ") noenhanced\n";
  }
  if (spans_decades(plot, &Point::x))
    s << "set logscale x\n";
  if (spans_decades(plot, &Point::y))
    s << "set logscale y\n";
  s << "plot " << plots.str() << "\n";
  return s.str();
}

/// The gnuplot terminal for an image file name, or an empty string for a script (`.gp`).
std::string terminal_for(const std::string &output) {
  if (output.ends_with(".svg"))
    return "svg";
  if (output.ends_with(".png"))
    return "pngcairo";
  if (output.ends_with(".gp"))
    return "";
  throw UserError("-o must end in .svg, .png or .gp, got '" + output + "'");
}

/// The image that gnuplot renders from `script` on `terminal`, as bytes.
std::string rendered_image(const std::string &script, const std::string &terminal,
                           const std::string &extension) {
  const ScratchDir scratch("dse-plot");
  const std::filesystem::path &dir = scratch.path();
  const std::filesystem::path image = dir / ("plot" + extension);
  write_output((dir / "plot.gp").string(), "set terminal " + terminal +
                                               " size 900,600\nset output " +
                                               quoted(image.string()) + "\n" + script);
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
  return bytes.str();
}

} // namespace

int run_plot(const PlotArgs &args) {
  const std::string terminal = terminal_for(args.output_path);
  const bool stem = args.inputs.size() > 1;
  Plot plot;
  for (const std::string &path : args.inputs) {
    const Table t = read_table(path);
    if (t.column("capacity_words") >= 0 && t.column("min_dram_words") >= 0)
      add_curves(plot, t, stem);
    else if (t.column("best_edp_pj_s") >= 0 && t.column("hw") >= 0 && t.column("workload") >= 0)
      add_summary(plot, t, stem);
    else if (t.column("point") >= 0 && t.column("latency_s") >= 0 && t.column("energy_pj") >= 0)
      add_fronts(plot, t, args.objectives, stem);
    else
      throw UserError(SourceLocation{path, 1, 0},
                      "not a front, sweep summary or buffer-curve CSV written by dse");
  }
  const std::string script = gnuplot_script(plot);
  write_output(args.output_path,
               terminal.empty()
                   ? script
                   : rendered_image(script, terminal,
                                    std::filesystem::path(args.output_path).extension().string()));
  return 0;
}

} // namespace dse
