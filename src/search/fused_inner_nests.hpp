// The nests of one operator of a fused pair below level 0 (docs/HIERARCHY.md §8) for given
// level-1 extents: spatial rows on the fan-outs below level 1, keep vectors that keep every
// tensor at level 1, every divisor split of the extents over levels 1 to L, and loop orders per
// level (with or without the order dominance of §6.1).
#pragma once

#include <functional>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "dse/model/problem.hpp"

namespace dse {

/// Calls `visit` with every nest of operator `o` of fused `problem` whose level-1 extents are
/// `tiles.extent` (levels[0] with factors 1 and no order: the loop tree gives level 0). The
/// hierarchy's mapspace rules are not applied (the fused search runs without them).
void for_each_inner_nest(const Hardware &hw, const Problem &problem, int o, const FusedTiles &tiles,
                         bool prune_orders, const std::function<void(const OpMapping &)> &visit);

} // namespace dse
