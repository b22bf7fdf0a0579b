// How one segment of a schedule becomes code: every tensor's tile (box, storage order, arena
// offset by the scope rule), each operator's register blocking, the softmax form, and the
// schedule as a sequence of steps. Refuses what the emitter cannot execute exactly.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

/// What the emitted code is tuned to: vector lanes, the register block of the micro-kernel, the
/// cores, and the capacities of the two arenas (in fp32 words) with the levels they stand for.
struct CodegenTarget {
  int lanes = 8;   // fp32 lanes of one vector
  int rows = 6;    // micro-kernel register rows (MR)
  int vectors = 2; // vectors per register row (NR = vectors * lanes)
  int cores = 1;
  std::int64_t gb_words = 0;
  std::int64_t register_words = 0;
  std::string gb_name;       // the level whose tiles the arena holds
  std::string register_name; // the register level; empty: none declared (the block itself)
  int col_block() const { return vectors * lanes; } // NR
};

/// In today's form: lanes from the hardware's vector unit (8 when it is a PE array), the largest
/// register block of at most 12 rows whose accumulators fit the register level, and the
/// capacities. On a general hierarchy: the arena is level 1 (docs/HIERARCHY.md §10, rung 4), the
/// levels below it run as the micro-kernel, whose block is the default one of 8 lanes.
CodegenTarget codegen_target(const Hardware &hw);

/// One workload dimension inside a segment.
struct DimPlan {
  std::string name;
  std::int64_t size = 1;  // real extent
  std::int64_t tile = 1;  // T (window dims: the whole size)
  std::int64_t trips = 1; // ceil(size / tile)
  std::int64_t padded() const { return tile * trips; }
};

/// The tile of one tensor (or of the online-softmax state, or of an overlap store) in the
/// global-buffer arena.
struct TilePlan {
  int tensor = -1; // problem tensor; -1 for the softmax state and the overlap stores
  int halo = -1;   // an overlap store: the SegmentPlan::halos entry it keeps the overlap of
  std::string name;
  TensorRole role = TensorRole::Input;
  TensorAccess access;    // index expressions (state: the intermediate's, less the softmax dim)
  std::vector<int> above; // loops entered when it is allocated (its path above its depth)
  std::vector<std::int64_t> extent; // per index position
  std::vector<int> order;           // index positions, outermost first; the last is contiguous
  /// The contiguous position is stored in blocks of this many (packed panels: the block index
  /// outermost, the block innermost); equal to its extent when the tile is not blocked.
  std::int64_t block = 1;
  /// Per workload dim: words between neighbours (0: unused); for the blocked dim, between
  /// neighbouring blocks divided by the block size.
  std::vector<std::int64_t> dim_stride;
  std::vector<std::int64_t> position_stride; // per index position (unblocked tiles)
  std::vector<int> revisit_loops;            // output: loops above its depth that do not index it
  std::int64_t words = 0;
  std::int64_t offset = 0; // arena offset, fixed by the scope nesting
};

/// A halo dim of one link of a chain fused through windows (docs/DEPTH_FIRST.md §5). Along the
/// intermediate's index `axis`, each step of the dim's loop needs a window of positions
/// [lo, end): for the link before the last a step of the consumer's tile, lo = offset + step *
/// trip and end = lo + window; for an earlier link whose consumer computes positions of the next
/// link's halo (`chained`), the image of those through the consumer's read, lo = coef * first +
/// shift and end = coef * (first + n - 1) + shift + own_span. The producer computes the window's
/// positions inside [begin, end), but for the first `overlap` ones after the first step when the
/// link caches the dim (they come from the overlap store). Its micro-kernel runs over those
/// positions (`position_dim`, a count known at run time).
struct HaloPlan {
  int link = 0;            // Problem::links entry; its producer is ops[link]
  int dim = -1;            // the last operator's dim
  int position_dim = -1;   // SegmentPlan::dims entry of the positions the producer computes
  int axis = -1;           // index position of the intermediate
  bool looped = false;     // a prefix loop (else one step spans the dim whole)
  std::int64_t stride = 1; // the dim's coefficient in the intermediate's index
  std::int64_t step = 0;
  std::int64_t offset = 0;
  std::int64_t window = 0; // the most positions a window spans (the intermediate's extent)
  int chained = -1;        // SegmentPlan::halos entry of the next link along the same dim
  std::int64_t coef = 1;
  std::int64_t shift = 0;
  std::int64_t own_span = 1;
  std::int64_t overlap = 0;
  std::int64_t begin = 0;
  std::int64_t end = 0;
  bool cached = false;
  int store_tile = -1; // cached: the overlap store, allocated around the dim's loop
  /// Cached: prefix loops inside the dim's that do not index the intermediate; the store takes
  /// the window's last positions at their last trip only (earlier trips still need the previous
  /// window's).
  std::vector<int> save_at_last;
};

