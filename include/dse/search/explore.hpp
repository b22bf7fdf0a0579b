// Whole-workload exploration: every chain searched fused and unfused, unfused fronts combined by
// Minkowski sum (latency, energy and traffic add; buffer need is the max), chains combined in
// sequence, and the exact front over the requested objectives.
#pragma once

#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/workload.hpp"
#include "dse/search/problem_search.hpp"
#include "dse/support/error.hpp"

namespace dse {

/// One searched problem's share of a front point.
struct MappingPart {
  size_t problem = 0; // index into ExploreResult::problems
  Candidate candidate;
  Tiling tiling;
  Objectives objectives;
  MetricTotals totals;
  std::vector<double> op_buffer_words; // per operator of the problem: GB words live while it runs
};

struct FrontPoint {
  Objectives objectives;
  MetricTotals totals;
  std::vector<MappingPart> parts;
};

struct ProblemSummary {
  std::string label; // e.g. "qk+pv fused" or "qk"
  SearchStats stats;
};

struct ExploreResult {
  std::deque<Problem> problems; // stable addresses
  std::vector<ProblemSummary> summaries;
  std::vector<FrontPoint> front; // sorted by the requested objectives
  /// Fused segments left out of the search, and why (their operators are still searched in
  /// shorter segments).
  std::vector<std::string> notes;
  double seconds = 0;
};

/// Reports the progress of each searched problem: its label, mappings decided and total.
using ProgressReporter =
    std::function<void(const std::string &label, std::uint64_t done, std::uint64_t total)>;

/// What explore throws when no mapping of some operator fits the global buffer: a property of
/// the hardware configuration, which sweeps and network plans report per configuration or
/// segment, unlike the other user errors.
class NoMappingFits : public UserError {
public:
  using UserError::UserError;
};

/// Reports, before each problem's tilings are evaluated, its label and what it will decide.
using EstimateReporter = std::function<void(const std::string &label, const SearchEstimate &)>;

/// Throws NoMappingFits when some chain has no mapping that fits the global buffer.
ExploreResult explore(const Workload &workload, const Hardware &hw, const SearchOptions &options,
                      const ProgressReporter &progress = {}, const EstimateReporter &estimate = {});

/// The front of a workload that is one chain of two or more links, all run fused: its mappings
/// that run some operators apart are left out (the network planner searches those segments on
/// their own). std::nullopt when the links cannot run fused (fusion off, a halo that window
/// fusion is off for, a run longer than options.max_fused or beyond the space limits, or not one
/// chain); throws NoMappingFits when no fused mapping fits the global buffer.
std::optional<ExploreResult> explore_fused_chain(const Workload &workload, const Hardware &hw,
                                                 const SearchOptions &options);

/// Readies in options.cache, all in parallel in the caller's task arena, the candidate spaces and
/// their Q matrices that explore (or, where the flag is set, explore_fused_chain) of each workload
/// will ask for. Without a cache, does nothing. What a search would throw is left to the search.
void prepare_explores(const std::vector<std::pair<const Workload *, bool>> &explores,
                      const Hardware &hw, const SearchOptions &options);

} // namespace dse
