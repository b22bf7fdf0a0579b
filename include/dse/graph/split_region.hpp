// Split regions (VMOC): a run of consecutive nodes executed in `parts` parts along the rows
// (spatial height) or the output channels, each part computing a range of every node's output
// with the halo its consumers need; and the execution plan in which each region is a super-node.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "dse/graph/exec_plan.hpp"

namespace dse {

enum class SplitAxis { Rows, Channels };
const char *split_axis_name(SplitAxis axis);

struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
  std::int64_t size() const { return end - begin; }
  bool operator==(const Range &) const = default;
};

struct SplitRegion {
  std::vector<int> nodes; // consecutive node indices
  SplitAxis axis = SplitAxis::Rows;
  /// Rows only: the split axis of a tensor of rank R is R-1-offset (1: the height of NCHW maps
  /// and the rows of matrices; 2: the axis before, such as the tokens of [seq, batch, d]).
  int offset = 1;
  int parts = 1;
  /// ranges[i][p]: the rows or channels of nodes[i]'s output computed by part p.
  std::vector<std::vector<Range>> ranges;

  bool contains(int node) const;
  /// The split axis of node `node`'s output.
  size_t dim(const Graph &graph, int node) const;
};

/// The region of nodes [first, last] split into `parts`, or nothing when a node cannot be split
/// along `axis` or `parts` does not divide the extent of every tensor the region hands on.
/// Rows: Conv and pools (height only), Gemm (rows only), MatMul (its second operand read whole,
/// or split along a shared batch axis), batch norm, elementwise, identity, and concat, softmax,
/// layer norm and mean over other axes.
/// Channels: a Conv (one group), Gemm or MatMul followed by the single-input vector nodes that
/// read its result.
std::optional<SplitRegion> make_region(const Graph &graph, int first, int last, SplitAxis axis,
                                       int parts, int offset = 1);

/// The share of part `part` of an axis of `extent` split into `parts` (what the part writes of a
/// tensor that leaves its region).
Range share_of(std::int64_t extent, int parts, int part);

/// Whether `tensor` leaves `region`: read outside it, a graph output, or never read.
bool leaves_region(const Graph &graph, const SplitRegion &region, int tensor);

/// The range of input `input_tensor`'s split axis that `node` reads to produce `out` of its own
/// (rows: the window with its halo; channels: the same channels, since only the vector nodes
/// after a region's head read a split tensor).
Range input_range(const Graph &graph, const SplitRegion &region, int node, int input_tensor,
                  Range out);

/// Words of `input_tensor` that `node` reads to produce `out` of its output's split axis.
double input_words(const Graph &graph, const SplitRegion &region, int node, int input_tensor,
                   Range out);

/// MACs computed more than once because parts overlap.
double halo_macs(const Graph &graph, const SplitRegion &region);

/// The whole-node plan with every region run part by part: internal tensors become one slab
/// buffer per part; a row region's boundary tensors stream from and to DRAM (dram_only); a
/// channel region reads its input whole in every part and splits its weights.
ExecPlan split_plan(const Graph &graph, const std::vector<SplitRegion> &regions);

} // namespace dse
