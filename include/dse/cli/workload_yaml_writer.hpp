// A Workload written as a workload file (README "Workload file"; format at the top of
// src/config/workload_loader.cpp), which load_workload reads back as the same workload.
#pragma once

#include <string>

#include "dse/ir/workload.hpp"

namespace dse {

/// `workload` as a workload file: its dimensions in order, then its operators, einsums written as
/// einsum strings with affine indices (`2*P+R`). Throws UserError at the operator when an einsum
/// string cannot spell one of its tensors (a name that is not an identifier, or no index).
std::string workload_yaml(const Workload &workload);

} // namespace dse
