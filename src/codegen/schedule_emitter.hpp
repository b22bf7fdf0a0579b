// A segment of the schedule as C++: its micro-kernels and softmax helpers, then the function
// that walks the loop tree, copying tiles in and out of the arena at their retention depths.
#pragma once

#include <string>

#include "code_writer.hpp"
#include "emit_common.hpp"

namespace dse::codegen {

/// Name of the function running segment `segment` (its softmax pass, if any, is separate).
std::string segment_function(int segment);

void emit_segment(CodeWriter &out, const SegmentPlan &plan, int segment,
                  const CounterTable &counters, const CodegenTarget &target);

} // namespace dse::codegen
