// The vectorised inner level of each operator: a register-blocked micro-kernel over one
// (rows x lanes) block of the output tile, and the tile computation that sweeps the blocks,
// split across the cores with OpenMP when the hardware has several.
#pragma once

#include <string>

#include "code_writer.hpp"
#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// Name of the function computing op `op` on its current tiles: f(a, b, c).
std::string compute_function(int segment, const SegmentPlan &plan, int op);

/// Emits the micro-kernel template and the tile computation of op `op`.
void emit_micro_kernel(CodeWriter &out, const SegmentPlan &plan, int segment, int op,
                       const CodegenTarget &target);

} // namespace dse::codegen
