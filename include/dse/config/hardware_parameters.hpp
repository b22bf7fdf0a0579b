// Hardware parameters addressed by path ("GlobalBuffer.capacity_kib", "pe_array.rows",
// "clock_ghz", "dma_units.dma0.bandwidth_gbps"; in the general form also a fan-out's "PE.x"),
// the sweep axes over them (`--set path=32..16384:x2`), and loading a hardware file with some
// of them replaced. Swept values pass the same validation as values in the file.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/limits.hpp"

namespace dse {

struct ParameterSetting {
  std::string path;
  double value = 0;
};

/// One swept parameter and its values, in the order given.
struct SweepAxis {
  std::string path;
  std::vector<double> values;
};

/// Parses `path=a,b,c`, `path=a..b:xF` (geometric, F > 1) or `path=a..b:+S` (linear, S > 0).
/// Ranges include `a` and every step up to `b`. Throws UserError naming the bad part.
SweepAxis parse_sweep_axis(const std::string &spec);

/// Every combination of the axes' values (last axis fastest); more than 100000 combinations
/// is a UserError naming the axis that passes the limit.
std::vector<std::vector<ParameterSetting>> sweep_grid(const std::vector<SweepAxis> &axes);

/// Loads the hardware file with `settings` applied; an unknown path is an error naming it (and,
/// for a file in the general form, listing the levels, fan-outs, sections and top-level numbers
/// it has).
Hardware load_hardware_with(const std::string &path, const std::vector<ParameterSetting> &settings,
                            std::uint64_t max_input_mib = kDefaultMaxInputMib);

/// As load_hardware_with, for hardware YAML text named `file_name` in messages.
Hardware parse_hardware_with(const std::string &yaml_text, const std::string &file_name,
                             const std::vector<ParameterSetting> &settings);

} // namespace dse
