// Rung 1 of the validation ladder (docs/DESIGN.md §7): executes a candidate's loop tree
// literally, tile by tile, counting DRAM words, MACs and live GB words, and checks its values
// against a plain einsum.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/model/dataflow.hpp"
#include "dse/model/tiling.hpp"

namespace dse::trace {

/// A dense box of a tensor: coordinates [lo, lo + extent) per index position, row-major values.
struct Dense {
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> extent;
  std::vector<double> data;

  static Dense zeros(std::vector<std::int64_t> lo, std::vector<std::int64_t> extent);
  std::int64_t words() const { return static_cast<std::int64_t>(data.size()); }
  /// Row-major offset of `coord`, or -1 when it lies outside the box.
  std::int64_t offset(const std::vector<std::int64_t> &coord) const;
};

/// What one run of the schedule did. Counts include padding and recompute.
struct TraceCounts {
  std::int64_t dram_reads = 0;
  std::int64_t dram_writes = 0;
  std::vector<std::int64_t> macs;       // per problem op
  std::vector<std::int64_t> peak_words; // per problem op: max live GB words at its innermost body
  /// max |simulated - reference| over the real output range, divided by max |reference|.
  double output_error = 0;
  /// Non-empty when an operator touched an element that no live tile holds.
  std::string schedule_error;
};

/// Simulates schedules of one problem. Input values are seeded random numbers; the reference is
/// the plain einsum (producer then consumer when fused), plus the last operator's residual.
/// Attached softmax/elementwise operators are treated as the identity for values (their cost is
/// only the unfused softmax pass).
class TraceSimulator {
public:
  TraceSimulator(const Problem &problem, std::uint32_t seed);
  /// Tile sizes of window dimensions are ignored (those dimensions are never tiled).
  TraceCounts run(const Dataflow &dataflow, const Tiling &tiling) const;

private:
  const Problem *problem_;
  std::vector<Dense> inputs_; // per problem tensor at its real extents (zeros but for inputs)
  Dense residual_;            // the last operator's residual at real extents (empty: none)
  Dense reference_;           // the problem's final output at its real extents
};

} // namespace dse::trace
