// A mapping on a general hierarchy as a kernel segment (docs/HIERARCHY.md §10, rung 4): level 0's
// loops become the kernel's tile loops and level 1's tiles its arena's tiles, as on hardware of
// today's form; the levels below level 1 run as the micro-kernel. Beside it, the hierarchical
// model's prediction of what the kernel counts: level 0's reads and updates per tensor and the
// MACs. What a kernel cannot run as the model counts it is refused by name.
#pragma once

#include "dse/codegen/kernel_counts.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

struct HierKernelSegment {
  ResolvedSegment segment;       // the kernel's loop tree and level-1 tiles
  KernelSegmentCounts predicted; // the hierarchical model's level-0 words and MACs
  double latency_s = 0;          // the hierarchical model's latency
};

/// Einsum `op` of `workload` (with the operators attached to it) mapped by `mapping`, which must
/// be legal on `hw`'s hierarchy. Level 1 must keep every tensor of the einsum, and level 0 may not
/// loop over a dimension that the einsum reads through a window (the kernel holds the whole
/// window at level 1). Throws UserError naming what the kernel cannot run.
HierKernelSegment hier_einsum_kernel_segment(const Hardware &hw, const Workload &workload, int op,
                                             const OpMapping &mapping, LatencyModel latency_model);

/// A fused pair mapped by `mapping` (legal, fused_hier_mapping_problem): its loop tree is the
/// kernel's, each operator's level-1 extents its tiles. Throws UserError when its tiles overflow
/// a level.
HierKernelSegment hier_fused_kernel_segment(const Hardware &hw, const Problem &problem,
                                            const FusedHierMapping &mapping,
                                            LatencyModel latency_model);

/// The kernel segments of `plan`, a front point of `result` (explore_hier of `workload` on `hw`):
/// each einsum alone or fused pair (an attached operator's pass runs with its einsum's segment).
std::vector<HierKernelSegment> hier_plan_kernel_segments(const Hardware &hw,
                                                         const Workload &workload,
                                                         const HierExploreResult &result,
                                                         const HierPlan &plan,
                                                         LatencyModel latency_model);

/// Throws UserError naming what keeps every kernel off `hw`: several instances of level 1 (the
/// kernel's one arena), a level 1 that may not hold every operand and result, or
/// first_read_elision off (the model would count a read that no kernel makes).
void require_kernel_hardware(const Hardware &hw);

} // namespace dse
