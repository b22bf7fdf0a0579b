// A fused producer -> consumer pair mapped onto a hierarchy of any depth (docs/HIERARCHY.md §8).
// Level 0's block is the fused loop tree (a shared prefix, then each operator's sub-nest) with a
// retention depth per tensor at level 1, as in the one-level model (docs/DESIGN.md §4.2); below
// level 1 each operator has its own blocks, fan-outs and keep sets, and the operators run one
// after the other inside each iteration of the prefix.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/model/dataflow.hpp"

namespace dse {

/// The mapping of a fused problem (Problem::fused()).
///
/// - `outer`: level 0's loops (the prefix, then ops[o]'s sub-nest) and every problem tensor's
///   retention depth at level 1. Level 0 keeps every tensor but the intermediate; level 1 keeps
///   every tensor, the intermediate included, which never reaches level 0.
/// - `ops[o]`: problem op o's mapping on the whole hierarchy. Its level-0 factors are the trips
///   of its dimensions at level 0 (ceil(D / level-1 extent), the padded form of the one-level
///   model); a dimension shared by both operators has the same level-1 extent and level-0 trips
///   in both. levels[0].order is `outer.path(o)` without the dimensions the operator does not
///   use; a recompute loop (a consumer-only dimension in the prefix) encloses the producer with
///   the consumer's trips. levels[1].keep holds every tensor of the operator; levels[0].keep is
///   not read; inner levels keep what their keep bits say.
struct FusedHierMapping {
  Dataflow outer;
  std::vector<OpMapping> ops;
};

/// The level-1 extent of `dim` in operator mapping `m`: the product of its factors below level 0.
std::int64_t fused_level1_extent(const OpMapping &m, int dim);

/// Whether `m` spreads any of `dims` over a fan-out between levels 0 and 1.
bool fans_out_below_level0(const OpMapping &m, const std::vector<int> &dims);

/// Level 0's order of operator `o` in a fused mapping: outer.path(o) without the dimensions the
/// operator does not iterate (recompute loops).
std::vector<int> fused_level0_order(const Problem &problem, const Dataflow &outer, int o);

/// Why `mapping` is not a legal mapping of fused `problem` on `hw.hierarchy`, or an empty string:
/// the outer loop tree against the one-level rules (legality_problem), each operator's mapping
/// against the single-operator rules (capacities aside: see FusedHierCost::levels), a fan-out
/// between levels 0 and 1 (the fused block is one instance of level 1), level-0 orders other
/// than the outer paths, level-1 keep sets without every tensor, and level-1 extents or level-0
/// trips that differ between the operators on a shared dimension.
std::string fused_hier_mapping_problem(const Hardware &hw, const Problem &problem,
                                       const FusedHierMapping &mapping);

} // namespace dse
