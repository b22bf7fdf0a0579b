// A search problem: one einsum, or a producer -> consumer pair searched as a fused chain, with
// the tensors each operator touches and the dimensions that can be tiled.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/chain.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

enum class TensorRole { Input, Output, Intermediate };

/// A tensor of the problem. The intermediate of a fused pair is one tensor, owned by the
/// producer (its retention depth lies in the shared prefix).
struct ProblemTensor {
  std::string name;
  TensorAccess access; // as written by its owner
  int owner = 0;       // problem op index
  TensorRole role = TensorRole::Input;
};

/// An einsum of the problem.
struct ProblemOp {
  int workload_op = -1;
  std::vector<int> dims;              // all dims it iterates (tiled and window)
  std::vector<int> tiled_dims;        // dims that are loops (window dims excluded)
  std::vector<int> tensors;           // problem tensors it touches: inputs..., output last
  std::vector<TensorAccess> accesses; // how this op indexes each of `tensors`
  std::vector<int> attached_ops;      // softmax/elementwise ops on its output
  /// Per dimension of its einsum (Operator::dims order), the range it runs over in the problem:
  /// the dimension itself, or, for a fused producer whose result the consumer reads through a
  /// window, the consumer's index (`p := p2 + r2`: the producer computes the tile and its halo).
  std::vector<IndexExpr> iteration;
};

/// Along one halo dim, the positions of the intermediate that the consumer's outputs read
/// within what the producer writes, [begin, end): the producer computes only these. Reads before
/// or after them are padding (zeros); positions after them that no output reads are not computed.
struct HaloRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t pad_before = 0; // padding read before the producer's first position
  std::int64_t pad_after = 0;  // padding read after its last
};

/// One operator, or a fused producer (ops[0]) -> consumer (ops[1]) pair.
struct Problem {
  const Workload *workload = nullptr;
  std::vector<ProblemOp> ops;
  std::vector<ProblemTensor> tensors;
  std::vector<int> dims;        // union of the ops' dims, ascending
  std::vector<bool> is_window;  // per workload dim: reduction dim inside a halo index (kept whole)
  int intermediate = -1;        // problem tensor index, fused only
  std::vector<int> prefix_dims; // dims allowed in the shared prefix (fused only)
  std::vector<int> consumer_only_dims; // consumer dims absent from the producer (fused only)
  /// Consumer dims that read the intermediate through a window or stride (fused only). They are
  /// shared loops, above the intermediate's depth: the producer recomputes each tile's halo.
  std::vector<int> halo_dims;
  std::vector<IndexExpr> halo_reads;  // per halo dim: the consumer's index of the intermediate
  std::vector<HaloRange> halo_ranges; // per halo dim: the positions the producer computes

  bool fused() const { return ops.size() == 2; }
  /// Whether a shared loop over `dim` must enclose the intermediate's tile: the producer reruns
  /// per iteration of a consumer-only dim, and per halo dim it computes a new window.
  bool encloses_intermediate(int dim) const;
  /// Halo dims (ascending) whose consecutive windows overlap (a window wider than its stride):
  /// the producer computes the overlap again for each tile unless a dataflow caches it.
  std::vector<int> overlapping_halo_dims() const;
  /// Whether a fused dataflow with this prefix and these cached halo dims computes every element
  /// of the intermediate once: no recompute loop, every overlapping halo dim cached.
  bool runs_without_recompute(const std::vector<int> &prefix, const std::vector<int> &cached) const;
  /// Halo dims whose overlap a dataflow may keep on chip between consecutive tiles instead of
  /// recomputing it: windows that overlap (wider than the stride), read once by every producer
  /// access (no strided producer), and, with padding after the last position as wide as the
  /// stride, no window of the producer's own along it (its last step could compute nothing but
  /// still read one).
  std::vector<int> cacheable_halo_dims() const;
  /// The consumer's index of the intermediate that halo dim `dim` is in.
  const IndexExpr &halo_read(int dim) const;
  const HaloRange &halo_range(int dim) const;
  /// Halo dim `dim`'s coefficient in its index of the intermediate (the consumer's stride).
  std::int64_t halo_stride(int dim) const;
  /// The window of that index: 1 + sum over its other terms of coef * (size - 1).
  std::int64_t halo_window(int dim) const;
  const Operator &op(int i) const;
  /// Canonical text of everything the symbolic forms depend on (not sizes, not hardware).
  std::string structure_key() const;
  std::string dim_name(int dim) const;
};

Problem make_single_problem(const Workload &workload, const ChainLink &link);

/// Whether the pair can be searched fused with the consumer reading the intermediate through
/// the bare dimensions the producer writes (the form every model of fusion takes).
bool can_fuse(const Workload &workload, const ChainLink &producer, const ChainLink &consumer);
/// Whether the pair can be searched fused, also when the consumer reads the intermediate
/// through windows or strides (`Y[k, p2+r2, q2+s2]`, docs/DESIGN.md §4.1): each such index has
/// one tiled consumer dim, the producer writes bare dims and has no softmax over them, and the
/// padding read on each side is at most the stride and less than the window.
bool can_fuse_with_halo(const Workload &workload, const ChainLink &producer,
                        const ChainLink &consumer);
Problem make_fused_problem(const Workload &workload, const ChainLink &producer,
                           const ChainLink &consumer);

} // namespace dse
