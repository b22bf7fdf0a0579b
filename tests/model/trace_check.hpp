// Compares the trace simulator with the model (dataflow_metrics, compute_metrics) over many
// (dataflow, tiling) pairs of one problem, exhaustively or by fixed-seed sampling.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/tiling.hpp"

namespace dse::trace {

/// Every dataflow of a problem's unpruned candidate space, in the order
/// build_candidate_space(problem, _, Pruning::None) enumerates them before grouping, addressable
/// by index so that large spaces can be sampled without being stored.
class DataflowSpace {
public:
  explicit DataflowSpace(const Problem &problem);
  std::uint64_t size() const { return size_; }
  Dataflow at(std::uint64_t index) const;

private:
  struct Block { // one prefix choice and the local plans of each op under it
    PrefixChoice choice;
    std::vector<std::vector<LocalPlan>> plans;
    std::uint64_t count = 0;
  };
  const Problem *problem_;
  std::vector<Block> blocks_;
  std::uint64_t size_ = 0;
};

/// How much of a problem's (dataflow, tiling) space to check.
struct CheckPlan {
  std::uint64_t max_dataflows = 0;       // more than this: a fixed-seed sample of this many
  std::uint64_t max_all_tilings = 0;     // the `all` menu when it has at most this many tilings...
  std::uint64_t non_divisor_samples = 0; // ...else every divisor tiling plus this many random
                                         // non-divisor tilings per dataflow
};

struct CheckSummary {
  std::uint64_t dataflows_in_space = 0;
  std::uint64_t dataflows_checked = 0;
  std::uint64_t pairs = 0;
  std::uint64_t mismatching_pairs = 0;
  std::map<std::string, std::uint64_t> mismatches_by_metric;
  std::vector<std::string> examples; // the first few mismatches, described in full
};

/// Tilings of the problem's tiled dims, each from `menu` (the sizes the model counts exactly:
/// Problem::counts_tile_exactly); other dims keep their full size.
std::vector<Tiling> menu_tilings(const Problem &problem, TileMenu menu);

/// Runs the simulator on the planned pairs and compares DRAM reads and writes, MACs and buffer
/// words per op exactly with the model (double buffering off); also checks the output values.
CheckSummary check_against_model(const Problem &problem, const CheckPlan &plan, std::uint32_t seed);

} // namespace dse::trace
