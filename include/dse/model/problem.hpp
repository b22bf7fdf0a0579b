// A search problem: one einsum, or a chain of producer -> consumer einsums searched fused, with
// the tensors each operator touches and the dimensions that can be tiled.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/chain.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

enum class TensorRole { Input, Output, Intermediate };

/// A tensor of the problem. Each intermediate of a fused chain is one tensor, owned by its
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
  /// the dimension itself, or, for a fused producer whose result its consumer reads through a
  /// window, the consumer's index, composed down the chain in the last operator's dims
  /// (`p := p2 + r2`: the producer computes the tile and its halo).
  std::vector<IndexExpr> iteration;
};

/// Along one halo dim, the positions of an intermediate that its consumer's computation reads
/// within what the producer writes, [begin, end): the producer computes only these. Reads before
/// or after them are padding (zeros); positions after them that no output reads are not computed.
/// The pads are what the composed windows over the last operator's whole dims read beyond them.
struct HaloRange {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t pad_before = 0; // padding read before the producer's first position
  std::int64_t pad_after = 0;  // padding read after its last
};

/// A link of a fused chain: ops[producer] writes `intermediate`, ops[producer + 1] reads it.
/// Halo fields are in the chain's last operator's dims, every earlier operator being rewritten
/// in them (docs/DEPTH_FIRST.md §2).
struct ProblemLink {
  int producer = 0;
  int intermediate = -1; // problem tensor, owned by the producer
  /// Dims of the last operator that the producer lacks: it reruns per iteration of each.
  std::vector<int> recompute_dims;
  /// Last-operator dims inside a compound index of the intermediate (a window or stride). They
  /// are shared loops, above the intermediate's depth: the producer computes each tile's halo.
  std::vector<int> halo_dims;
  std::vector<IndexExpr> halo_reads;  // per halo dim: the intermediate's index it is in
  std::vector<HaloRange> halo_ranges; // per halo dim: the positions the producer computes

  bool has_halo(int dim) const;
  const IndexExpr &halo_read(int dim) const;
  const HaloRange &halo_range(int dim) const;
  /// Halo dim `dim`'s coefficient in its index of the intermediate (the composed stride).
  std::int64_t halo_stride(int dim) const;
};

/// One operator, or a fused chain ops[0] -> ops[1] -> ... (each link's consumer is the next
/// link's producer).
struct Problem {
  const Workload *workload = nullptr;
  std::vector<ProblemOp> ops;
  std::vector<ProblemTensor> tensors;
  std::vector<int> dims;       // union of the ops' dims, ascending
  std::vector<bool> is_window; // per workload dim: reduction dim inside a halo index (kept whole)
  std::vector<ProblemLink> links;  // fused only: links[i] joins ops[i] and ops[i + 1]
  std::vector<int> prefix_dims;    // dims allowed in the shared prefix (fused only)
  std::vector<int> recompute_dims; // union of the links' recompute dims (fused only)
  std::vector<int> halo_dims;      // union of the links' halo dims, ascending (fused only)
  /// Fused only: the chain's input that the last operator's residual is (a block's input read
  /// again by its add), when every tile of it that the first operator keeps across the shared
  /// loops holds the residual's tile of the same step; -1 otherwise. Along each position the
  /// first operator's index is a dim no shared loop tiles, or the residual's own dim plus
  /// windows over unshared dims that reach it from both sides (`p+r-1` over `p`).
  int held_residual = -1;

  bool fused() const { return ops.size() >= 2; }
  /// Whether a shared loop over `dim` must enclose link `link`'s intermediate: its producer
  /// reruns per iteration of a recompute dim, and per halo dim it computes a new window.
  bool encloses_intermediate(int link, int dim) const;
  /// The window of the index that halo dim `dim` of link `link` is in: 1 + sum over its other
  /// terms of coef * (size - 1).
  std::int64_t halo_window(int link, int dim) const;
  /// The positions the producer of link `link` computes along halo dim `dim` (its HaloRange)
  /// less stride * X, X the dim's size: the composed windows less the stride and the padding, a
  /// constant of the chain's structure whatever X.
  std::int64_t halo_positions_offset(int link, int dim) const;
  /// Positions of link `link`'s intermediate along halo dim `dim` that consecutive steps of
  /// `dim`'s loop both need: the producer recomputes them, or keeps them in an overlap store when
  /// the link caches `dim`. The window less the stride where every later link recomputes; a
  /// later link that caches `dim` computes only new positions, and the windows below it overlap
  /// by that much less. `cached` lists each link's cached halo dims.
  std::int64_t halo_overlap(int link, int dim, const std::vector<std::vector<int>> &cached) const;
  /// Whether a fused dataflow with this prefix and these cached halo dims (per link) computes
  /// every element of every intermediate once: no recompute loop, no overlap recomputed.
  bool runs_without_recompute(const std::vector<int> &prefix,
                              const std::vector<std::vector<int>> &cached) const;
  /// Halo dims of link `link` whose overlap a dataflow may keep on chip between consecutive
  /// tiles instead of recomputing it: windows that overlap (wider than the stride), read once by
  /// every producer access (no strided producer), and, with padding after the last position as
  /// wide as the stride, no window of the producer's own along it (its last step could compute
  /// nothing but still read one).
  std::vector<int> cacheable_halo_dims(int link) const;
  /// Whether some tile size of `dim` is not counted exactly: along a halo dim whose composed
  /// padding before or after exceeds the stride (two "same" 3-wide windows pad the first layer's
  /// by 2 at stride 1), a narrow first or last tile puts padding in its neighbour's window too.
  bool restricts_tiles(int dim) const;
  /// Whether the model counts tiles of `tile` positions along `dim` exactly: with more than one
  /// tile, stride * tile covers the padding before, and stride * (the last tile's positions) the
  /// padding after, so that only the first and the last windows read padding. Always true where
  /// restricts_tiles is false (every pair).
  bool counts_tile_exactly(int dim, std::int64_t tile) const;
  /// Per link, every halo dim it can cache (the dataflows that recompute least).
  std::vector<std::vector<int>> cacheable_halos() const;
  const Operator &op(int i) const;
  /// Canonical text of everything the symbolic forms depend on (not sizes, not hardware).
  std::string structure_key() const;
  std::string dim_name(int dim) const;
};

/// The window of halo index `index` along `dim`: 1 + sum over its other terms of
/// coef * (size - 1).
std::int64_t halo_index_window(const Workload &workload, const IndexExpr &index, int dim);

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
/// Whether the chain (two or more links, each reading the previous one's result) can be
/// searched fused depth first: every pair can (can_fuse_with_halo), and the windows composed
/// down the chain keep one tiled dim per index, a producer's own dims apart, and their padding
/// in the first and last windows. Empty when it can, else the reason.
std::string chain_fusion_problem(const Workload &workload, const std::vector<ChainLink> &links);
Problem make_chain_problem(const Workload &workload, const std::vector<ChainLink> &links);

} // namespace dse
