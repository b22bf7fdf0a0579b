// The scope walk of a segment (docs/DESIGN.md §4.1), step by step as the trace simulator
// executes it: loops, allocations on entry, releases on exit, computations, and the softmax
// steps; arena offsets come from the nesting (a stack), and the peak from the deepest bodies.
#pragma once

#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// Fills plan.steps, every tile's offset and plan.peak_words. Needs plan.tiles and plan.softmax.
void build_steps(SegmentPlan &plan, const Dataflow &dataflow);

} // namespace dse::codegen
