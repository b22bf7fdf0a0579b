// Inputs in either spelling: the Timeloop sections of a file decide which reader takes it.
#include "dse/cli/input_files.hpp"

#include <algorithm>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/config/timeloop_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"

namespace dse {

namespace {

bool holds_section(const std::string &path, TimeloopSection section, std::uint64_t max_mib) {
  const std::vector<TimeloopSection> sections = timeloop_file_sections(path, max_mib);
  return std::find(sections.begin(), sections.end(), section) != sections.end();
}

} // namespace

Hardware load_hardware_input(const std::string &hw_path, const std::string &ert_path,
                             std::uint64_t max_input_mib) {
  if (!holds_section(hw_path, TimeloopSection::Architecture, max_input_mib)) {
    if (!ert_path.empty())
      throw UserError("--ert goes with a Timeloop architecture; '" + hw_path +
                      "' is a dse hardware file");
    return load_hardware(hw_path, max_input_mib);
  }
  std::string ert = ert_path;
  if (ert.empty() && holds_section(hw_path, TimeloopSection::Ert, max_input_mib))
    ert = hw_path;
  if (ert.empty())
    throw UserError(SourceLocation{hw_path, 0, 0},
                    "a Timeloop architecture needs its energies: give --ert FILE (a Timeloop "
                    "energy reference table)");
  return load_timeloop_architecture(hw_path, ert, max_input_mib);
}

Workload load_workload_input(const std::string &path, std::uint64_t max_input_mib) {
  if (holds_section(path, TimeloopSection::Problem, max_input_mib))
    return load_timeloop_problem(path, max_input_mib);
  return with_sibling_stacks(load_workload(path, max_input_mib));
}

std::vector<HierSegmentMapping> load_hier_mapping_input(const std::string &path, const Hardware &hw,
                                                        const Workload &workload,
                                                        std::uint64_t max_input_mib) {
  if (!holds_section(path, TimeloopSection::Mapping, max_input_mib))
    return load_hier_mapping(path, hw, workload, max_input_mib);
  HierSegmentMapping segment;
  segment.mapping = load_timeloop_mapping(path, hw, workload, max_input_mib);
  segment.where = SourceLocation{path, 0, 0};
  return {segment};
}

} // namespace dse
