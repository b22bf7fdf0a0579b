// A fused segment of a mapping file for a hierarchy of any depth (dse/ir/hier_mapping.hpp,
// docs/HIERARCHY.md §8) resolved against its workload: the fused problem of the pair and the
// mapping the model evaluates, or a UserError naming the segment.
#pragma once

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/problem.hpp"

namespace dse {

struct FusedHierSegment {
  Problem problem; // points to the workload it was resolved against
  FusedHierMapping mapping;
};

/// The pair of `segment` (segment.fused set): the first operator must produce what the second
/// reads, in a chain that can be fused; each tensor of the pair needs one retention depth (by
/// its name in the pair: the intermediate by the producer's output); the loop tree and the
/// operators' nests must be legal (fused_hier_mapping_problem). A sub-nest lists the loops the
/// file gives, then the operator's other dimensions (factor 1 at level 0).
FusedHierSegment resolve_fused_hier_segment(const Hardware &hw, const Workload &workload,
                                            const HierSegmentMapping &segment);

} // namespace dse
