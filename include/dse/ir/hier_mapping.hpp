// A mapping of one operator onto a hierarchy of any depth (docs/HIERARCHY.md §3.1): per storage
// level a block of temporal loops and a keep set, per fan-out spatial factors on each axis.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/ir/workload.hpp"

namespace dse {

/// The temporal block of one storage level. Factors are indexed by workload dimension (1 for
/// dimensions the operator does not use); `order` lists dimensions outer to inner (dimensions
/// with factor 1 may be listed or not: they are not loops).
struct LevelMapping {
  std::vector<int> order;
  std::vector<std::int64_t> factor;
  /// Bit i: the level keeps the operator's tensor i (see operator_tensors).
  std::uint32_t keep = 0;
};

/// Spatial factors of one fan-out on its x and y axes, indexed by workload dimension.
struct FanoutMapping {
  std::vector<std::int64_t> x;
  std::vector<std::int64_t> y;

  std::int64_t factor(int dim) const;
};

/// The whole nest of one operator: levels as Hierarchy::levels, fanouts as Hierarchy::fanouts.
struct OpMapping {
  std::vector<LevelMapping> levels;
  std::vector<std::vector<FanoutMapping>> fanouts;
};

/// The tensors of an einsum in the order the hierarchical model indexes them: its inputs in
/// order, then its output.
std::vector<const TensorAccess *> operator_tensors(const Operator &op);

/// Role bits (role::k* of dse/ir/hierarchy.hpp) of the operator's tensor `index`.
std::uint8_t tensor_role(const Operator &op, size_t index);

} // namespace dse
