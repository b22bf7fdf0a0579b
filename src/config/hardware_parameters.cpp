// Sweep axes and parameter paths into the hardware YAML: the first component names a top-level
// key (clock_ghz), a section (pe_array, vector), a memory level by its name (GlobalBuffer) or
// the DMA units (dma_units.<unit name>.bandwidth_gbps).
#include "dse/config/hardware_parameters.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "hardware_yaml.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

constexpr size_t kMaxAxisValues = 100000;
constexpr size_t kMaxGridConfigurations = 100000;

double parse_number(const std::string &text, const std::string &spec) {
  double value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(value))
    throw UserError("--set " + spec + ": '" + text + "' is not a number");
  return value;
}

std::vector<double> range_values(const std::string &range, const std::string &spec) {
  const size_t dots = range.find("..");
  const size_t colon = range.find(':', dots);
  if (colon == std::string::npos || colon + 2 > range.size() ||
      (range[colon + 1] != 'x' && range[colon + 1] != '+'))
    throw UserError("--set " + spec + ": a range is 'a..b:xF' or 'a..b:+S'");
  const double first = parse_number(range.substr(0, dots), spec);
  const double last = parse_number(range.substr(dots + 2, colon - dots - 2), spec);
  const double step = parse_number(range.substr(colon + 2), spec);
  const bool geometric = range[colon + 1] == 'x';
  if (last < first)
    throw UserError("--set " + spec + ": the range ends below its start");
  if (geometric ? (step <= 1 || first <= 0) : step <= 0)
    throw UserError("--set " + spec +
                    (geometric ? ": a geometric range needs a positive start "
                                 "and a factor greater than 1"
                               : ": a linear range needs a positive step"));
  std::vector<double> out;
  for (double v = first; v <= last * (1 + 1e-12); v = geometric ? v * step : v + step) {
    out.push_back(v);
    if (out.size() > kMaxAxisValues)
      throw UserError("--set " + spec + ": more than " + std::to_string(kMaxAxisValues) +
                      " values");
  }
  return out;
}

/// The YAML node holding the section or level named `head`, or a null node.
YAML::Node section(YAML::Node &root, const std::string &head) {
  if (root[head] && root[head].IsMap())
    return root[head];
  if (root["levels"] && root["levels"].IsSequence())
    for (YAML::Node level : root["levels"])
      if (level.IsMap() && level["name"] && level["name"].IsScalar() &&
          level["name"].Scalar() == head)
        return level;
  return YAML::Node(YAML::NodeType::Undefined);
}

/// Assigns a number as a plain (untagged) scalar: integral values as integers.
void set_number(YAML::Node node, double v) {
  if (v == std::floor(v) && std::abs(v) < 9e15)
    node = static_cast<long long>(v);
  else
    node = v;
  node.SetTag("?"); // what the parser gives an unquoted scalar
}

std::string scalar_text(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

/// `dma_units.<name>.<field>`: the field of the DMA unit of that name (the field follows the
/// last dot, so unit names may contain dots).
void apply_dma_unit(YAML::Node &root, const ParameterSetting &s, const std::string &file) {
  const size_t first = s.path.find('.');
  const size_t last = s.path.rfind('.');
  if (last == first)
    throw UserError(SourceLocation{file, 0, 0}, "unknown parameter path '" + s.path +
                                                    "': expected dma_units.<unit name>.<field>");
  const std::string name = s.path.substr(first + 1, last - first - 1);
  if (root["dma_units"] && root["dma_units"].IsSequence())
    for (YAML::Node unit : root["dma_units"])
      if (unit.IsMap() && unit["name"] && unit["name"].IsScalar() &&
          unit["name"].Scalar() == name) {
        set_number(unit[s.path.substr(last + 1)], s.value);
        return;
      }
  throw UserError(SourceLocation{file, 0, 0},
                  "unknown parameter path '" + s.path + "': no dma unit named '" + name + "'");
}

void apply(YAML::Node &root, const ParameterSetting &s, const std::string &file) {
  const size_t dot = s.path.find('.');
  if (dot == std::string::npos) {
    if (!root[s.path] || !root[s.path].IsScalar())
      throw UserError(SourceLocation{file, 0, 0}, "unknown parameter path '" + s.path +
                                                      "': no numeric top-level key of that name");
    set_number(root[s.path], s.value);
    return;
  }
  const std::string head = s.path.substr(0, dot);
  if (head == "dma_units") {
    apply_dma_unit(root, s, file);
    return;
  }
  YAML::Node node = section(root, head);
  if (!node.IsDefined())
    throw UserError(SourceLocation{file, 0, 0}, "unknown parameter path '" + s.path +
                                                    "': no section or level named '" + head + "'");
  const std::string field = s.path.substr(dot + 1);
  // A capacity may be given in KiB or in words: setting one replaces the other.
  if (field == "capacity_kib" || field == "capacity_words")
    node.remove(field == "capacity_kib" ? "capacity_words" : "capacity_kib");
  set_number(node[field], s.value);
}

} // namespace

SweepAxis parse_sweep_axis(const std::string &spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == spec.size())
    throw UserError("--set " + spec +
                    ": expected path=values, e.g. GlobalBuffer.capacity_kib=32..1024:x2");
  SweepAxis axis{spec.substr(0, eq), {}};
  const std::string values = spec.substr(eq + 1);
  if (values.find("..") != std::string::npos) {
    axis.values = range_values(values, spec);
    return axis;
  }
  std::istringstream in(values);
  for (std::string item; std::getline(in, item, ',');)
    axis.values.push_back(parse_number(item, spec));
  if (axis.values.empty())
    throw UserError("--set " + spec + ": no values");
  return axis;
}

std::vector<std::vector<ParameterSetting>> sweep_grid(const std::vector<SweepAxis> &axes) {
  size_t configurations = 1;
  for (const SweepAxis &axis : axes) {
    configurations *= axis.values.size(); // each factor is at most kMaxAxisValues
    if (configurations > kMaxGridConfigurations)
      throw UserError("--set " + axis.path + ": the sweep grid has more than " +
                      std::to_string(kMaxGridConfigurations) + " configurations");
  }
  std::vector<std::vector<ParameterSetting>> grid{{}};
  for (const SweepAxis &axis : axes) {
    std::vector<std::vector<ParameterSetting>> next;
    for (const auto &partial : grid)
      for (double v : axis.values) {
        next.push_back(partial);
        next.back().push_back({axis.path, v});
      }
    grid = std::move(next);
  }
  return grid;
}

Hardware load_hardware_with(const std::string &path, const std::vector<ParameterSetting> &settings,
                            std::uint64_t max_input_mib) {
  return parse_hardware_with(read_yaml_file(path, max_input_mib), path, settings);
}

Hardware parse_hardware_with(const std::string &yaml_text, const std::string &file_name,
                             const std::vector<ParameterSetting> &settings) {
  YAML::Node root = parse_yaml(yaml_text, file_name);
  if (!root.IsMap())
    return hardware_from_yaml(root, file_name); // reports what the file holds instead of a map
  std::string applied;
  for (const ParameterSetting &s : settings) {
    apply(root, s, file_name);
    applied += (applied.empty() ? "" : ", ") + s.path + "=" + scalar_text(s.value);
  }
  try {
    return hardware_from_yaml(root, file_name);
  } catch (const UserError &e) {
    if (settings.empty())
      throw;
    throw UserError(e.where(), e.message() + " (with " + applied + ")");
  }
}

} // namespace dse
