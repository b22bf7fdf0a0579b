// A candidate dataflow: everything but the tile sizes. Loop tree (shared prefix and per-operator
// sub-nests), retention depth per tensor, and the spatial mapping of each operator.
#pragma once

#include <string>
#include <vector>

#include "dse/model/problem.hpp"

namespace dse {

/// Loop tree and buffer retention. Depth r of a tensor means its tile is allocated inside the
/// body of the r-th loop of its owner's path (0: outside every loop, the whole tensor).
struct Dataflow {
  std::vector<int> prefix;                // shared loops of a fused chain, outer -> inner
  std::vector<std::vector<int>> subnests; // per problem op, outer -> inner
  std::vector<int> retention;             // per problem tensor
  /// Per link of a fused chain, the halo dims (ascending) whose overlap is kept on chip between
  /// consecutive tiles: the link's producer computes only each tile's new positions along them
  /// (the others recompute their halo). Empty for a single operator.
  std::vector<std::vector<int>> cached{};

  /// The loops enclosing op `op`: the shared prefix, then its own sub-nest.
  std::vector<int> path(int op) const;
  /// Prefix loops over a dim that some producer lacks: it reruns once per iteration of each.
  std::vector<int> recompute_dims(const Problem &problem) const;
  /// Whether some link caches a halo dim.
  bool caches_halo() const;
  bool operator==(const Dataflow &) const = default;
};

/// Whether the last operator of a fused chain starts from its residual read out of the tile of
/// the chain's input that the first operator keeps across the shared loops
/// (Problem::held_residual), not from DRAM: that tile is kept above the innermost shared loop
/// (so it is live while the last operator runs) and no link caches a halo (so the first operator
/// loads its whole box, not only the positions it has not computed yet).
bool residual_held(const Problem &problem, const Dataflow &dataflow);

/// The recompute dims of a shared prefix (Dataflow::recompute_dims of any dataflow with it).
std::vector<int> prefix_recompute_dims(const Problem &problem, const std::vector<int> &prefix);
/// The loops of `recompute_dims` that rerun operator `op`: those over dims it lacks.
std::vector<int> op_recompute_dims(const Problem &problem, const std::vector<int> &recompute_dims,
                                   int op);

/// Which dimensions of an operator go across the array rows and columns (-1: none).
struct SpatialMapping {
  int row_dim = -1;
  int col_dim = -1;
  bool operator==(const SpatialMapping &) const = default;
};

/// A fully specified candidate: dataflow plus a spatial mapping per operator.
struct Candidate {
  Dataflow dataflow;
  std::vector<SpatialMapping> spatial;
};

/// Human-readable one-line description, e.g.
/// `fused prefix[m] | qk: n k | pv: l n | keep Q@1 K@2 S@1 ... | recompute l | spatial qk(m,n)
/// ...`.
std::string describe(const Problem &problem, const Candidate &candidate);

/// Whether the dataflow satisfies every rule of the model (used to validate user mappings).
/// Returns an empty string when legal, else the reason.
std::string legality_problem(const Problem &problem, const Dataflow &dataflow);

} // namespace dse
