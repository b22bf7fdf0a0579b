// A mapping of one operator onto a hierarchy of any depth (docs/HIERARCHY.md §3.1): per storage
// level a block of temporal loops and a keep set, per fan-out spatial factors on each axis.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/workload.hpp"
#include "dse/support/error.hpp"
#include "dse/support/fixed_vector.hpp"

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

/// A tensor's retention depth at level 1 in a fused segment, by name.
struct HierRetention {
  std::string tensor;
  int depth = 0;
  SourceLocation where;
};

/// What a fused segment adds (docs/HIERARCHY.md §8): the consumer and its nest, the shared
/// prefix and the retention depths, as written (resolved by dse/model/fused_hier_resolution.hpp).
struct HierFusedPart {
  int consumer = 0; // index into Workload::ops
  /// Like HierSegmentMapping::mapping.
  OpMapping consumer_mapping;
  std::vector<int> prefix; // workload dimensions, outer to inner
  std::vector<HierRetention> retention;
};

/// One segment of the file: an einsum operator and its whole loop nest, or a fused pair. In a
/// fused pair, each operator's levels[0].order is its sub-nest as written (dimensions of factor 1
/// it lists included; prefix dimensions never).
struct HierSegmentMapping {
  int op = 0; // index into Workload::ops; of a fused pair, the producer
  OpMapping mapping;
  std::optional<HierFusedPart> fused;
  SourceLocation where; // the segment, for checks made later (capacities)
};

/// The tensors of an einsum in the order the hierarchical model indexes them: its inputs in
/// order, then its output.
using OperatorTensors = FixedVector<const TensorAccess *, 3>;

OperatorTensors operator_tensors(const Operator &op);

/// Role bits (role::k* of dse/ir/hierarchy.hpp) of the operator's tensor `index`.
std::uint8_t tensor_role(const Operator &op, size_t index);

} // namespace dse
