// Rung 1 of docs/HIERARCHY.md §10: walks one operator's hierarchical mapping literally (every
// temporal step, every instance of every fan-out), keeps the tile each instance of each level
// holds, and counts reads, fills and updates per level and tensor from the tiles that come and
// go. It uses none of the closed forms of §4, so the model's counts can be checked against it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"

namespace dse::hier_trace {

/// What one level did with one tensor, summed over its instances.
struct TensorCounts {
  std::int64_t reads = 0;   // towards the next keeper inside, or the compute units
  std::int64_t fills = 0;   // from the next keeper outside
  std::int64_t updates = 0; // sums from inside, after spatial reduction

  bool operator==(const TensorCounts &) const = default;
};

struct TraceCounts {
  /// [level][operator tensor] (operator_tensors order); empty where the level does not keep the
  /// tensor (level 0 keeps every tensor).
  std::vector<std::vector<std::optional<TensorCounts>>> levels;
  std::int64_t macs = 0;
};

namespace detail {
class Walk;
} // namespace detail

/// The walk behind `simulate`, open to a caller that drives the levels above a `root` level
/// itself (the fused simulator drives levels 0 and 1 by the one-level retention rules). It walks
/// the blocks of levels root..L and the fan-outs below the root (which has one instance), keeps
/// the tiles of levels root+1..L across calls, and counts at levels root..L: the root keeps
/// every tensor, has no fills, and reads and updates for its children.
class NestWalk {
public:
  NestWalk(const Hardware &hw, const Workload &workload, const Operator &op,
           const OpMapping &mapping, int root, bool first_read_elision);
  NestWalk(NestWalk &&) noexcept;
  NestWalk &operator=(NestWalk &&) noexcept;
  ~NestWalk();

  /// Every temporal step of the root's block and of the blocks inside it, the root's tile
  /// starting at `origin` (per workload dimension); tiles that did not change stay resident.
  void walk(const std::vector<std::int64_t> &origin);
  /// Sends every output tile inside the root to its next keeper outward, as the end of a run
  /// does, and drops every tile: the next walk fetches all of them again.
  void empty();
  /// Forgets which output elements have reached which instances: from now on the output starts
  /// from zero again (first-read elision applies anew).
  void restart_output();
  /// Per workload dimension, the iterations a tile of `level` spans (level 0: the padded
  /// extent).
  const std::vector<std::int64_t> &tile_extent(int level) const;
  /// What the walks so far counted: levels below the root are empty.
  const TraceCounts &counts() const;

private:
  std::unique_ptr<detail::Walk> walk_;
};

/// Walks `mapping` of einsum `op` on `hw.hierarchy` and counts every transfer. Tiles are boxes of
/// element coordinates (an affine index spans the box from its least to its largest value) and
/// are fetched whole whenever they change; the output's traffic in both directions merges the
/// children of a reduction group. Meant for tiny problems: the cost grows with the MACs.
TraceCounts simulate(const Hardware &hw, const Workload &workload, const Operator &op,
                     const OpMapping &mapping, bool first_read_elision);

} // namespace dse::hier_trace
