// Shared by the codegen tests: small workloads, hardware and hand-written mappings in their YAML
// formats, and the check that an emitted kernel compiles, passes its numeric check and counts
// exactly what the model predicts.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "common/workloads.hpp"
#include "dse/codegen/kernel_counts.hpp"
#include "dse/codegen/kernel_emitter.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/search/explore.hpp"

namespace dse::codegen_test {

/// A vector target with 8 lanes, a 128-word register level and `gb_words` of global buffer.
std::string vector_hardware(std::int64_t gb_words, int cores = 1);

/// A workload (its sibling einsums also stacked, which the mapping may name) with a mapping
/// resolved against it (segments point into the workload).
class Schedule {
public:
  Schedule(const std::string &workload_yaml, const std::string &mapping_yaml);
  Schedule(const Schedule &) = delete;
  Schedule &operator=(const Schedule &) = delete;

  const Workload &workload() const { return *workload_; }
  std::vector<KernelSegment> segments() const;

private:
  std::unique_ptr<Workload> workload_;
  std::vector<ResolvedSegment> resolved_;
};

/// The front of a workload explored on `hw`, kept alive with the problems its points refer to.
/// Whether a Front's workload also offers its sibling einsums stacked (with_sibling_stacks).
enum class Stacking { None, Siblings };

class Front {
public:
  Front(const std::string &workload_yaml, const Hardware &hw, Stacking stacking = Stacking::None);
  Front(const Front &) = delete;
  Front &operator=(const Front &) = delete;

  size_t size() const { return result_.front.size(); }
  std::vector<KernelSegment> point(size_t index) const;

private:
  std::unique_ptr<Workload> workload_;
  ExploreResult result_;
};

/// What compiling and running one emitted kernel gave.
struct KernelOutcome {
  int compile_exit = -1;
  std::string compile_errors;
  int run_exit = -1;
  KernelRun run;
  std::vector<CountComparison> counts;
};

/// Emits, compiles and runs the schedule; its counts beside `predicted`, or the model's
/// prediction (predicted_counts) when none is given.
KernelOutcome build_and_run(const std::vector<KernelSegment> &segments, const Hardware &hw,
                            const std::string &title,
                            const std::vector<KernelSegmentCounts> *predicted = nullptr);

/// One segment of a mapping file: `ops` like "[mm1, mm2]", the rest as in the mapping format
/// (an empty prefix is left out); the spatial mapping is '-' (the emitter does not use it).
std::string segment(const std::string &ops, const std::string &prefix, const std::string &loops,
                    const std::string &retention, const std::string &tiles);
/// A mapping file of the given segments.
std::string mapping(const std::string &workload, const std::vector<std::string> &segments);

/// Emits, compiles and runs the schedule; expects a passed check and every count equal to
/// `predicted`, or to the model's prediction when none is given.
KernelOutcome expect_matches_model(const std::string &title,
                                   const std::vector<KernelSegment> &segments, const Hardware &hw,
                                   const std::vector<KernelSegmentCounts> *predicted = nullptr);

/// The measured count `quantity` (reads, writes, macs) of `name`, summed over the segments.
double measured(const KernelOutcome &k, const std::string &name, const std::string &quantity);

} // namespace dse::codegen_test
