// `dse emit`: turns a schedule (one or more segments, each a candidate and tiling of a problem)
// into one self-contained C++ source file that runs it on the host, counts every word it moves
// between DRAM and the global-buffer arena, and checks its result against a plain reference.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

struct EmitOptions {
  std::string title;       // first comment line and the report's "kernel" field
  std::uint64_t seed = 1;  // seed of the random inputs
  double tolerance = 1e-4; // allowed max |kernel - reference| / max |reference| per output
};

/// One segment of a schedule: a single operator or a fused pair with its mapping.
struct KernelSegment {
  const Problem *problem = nullptr;
  Candidate candidate;
  Tiling tiling;
};

/// The order in which a program runs its segments: by their first operator in the workload
/// (producers before consumers), ties kept as given, each after the segments whose outputs it
/// reads (the chains of a branching workload).
std::vector<KernelSegment> execution_order(std::vector<KernelSegment> segments);

/// The flags the generated source is meant to be compiled with (after the compiler).
inline constexpr const char *kKernelFlags =
    "-O3 -march=native -fopenmp -ffp-contract=fast -std=c++20";

/// Source of a program running `segments` one after the other (producers first; an unfused
/// intermediate goes through its DRAM array). Throws UserError when a segment cannot be executed
/// exactly (see plan_segment). An arena overflow is not refused here: the source then fails to
/// compile on a static_assert naming the segment and its peak.
std::string emit_kernel(const std::vector<KernelSegment> &segments, const Hardware &hw,
                        const EmitOptions &options);

/// Why the schedule's tiles (plus the online-softmax state, which the model does not count) do
/// not fit the global buffer, naming the segment and the words; empty when they fit.
std::string arena_overflow(const std::vector<KernelSegment> &segments, const Hardware &hw);

} // namespace dse
