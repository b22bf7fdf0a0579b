// The top level of Timeloop inputs (which sections a file holds) and the YAML helpers the
// Timeloop readers share.
#include "timeloop_yaml.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "dse/config/timeloop_loader.hpp"

namespace dse {

namespace {

constexpr std::array<std::pair<std::string_view, TimeloopSection>, 6> kSections{{
    {"architecture", TimeloopSection::Architecture},
    {"problem", TimeloopSection::Problem},
    {"mapping", TimeloopSection::Mapping},
    {"ERT", TimeloopSection::Ert},
    {"mapper", TimeloopSection::Mapper},
    {"model", TimeloopSection::Model},
}};

const TimeloopSection *section_named(const std::string &key) {
  for (const auto &[name, section] : kSections)
    if (name == key)
      return &section;
  return nullptr;
}

bool names_a_section(const YAML::Node &root) {
  if (!root.IsMap())
    return false;
  return std::any_of(root.begin(), root.end(), [](const auto &kv) {
    return kv.first.IsScalar() && section_named(kv.first.Scalar()) != nullptr;
  });
}

} // namespace

namespace timeloop {

YamlMap top_level(const YAML::Node &root, const std::string &file_name) {
  YamlMap top(root, file_name, "");
  top.allow_only({"architecture", "problem", "mapping", "ERT", "mapper", "model"});
  return top;
}

void check_version(const YamlMap &m, const std::vector<std::string> &supported) {
  const YAML::Node &version = m.required("version");
  const double value = m.number_value(version, "version", Bound::NonNegative);
  for (const std::string &text : supported)
    if (std::stod(text) == value)
      return;
  m.fail_plain(version, "version: " + version.Scalar() + " is not supported (expected " +
                            name_sequence(supported, "or") + ")");
}

void allow_only_names(const YamlMap &m, const std::vector<std::string> &allowed) {
  for (const auto &[key, value] : m.entries()) {
    if (std::find(allowed.begin(), allowed.end(), key.Scalar()) != allowed.end())
      continue;
    std::string expected;
    for (const std::string &name : allowed)
      expected += (expected.empty() ? "" : ", ") + name;
    m.fail_plain(key, "unknown key '" + key.Scalar() + "' in " + m.context() +
                          " (expected one of: " + expected + ")");
  }
}

std::vector<Named> name_list(const YamlMap &m, std::string_view key) {
  std::vector<Named> names;
  for (const YAML::Node &item : m.list(key))
    names.push_back(Named{m.string_value(item, key), item});
  return names;
}

SourceLocation char_location(const YAML::Node &value, const std::string &file_name, int offset) {
  const bool quoted = value.Tag() == "!";
  return shifted(location_of(value, file_name), offset + (quoted ? 1 : 0));
}

std::string name_sequence(const std::vector<std::string> &names, std::string_view last_joint) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      text += i + 1 == names.size() ? " " + std::string(last_joint) + " " : ", ";
    text += names[i];
  }
  return text;
}

} // namespace timeloop

std::vector<TimeloopSection> timeloop_sections(const std::string &yaml_text,
                                               const std::string &file_name) {
  const YAML::Node root = parse_yaml(yaml_text, file_name);
  if (!names_a_section(root))
    return {};
  const YamlMap top = timeloop::top_level(root, file_name);
  std::vector<TimeloopSection> sections;
  for (const auto &[key, value] : top.entries())
    sections.push_back(*section_named(key.Scalar()));
  return sections;
}

std::vector<TimeloopSection> timeloop_file_sections(const std::string &path,
                                                    std::uint64_t max_input_mib) {
  return timeloop_sections(read_yaml_file(path, max_input_mib), path);
}

} // namespace dse
