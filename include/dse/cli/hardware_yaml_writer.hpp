// A Hardware written as the general form of the hardware file (docs/HIERARCHY.md §2.1; format at
// the top of src/config/hierarchy_loader.cpp), which load_hardware reads back as the same
// hierarchy, clock, word size and DMA units.
#pragma once

#include <string>

#include "dse/ir/hardware.hpp"

namespace dse {

/// `hw`, whose hierarchy is counted by the conventions of docs/HIERARCHY.md §4 (counting:
/// timeloop, the default of the general form), as a general-form hardware file: `hierarchy` lists
/// the levels and fan-outs in nest order; first_read_elision is written only when it is off.
std::string hardware_yaml(const Hardware &hw);

} // namespace dse
