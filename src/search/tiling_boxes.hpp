// Boxes of tilings (docs/DESIGN.md §4.3): the tiling space visited as a tree whose boxes fix the
// tiles of the leading dimensions; a dataflow whose least objectives over a box the front rejects,
// or whose least buffer need overflows, is never evaluated in it.
#pragma once

#include <cstdint>
#include <functional>

#include "problem_matrices.hpp"

namespace dse {

/// Sets the leaf and parallel depths of the tree and whether boxes are bounded.
void plan_boxes(Prepared &p, const TilingSpace &tilings, const SearchOptions &options);

/// Searches every box shared between threads, each worker folding into its own front, then merges
/// the workers' fronts and counts into `result`. `progress` is given the mappings decided.
void search_boxes(const Prepared &p, const TilingSpace &tilings, const SearchOptions &options,
                  const std::function<void(std::uint64_t, std::uint64_t)> &progress,
                  ProblemFront &result);

} // namespace dse
