// Tile shapes in the arena: box extents under the loops entered, storage order, strides.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// Box extents of a tile allocated with the loops `above` entered.
std::vector<std::int64_t> box_extents(const TilePlan &t, const std::vector<DimPlan> &dims);

/// Storage order and strides of a tile of `extent`; `block` > 0 packs the contiguous position in
/// blocks of that many.
void lay_out(TilePlan &t, std::vector<std::int64_t> extent, const std::vector<DimPlan> &dims,
             int contiguous, std::int64_t block);

/// Box extents, storage order and strides of a tile allocated with the loops `above` entered.
void shape_tile(TilePlan &t, const std::vector<DimPlan> &dims, int contiguous, std::int64_t block);

} // namespace dse::codegen
