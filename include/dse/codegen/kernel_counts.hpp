// What a run of an emitted kernel counted, what the model predicts for the same schedule, and
// the two side by side: DRAM words per tensor and direction, MACs, time.
#pragma once

#include <string>
#include <vector>

#include "dse/codegen/kernel_emitter.hpp"
#include "dse/model/cost.hpp"

namespace dse {

/// The name under which the unfused softmax pass's words are counted.
inline constexpr const char *kSoftmaxPassCounter = "softmax pass";

/// The name under which an output's residual reads of `tensor` are counted (the tensor may also
/// be an input of the segment, counted under its own name).
inline std::string residual_counter(const std::string &tensor) { return tensor + " (residual)"; }

/// One counted (or predicted) quantity of a segment, e.g. ("A", "reads") or ("mm", "macs").
struct KernelCount {
  std::string name;     // tensor, "softmax pass", or op
  std::string quantity; // reads, writes or macs
  double value = 0;
};

struct KernelSegmentCounts {
  std::string label;
  std::vector<KernelCount> counts;
};

/// The label under which a kernel counts segment `problem`: its operators' names joined by `+`,
/// with ` fused` after a fused chain's.
std::string kernel_segment_label(const Problem &problem);

/// The JSON object an emitted kernel prints.
struct KernelRun {
  std::string kernel;
  double seconds = 0;
  bool checked = false;
  bool check_passed = false;
  double max_relative_error = 0;
  double tolerance = 0;
  std::vector<KernelSegmentCounts> segments;
};

/// Parses a kernel's report; throws UserError when it is not one.
KernelRun parse_kernel_run(const std::string &json);

/// The model's counts for the segments in execution order (see execution_order).
std::vector<KernelSegmentCounts> predicted_counts(const std::vector<KernelSegment> &segments,
                                                  const Hardware &hw);
/// The model's latency summed over the segments.
double predicted_latency_s(const std::vector<KernelSegment> &segments, const Hardware &hw,
                           LatencyModel model);

struct CountComparison {
  std::string segment;
  std::string name;
  std::string quantity;
  double predicted = 0;
  double measured = 0;
  bool equal() const { return predicted == measured; }
};

/// Every predicted count next to the measured one (a count missing on either side is 0 there).
std::vector<CountComparison> compare_counts(const std::vector<KernelSegmentCounts> &predicted,
                                            const KernelRun &measured);

} // namespace dse
