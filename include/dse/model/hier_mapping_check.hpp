// Whether a mapping of one operator is legal on a hierarchy of any depth (docs/HIERARCHY.md
// §3): its shape, factors, spatial fit, keep sets, capacities and the hardware's mapspace
// constraints (§2.2), which are bound here to one operator for the check and the search alike.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/hier_cost.hpp"

namespace dse {

/// A level's mapspace rule for one operator.
struct LevelConstraint {
  std::uint32_t keep = 0;   // tensor bits (operator_tensors order) the level must keep
  std::uint32_t bypass = 0; // and must not keep
  /// Per workload dimension: the fixed factor of the level's block, 0 when free.
  std::vector<std::int64_t> factor;
  /// Dimensions whose loops keep this relative order, outermost first.
  std::vector<int> order;
  const MapspaceRule *rule = nullptr; // none: unconstrained
};

/// A fan-out's mapspace rule for one operator.
struct FanoutConstraint {
  std::uint64_t x = ~std::uint64_t{0}; // bit per workload dimension allowed on the x axis
  std::uint64_t y = ~std::uint64_t{0};
  bool one_axis_per_dim = false;
  double min_utilisation = 0.0;
  const MapspaceRule *rule = nullptr;
};

/// The mapspace rules of a hierarchy bound to one einsum, indexed as Hierarchy::levels and
/// Hierarchy::fanouts.
struct BoundMapspace {
  std::vector<LevelConstraint> levels;
  std::vector<std::vector<FanoutConstraint>> fanouts;
};

/// `h.mapspace` for einsum `op` of `workload`: names resolved to the operator's dimensions and
/// tensors (names it does not have leave it free). Throws a UserError at the first name the
/// workload does not have at all.
BoundMapspace bind_mapspace(const Hierarchy &h, const Workload &workload, const Operator &op);

/// Whether `loops` (dimensions, outermost first) keep the relative order of `c`.
bool order_allowed(const LevelConstraint &c, const std::vector<int> &loops);

/// Whether `used` of `fanout`'s units meet the least utilisation of `c`.
bool utilisation_allowed(const FanoutConstraint &c, const Fanout &fanout, std::int64_t used);

/// Why `mapping` is not a legal mapping of einsum `op` on `hw.hierarchy`, or nothing when it is:
/// levels and fan-outs that do not match the hardware, factors below 1 or of dimensions the
/// operator does not use, on-chip factors whose product exceeds a dimension, level-0 factors
/// other than ceil(D / inner product), loops missing from a level's order, spatial factors
/// beyond a fan-out's axis, reduction across a fan-out without `reduction`, keep sets against
/// `holds` (level 0 keeps everything), tiles beyond a level's capacity, and mappings outside the
/// mapspace constraints (naming the constraint's location). Throws a UserError as bind_mapspace.
std::optional<std::string> hier_mapping_violation(const Hardware &hw, const Workload &workload,
                                                  const Operator &op, const OpMapping &mapping);

/// The first on-chip level of `cost` whose words per instance exceed its capacity, as a message.
std::optional<std::string> hier_capacity_violation(const Hardware &hw, const HierCost &cost);

/// hier_mapping_violation without the capacities (for mappings whose tiles are counted otherwise,
/// as a fused pair's).
std::optional<std::string> hier_mapping_structure_violation(const Hardware &hw,
                                                            const Workload &workload,
                                                            const Operator &op,
                                                            const OpMapping &mapping);

} // namespace dse
