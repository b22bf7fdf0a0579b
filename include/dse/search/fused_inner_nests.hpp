// The nests of one operator of a fused pair below level 0 (docs/HIERARCHY.md §8.3) for given
// level-1 extents: spatial rows on the fan-outs below level 1, keep vectors that keep every
// tensor at level 1, divisor splits of the extents over levels 1 to L, and loop orders per level.
// Unpruned, every nest; pruned, only nests that fit every inner level, whose tiling is maximal
// (§6.4) and whose orders survive the order dominance of §6.1, the innermost level's first order
// standing for the others (it changes no count).
#pragma once

#include <functional>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "dse/model/problem.hpp"

namespace dse {

/// Calls `visit` with the nests of operator `o` of fused `problem` whose level-1 extents are
/// `tiles.extent` (levels[0] with factors 1 and no order: the loop tree gives level 0).
/// `refilled_at_level1[t]`: whether a loop at level 0 indexes the operator's tensor t (a scope
/// loop indexes every tensor), which decides with the inner blocks which double-buffered tiles
/// count twice. The hierarchy's mapspace rules are not applied (the fused search runs without
/// them). When pruning, the spatial rows are taken in decreasing utilisation, and a row with a
/// keep vector for which `rejected` holds (called with the fan-outs and keep sets set, before any
/// factor is chosen) is skipped.
void for_each_inner_nest(const Hardware &hw, const Problem &problem, int o, const FusedTiles &tiles,
                         const std::vector<bool> &refilled_at_level1, bool prune,
                         const std::function<bool(const OpMapping &)> &rejected,
                         const std::function<void(const OpMapping &)> &visit);

} // namespace dse
