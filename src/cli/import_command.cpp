// `dse import`: Timeloop's architecture (with its energy reference table), problem and mapping
// written as dse's hardware, workload and mapping files (docs/HIERARCHY.md §9), on which `dse
// eval` prints what it prints on the Timeloop files. Everything is read and converted before the
// output directory is touched, and the files are swapped in together.
#include <algorithm>
#include <optional>

#include "dse/cli/commands.hpp"
#include "dse/cli/hardware_yaml_writer.hpp"
#include "dse/cli/hier_mapping_yaml.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/workload_yaml_writer.hpp"
#include "dse/config/timeloop_loader.hpp"
#include "dse/model/hier_mapping_check.hpp"

namespace dse {

namespace {

/// The top-level key of a section, as a Timeloop file spells it.
std::string section_key(TimeloopSection section) {
  switch (section) {
  case TimeloopSection::Architecture:
    return "architecture";
  case TimeloopSection::Problem:
    return "problem";
  case TimeloopSection::Mapping:
    return "mapping";
  case TimeloopSection::Ert:
    return "ERT";
  case TimeloopSection::Mapper:
    return "mapper";
  case TimeloopSection::Model:
    return "model";
  }
  return "";
}

/// "'problem'", "'problem' and 'mapping'": the Timeloop keys a file has.
std::string keys_text(const std::vector<TimeloopSection> &sections) {
  std::string text;
  for (size_t i = 0; i < sections.size(); ++i)
    text += std::string(i == 0                     ? ""
                        : i + 1 == sections.size() ? " and "
                                                   : ", ") +
            "'" + section_key(sections[i]) + "'";
  return text;
}

/// What an input option takes: a Timeloop section, named for messages.
struct Expected {
  const char *option;
  TimeloopSection section;
  const char *what;
};

bool holds(const std::vector<TimeloopSection> &sections, TimeloopSection section) {
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

/// Throws naming `path` unless the file holds the section that `expected.option` takes.
void require_section(const std::string &path, const Expected &expected, std::uint64_t max_mib) {
  const std::vector<TimeloopSection> sections = timeloop_file_sections(path, max_mib);
  if (holds(sections, expected.section))
    return;
  const std::string found = sections.empty()
                                ? "this file has no Timeloop key (dse import reads Timeloop files)"
                                : "this file has " + keys_text(sections);
  throw UserError(SourceLocation{path, 0, 0}, std::string(expected.option) + " takes a Timeloop " +
                                                  expected.what + " (top-level key '" +
                                                  section_key(expected.section) + "'); " + found);
}

/// The energies come from --ert, or from an `ERT` section in the architecture's file.
std::string ert_path(const ImportArgs &args) {
  if (!args.ert_path.empty()) {
    require_section(args.ert_path, {"--ert", TimeloopSection::Ert, "energy reference table"},
                    args.max_input_mib);
    return args.ert_path;
  }
  if (holds(timeloop_file_sections(args.hw_path, args.max_input_mib), TimeloopSection::Ert))
    return args.hw_path;
  throw UserError(SourceLocation{args.hw_path, 0, 0},
                  "a Timeloop architecture needs its energies: give --ert FILE (a Timeloop energy "
                  "reference table)");
}

Hardware import_hardware(const ImportArgs &args) {
  require_section(args.hw_path, {"--hw", TimeloopSection::Architecture, "architecture"},
                  args.max_input_mib);
  return load_timeloop_architecture(args.hw_path, ert_path(args), args.max_input_mib);
}

Workload import_workload(const ImportArgs &args) {
  require_section(args.workload_path, {"--workload", TimeloopSection::Problem, "problem"},
                  args.max_input_mib);
  return load_timeloop_problem(args.workload_path, args.max_input_mib);
}

/// The mapping file's text, refused where `dse eval` would refuse the Timeloop mapping.
std::string import_mapping(const ImportArgs &args, const Hardware &hw, const Workload &workload) {
  require_section(args.mapping_path, {"--mapping", TimeloopSection::Mapping, "mapping"},
                  args.max_input_mib);
  const OpMapping mapping =
      load_timeloop_mapping(args.mapping_path, hw, workload, args.max_input_mib);
  if (const std::optional<std::string> why =
          hier_mapping_violation(hw, workload, workload.ops.front(), mapping))
    throw UserError(SourceLocation{args.mapping_path, 0, 0}, *why);
  return hier_mapping_header(workload) + hier_segment_yaml(hw, workload, 0, mapping);
}

} // namespace

int run_import(const ImportArgs &args) {
  const Hardware hw = import_hardware(args);
  const Workload workload = import_workload(args);
  const std::string hardware_text = hardware_yaml(hw);
  const std::string workload_text = workload_yaml(workload);
  const std::optional<std::string> mapping_text =
      args.mapping_path.empty() ? std::nullopt
                                : std::optional<std::string>(import_mapping(args, hw, workload));
  OutputDirectory out(args.output_dir);
  out.write("hardware.yaml", hardware_text);
  out.write("workload.yaml", workload_text);
  if (mapping_text)
    out.write("mapping.yaml", *mapping_text);
  out.commit();
  return 0;
}

} // namespace dse
