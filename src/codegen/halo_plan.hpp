// Planning of chains fused through windows: the halos of every link with the positions their
// producers compute, the producers' strides along those positions, and the overlap stores.
#pragma once

#include <vector>

#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// The halos of every link, later links first (an earlier link's window follows what the next
/// one computes), each with its positions appended to `dims`.
std::vector<HaloPlan> plan_halos(const Problem &p, const Dataflow &df, std::vector<DimPlan> &dims);

/// The halo of link `link` that index `e` of its intermediate (or of its producer's tiles) holds,
/// or -1.
int halo_of(const std::vector<HaloPlan> &halos, int link, const IndexExpr &e);

/// Along a halo's positions, its producer's tiles step as the dim does divided by its stride.
void set_position_strides(SegmentPlan &plan);

/// The overlap store of each cached halo: the intermediate's tile around the dim's loop, but
/// `overlap` positions along its axis (Problem::halo_overlap), in the intermediate's order.
void plan_overlap_stores(SegmentPlan &plan, const Dataflow &df);

} // namespace dse::codegen
