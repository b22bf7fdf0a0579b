// Softmax in generated kernels: the unfused pass over the scores in DRAM, the fused step on the
// intermediate region (whole rows, or the online running max and sum), and the online rescale
// and normalisation of the consumer's output.
#pragma once

#include <string>

#include "code_writer.hpp"
#include "emit_common.hpp"

namespace dse::codegen {

/// Functions the steps of `plan` call for softmax (none without softmax).
void emit_softmax_functions(CodeWriter &out, const SegmentPlan &plan, int segment,
                            const CounterTable &counters);

/// The statement for a Softmax, Rescale or Normalize step (index `step` of plan.steps).
std::string softmax_step_statement(const SegmentPlan &plan, int segment, size_t step);

/// The call of the unfused softmax pass after the segment, or "" when it has none.
std::string softmax_pass_call(const SegmentPlan &plan, int segment);

} // namespace dse::codegen
