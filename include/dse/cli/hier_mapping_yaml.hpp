// Mappings on hierarchies of any depth written in the form load_hier_mapping reads
// (docs/HIERARCHY.md §3.2; format at the top of src/config/hier_mapping_loader.cpp): a header,
// then one `segments` entry per einsum operator or fused pair.
#pragma once

#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/problem.hpp"

namespace dse {

/// The first lines of a mapping file for `workload`: its name and the `segments` key. The
/// segments (hier_segment_yaml) follow, one per einsum operator of the workload.
std::string hier_mapping_header(const Workload &workload);

/// The `segments` entry of operator `op` (an index into workload.ops, an einsum) mapped onto
/// `hw`'s hierarchy by `mapping`: every level and fan-out in nest order; per level its loop
/// order (outer to inner, dimensions with a factor above 1), those factors and, below the backing
/// store, its keep list; per fan-out its x and y factors above 1.
std::string hier_segment_yaml(const Hardware &hw, const Workload &workload, int op,
                              const OpMapping &mapping);

/// The `segments` entry of fused pair `problem` mapped by `mapping`: its two einsums, the prefix
/// (outer to inner), each tensor's retention depth, and under `levels` each operator's levels
/// and fan-outs as hier_segment_yaml writes them (the backing store's order: its sub-nest).
std::string hier_fused_segment_yaml(const Hardware &hw, const Problem &problem,
                                    const FusedHierMapping &mapping);

} // namespace dse
