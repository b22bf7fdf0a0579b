// Whether a mapping of one operator is legal on a hierarchy of any depth (docs/HIERARCHY.md
// §3): its shape, factors, spatial fit, keep sets and capacities.
#pragma once

#include <optional>
#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/ir/workload.hpp"
#include "dse/ir/hier_mapping.hpp"

namespace dse {

/// Why `mapping` is not a legal mapping of einsum `op` on `hw.hierarchy`, or nothing when it is:
/// levels and fan-outs that do not match the hardware, factors below 1 or of dimensions the
/// operator does not use, on-chip factors whose product exceeds a dimension, level-0 factors
/// other than ceil(D / inner product), loops missing from a level's order, spatial factors
/// beyond a fan-out's axis, reduction across a fan-out without `reduction`, keep sets against
/// `holds` (level 0 keeps everything), and tiles beyond a level's capacity.
std::optional<std::string> hier_mapping_violation(const Hardware &hw, const Workload &workload,
                                                  const Operator &op, const OpMapping &mapping);

} // namespace dse
