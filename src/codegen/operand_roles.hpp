// Register-blocking roles of each operator of a segment: which input is broadcast (A) and which
// is loaded in vectors (B), which dimension runs along the lanes and which along the register
// rows, and the contiguous index position each tile needs for that.
#pragma once

#include <vector>

#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

struct OpRoles {
  int a_input = -1; // position in ProblemOp::tensors
  int b_input = -1;
  int row_dim = -1; // -1: one register row
  int vec_dim = -1;
};

/// The roles of every operator, chosen together so that a fused intermediate has one storage
/// order serving both its producer and its consumer; among the consistent choices, the one whose
/// register blocks are fullest (MAC-weighted). Throws UserError when an operator has no output
/// dimension that exactly one input reads contiguously.
std::vector<OpRoles> choose_roles(const Problem &problem, const std::vector<DimPlan> &dims,
                                  const CodegenTarget &target);

/// Register rows per block for a row extent: the most rows (at most `max_rows`, at least half of
/// it) whose blocks waste the least of the extent.
int register_rows(std::int64_t extent, int max_rows);

/// Per problem input tensor: the block size of its packed layout, 0 for a plain one. An input read
/// in vectors (B) is packed in panels of `nr` lanes, a broadcast input (A) in panels of its op's
/// register rows, when the tile size is a multiple of the panel and the index is a bare dim.
std::vector<std::int64_t> panel_blocks(const Problem &problem, const std::vector<OpRoles> &roles,
                                       const std::vector<int> &rows,
                                       const std::vector<DimPlan> &dims, int nr);

/// Per problem tensor: the index position that must be stored contiguously (-1: any).
std::vector<int> contiguous_positions(const Problem &problem, const std::vector<OpRoles> &roles);

} // namespace dse::codegen
