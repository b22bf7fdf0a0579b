// Readers for Timeloop v0.3 inputs (architecture with its energy reference table, problem,
// mapping) into dse's hierarchy, workload and hierarchical mapping (docs/HIERARCHY.md §9).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/limits.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

/// A top-level section of a Timeloop input. `Mapper` and `Model` configure Timeloop's own tools;
/// callers ignore them.
enum class TimeloopSection { Architecture, Problem, Mapping, Ert, Mapper, Model };

/// The Timeloop sections `yaml_text` holds, in file order; empty when no top-level key names one
/// (a dse file). A top-level key beside a section that is not one is an error.
std::vector<TimeloopSection> timeloop_sections(const std::string &yaml_text,
                                               const std::string &file_name);
/// timeloop_sections of the file at `path` (at most `max_input_mib` MiB).
std::vector<TimeloopSection>
timeloop_file_sections(const std::string &path, std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// The hardware of a Timeloop architecture (`architecture` section) with energies from an energy
/// reference table (`ERT` section): `hierarchy` filled with Timeloop counting, `levels` empty.
Hardware load_timeloop_architecture(const std::string &arch_path, const std::string &ert_path,
                                    std::uint64_t max_input_mib = kDefaultMaxInputMib);
Hardware parse_timeloop_architecture(const std::string &arch_text, const std::string &arch_file,
                                     const std::string &ert_text, const std::string &ert_file);

/// The workload of a Timeloop problem (`problem` section): one einsum named after the shape.
Workload load_timeloop_problem(const std::string &path,
                               std::uint64_t max_input_mib = kDefaultMaxInputMib);
Workload parse_timeloop_problem(const std::string &yaml_text, const std::string &file_name);

/// The mapping (`mapping` section) of `workload`'s one einsum onto `hw.hierarchy`.
OpMapping load_timeloop_mapping(const std::string &path, const Hardware &hw,
                                const Workload &workload,
                                std::uint64_t max_input_mib = kDefaultMaxInputMib);
OpMapping parse_timeloop_mapping(const std::string &yaml_text, const std::string &file_name,
                                 const Hardware &hw, const Workload &workload);

} // namespace dse
