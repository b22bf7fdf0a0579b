// The least cost of a fused operator's nests below level 0 (docs/HIERARCHY.md §8.3): what every
// nest under a loop tree and level-1 tiling, or every nest with given fan-outs and keep sets, is
// at least in each count, so that a search can bound them before building any.
#pragma once

#include "dse/model/fused_hier_cost.hpp"

namespace dse {

/// The least cost of operator `o`'s nests under a loop tree whose level-0 loops give `trips`, of
/// all nests or (`shape` given) of those with `shape`'s fan-outs and keep sets: every such nest
/// has these MACs (and, with `shape`, these utilised units) and at least these level-1 reads and
/// updates, inner energies and inner transfer cycles:
/// - its MACs on every compute unit (on `shape`'s);
/// - at level 1 each tensor's tile read (an input) or updated (the output) once per arrival of a
///   new tile there (the tiles of a level cover its parent's tile);
/// - for `shape`, each inner keeper of an input filled with that tile once per instance the
///   tensor is copied to (the instances over dimensions it does not use), and each tensor's
///   innermost keeper reading it to (or, the output, updated from) the compute units.
FusedOperatorCost fused_least_operator_cost(const Hardware &hw, const Problem &problem,
                                            const FusedTiles &tiles, int o,
                                            const FusedLevel0Trips &trips,
                                            const OpMapping *shape = nullptr);

/// The same into `c`, its storage reused (the search bounds millions of shapes and tilings).
void fused_least_operator_cost(const Hardware &hw, const Problem &problem, const FusedTiles &tiles,
                               int o, const FusedLevel0Trips &trips, const OpMapping *shape,
                               FusedOperatorCost &c);

} // namespace dse
