// Sweep axes and parameter paths into the hardware YAML: the first component names a top-level
// key (clock_ghz), a section (pe_array, vector, compute), a memory level by its name
// (GlobalBuffer), a fan-out of the general form by its name (PE.x) or the DMA units
// (dma_units.<unit name>.bandwidth_gbps).
#include "dse/config/hardware_parameters.hpp"

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>

#include "hardware_yaml.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

constexpr size_t kMaxAxisValues = 100000;
constexpr size_t kMaxGridConfigurations = 100000;

/// The finite number that the whole of `text` spells, if it does.
std::optional<double> number_in(const std::string &text) {
  double value = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), value);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

double parse_number(const std::string &text, const std::string &spec) {
  if (const std::optional<double> value = number_in(text))
    return *value;
  throw UserError("--set " + spec + ": '" + text + "' is not a number");
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

/// The entries of list `list` (`levels`, `hierarchy`), or an empty sequence.
YAML::Node entries(const YAML::Node &root, const char *list) {
  if (root[list] && root[list].IsSequence())
    return root[list];
  return YAML::Node(YAML::NodeType::Sequence);
}

/// The name `entry` gives under `key` ("name", "level", "fanout"), or "".
std::string entry_name(const YAML::Node &entry, const char *key) {
  if (entry.IsMap() && entry[key] && entry[key].IsScalar())
    return entry[key].Scalar();
  return "";
}

/// The YAML node holding the section, level or fan-out named `head`, or a null node.
YAML::Node section(YAML::Node &root, const std::string &head) {
  if (root[head] && root[head].IsMap())
    return root[head];
  for (YAML::Node level : entries(root, "levels"))
    if (entry_name(level, "name") == head)
      return level;
  for (YAML::Node entry : entries(root, "hierarchy"))
    if (entry_name(entry, "level") == head || entry_name(entry, "fanout") == head)
      return entry;
  return YAML::Node(YAML::NodeType::Undefined);
}

bool is_general_form(const YAML::Node &root) { return root["hierarchy"].IsDefined(); }

void add_name(std::string &list, const std::string &name) {
  if (!name.empty())
    list += (list.empty() ? "" : ", ") + name;
}

std::string listed(const std::string &list) { return list.empty() ? "none" : list; }

/// " (levels: ...; fan-outs: ...; sections: ...; top-level: ...)": what the paths of a file in
/// the general form may name; "" for today's form.
std::string general_form_names(const YAML::Node &root) {
  if (!is_general_form(root))
    return "";
  std::string levels, fanouts, sections, top;
  for (const YAML::Node &entry : entries(root, "hierarchy")) {
    add_name(levels, entry_name(entry, "level"));
    add_name(fanouts, entry_name(entry, "fanout"));
  }
  for (const auto &item : root) {
    if (item.second.IsMap())
      add_name(sections, item.first.Scalar());
    else if (item.second.IsScalar() && number_in(item.second.Scalar()))
      add_name(top, item.first.Scalar());
  }
  return " (levels: " + listed(levels) + "; fan-outs: " + listed(fanouts) +
         "; sections: " + listed(sections) + "; top-level: " + listed(top) + ")";
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

/// A capacity may be given in KiB or in words, and in the general form the backing store's
/// bandwidth in GB/s or in words per cycle: setting one removes the other.
void remove_alternative(YAML::Node &node, const std::string &field, bool general_form) {
  if (field == "capacity_kib" || field == "capacity_words")
    node.remove(field == "capacity_kib" ? "capacity_words" : "capacity_kib");
  if (general_form && (field == "bandwidth_gbps" || field == "bandwidth_words_per_cycle"))
    node.remove(field == "bandwidth_gbps" ? "bandwidth_words_per_cycle" : "bandwidth_gbps");
}

void apply(YAML::Node &root, const ParameterSetting &s, const std::string &file) {
  const size_t dot = s.path.find('.');
  if (dot == std::string::npos) {
    if (!root[s.path] || !root[s.path].IsScalar())
      throw UserError(SourceLocation{file, 0, 0}, "unknown parameter path '" + s.path +
                                                      "': no numeric top-level key of that name" +
                                                      general_form_names(root));
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
    throw UserError(SourceLocation{file, 0, 0},
                    "unknown parameter path '" + s.path + "': " +
                        (is_general_form(root) ? "no section, level or fan-out named '"
                                               : "no section or level named '") +
                        head + "'" + general_form_names(root));
  const std::string field = s.path.substr(dot + 1);
  remove_alternative(node, field, is_general_form(root));
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
