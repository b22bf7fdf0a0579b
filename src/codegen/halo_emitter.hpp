// Emission for pairs fused through windows (docs/DEPTH_FIRST.md §5): per halo, the run-time
// window origin `h<k>_lo`, the first position the producer computes `h<k>_first` and their count
// `h<k>_n`; the producer's input boxes, pointers and MACs over those positions; the copies
// between the intermediate and the overlap stores.
#pragma once

#include <string>
#include <vector>

#include "code_writer.hpp"
#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// Declares the variables of every halo that a step of `dim`'s loop sets (dim -1: the halos that
/// are not loops, at the start of the segment).
void emit_halo_ranges(CodeWriter &out, const SegmentPlan &plan, int dim);

/// Whether `tile` is an input of the producer whose box follows the positions it computes.
bool follows_halos(const SegmentPlan &plan, int tile);

/// Per index position of `tile`, the position its box is stored from in the arena: box_origin,
/// or, for a tile that follows halos, the first position its producer's halo reads.
std::vector<std::string> stored_origin(const SegmentPlan &plan, int tile);

/// `dram_reads[entry] += copy_in_box(...)` of such a tile: per halo axis, the box of the input
/// that the positions computed read (at this step, or all of them when the tile is held above the
/// halo's loop).
std::string halo_box_load(const SegmentPlan &plan, int tile, const std::string &counter);

/// Where operand `tile` of op `op` starts for the current tile computation, halo positions
/// included.
std::string operand_pointer(const SegmentPlan &plan, int op, int tile,
                            const std::vector<int> &entered);

/// The extra arguments (halo counts) of op `op`'s compute call, and its MACs as an expression.
std::string halo_counts(const SegmentPlan &plan, int op);
std::string macs_expression(const SegmentPlan &plan, int op);

/// The statement of a HaloLoad or HaloSave step.
std::string overlap_copy(const SegmentPlan &plan, const Step &step);

} // namespace dse::codegen
