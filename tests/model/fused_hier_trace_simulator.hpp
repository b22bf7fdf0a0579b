// Rung 1 of docs/HIERARCHY.md §10 for fused pairs (§8): walks a FusedHierMapping literally and
// counts reads, fills and updates per level and problem tensor, so that the closed forms of
// evaluate_fused_hier_mapping can be checked against it. Levels 0 and 1 follow the one-level
// trace simulator (trace_simulator.hpp): level-1 tiles are allocated and released by retention
// depth along the fused loop tree. Below level 1 each operator's blocks, fan-outs and keepers
// follow the single-operator walk (hier_trace_simulator.hpp), run by run: the producer then the
// consumer in every iteration of the shared prefix, every inner tile emptied when a run ends.
// It uses none of the closed forms.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/problem.hpp"
#include "model/hier_trace_simulator.hpp"

namespace dse::fused_hier_trace {

using hier_trace::TensorCounts;

/// What the whole fused run did.
struct TraceCounts {
  /// [level][problem tensor]: empty where the level does not keep the tensor. Level 0 keeps
  /// every tensor but the intermediate, level 1 every tensor; an inner level keeps a tensor when
  /// the keep set of either operator that uses it there says so (the two operators' counts add).
  std::vector<std::vector<std::optional<TensorCounts>>> levels;
  std::vector<std::int64_t> macs; // per problem op, padding and recompute included
};

/// Walks `mapping` of fused `problem` (legal: fused_hier_mapping_problem) on `hw.hierarchy`.
/// Meant for tiny problems: the cost grows with the MACs.
///
/// - Level 0 <-> level 1: a tensor's level-1 tile is allocated in the body of the loop of its
///   retention depth and released at the end of it. An input's allocation fills the whole box
///   from level 0; the output's is read from level 0 only when some element of the box was
///   written back before (always without first-read elision), and its release writes the box
///   back. The intermediate has no level-0 traffic and no fills.
/// - Below level 1: each operator walks its level-1 block and everything inside it at each
///   iteration of its level-0 loops, as the single-operator walk does, with level 1 as the
///   root. When its run in a prefix iteration ends, every inner tile is emptied (partial sums
///   go up as updates, inputs are dropped). First-read elision: the consumer's output counts as
///   zero until it first reaches an instance; the intermediate again at every prefix iteration.
TraceCounts simulate(const Hardware &hw, const Problem &problem, const FusedHierMapping &mapping,
                     bool first_read_elision);

} // namespace dse::fused_hier_trace