/// How an operator's tile computation maps onto the micro-kernel:
/// c[i, j] += a[i, r...] * b[r..., j], vector lanes along j, register rows along i.
struct OpPlan {
  std::string name;
  int a_tile = -1; // indices into SegmentPlan::tiles
  int b_tile = -1;
  int c_tile = -1;
  int row_dim = -1;                // i (-1: a single row)
  int vec_dim = -1;                // j
  int rows = 1;                    // register rows per block (MR of this op)
  std::vector<int> outer_dims;     // other output dims, looped around the micro-kernel
                                   // (halo positions included, counted at run time)
  std::vector<int> reduction_dims; // window dims included
  std::int64_t macs_per_tile = 0;  // padded, as the model counts them (per halo position)
};

enum class SoftmaxForm {
  None,   // no softmax on this segment
  Pass,   // unfused: its own pass over the scores in DRAM
  Whole,  // fused, the normalised dim is not in the prefix: each intermediate region holds whole
          // rows
  Online, // fused, the normalised dim is a prefix loop: running max and sum per row
};

struct SoftmaxPlan {
  SoftmaxForm form = SoftmaxForm::None;
  int workload_op = -1;
  int over_dim = -1;
  int over_position = -1; // Online: index of the dim's loop in the prefix
  int state_tile = -1;  // Online: max, sum and last scale per row, allocated outside the dim's loop
  int output_tile = -1; // Online: the consumer output that is rescaled
  std::vector<int> update_loops;   // Online: recompute loops inside the dim's loop (update at 0)
  std::int64_t pass_row_words = 0; // Pass: padded extent of the normalised dim
};

enum class StepKind {
  LoopBegin, // dim
  LoopEnd,   // dim
  Allocate,  // tile: load, read back or zero-fill by its role
  Release,   // tile: output tiles are written back
  Compute,   // op
  Softmax,   // the fused softmax step on the intermediate region
  Rescale,   // tile: online softmax, before new contributions (skipped at the dim's first trip)
  Normalize, // tile: online softmax, after the dim's last trip
  HaloLoad,  // halo (in `tile`): the overlap from its store, before the producer runs
  HaloSave,  // halo (in `tile`): the window's last positions into its store, after it ran
};

struct Step {
  StepKind kind = StepKind::LoopBegin;
  int dim = -1;
  int tile = -1;
  int op = -1;
  std::vector<int> entered; // loops entered at this step, outermost first
};

struct SegmentPlan {
  const Problem *problem = nullptr;
  std::string description;     // the dataflow and tiles, one line
  std::vector<DimPlan> dims;   // per workload dim (dims outside the segment: size 1)
  std::vector<TilePlan> tiles; // per problem tensor, then the softmax state, the overlap stores
  std::vector<OpPlan> ops;     // per problem op
  std::vector<HaloPlan> halos; // a chain fused through windows: per link and halo dim, each
                               // after the halo it is chained to
  SoftmaxPlan softmax;
  std::vector<Step> steps;
  std::int64_t peak_words = 0; // most arena words live at once (softmax pass excluded)
  /// The last operator's residual is read from the held tile of the chain's input it is
  /// (residual_held), added to each output position where it is first computed.
  bool residual_held = false;
};

/// Plans one segment. Throws UserError naming the reason when the schedule cannot be executed
/// exactly (one-input einsums, elementwise operators, no vector dimension, softmax forms that
/// need state the schedule cannot keep).
SegmentPlan plan_segment(const Problem &problem, const Candidate &candidate, const Tiling &tiling,
                         const CodegenTarget &target);

} // namespace dse
