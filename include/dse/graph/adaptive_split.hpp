// Adaptive splitting (VMOC): for each global-memory hotspot, the region around it and the
// smallest number of parts that fits the capacity with a positive benefit under a
// hardware-aware cost model (spills avoided against recomputed halo and extra transfers).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dse/graph/memory_simulation.hpp"
#include "dse/graph/split_region.hpp"

namespace dse {

enum class PlanObjective { Latency, Energy };

/// Benefits below this fraction of the objective are rounding noise, not a benefit.
inline constexpr double kMinRelativeBenefit = 1e-9;

struct SplitOptions {
  PlanObjective objective = PlanObjective::Energy; // what "benefit" measures
  int max_region_nodes = 6;                        // longest run of nodes split together
  int max_parts = 1024;                            // largest number of parts tried
};

/// What was decided for one hotspot step (its peak node).
struct SplitDecision {
  int node = -1;         // the node at the hotspot's peak
  double peak_words = 0; // live words there before the decision
  bool split = false;
  SplitRegion region; // when split
  double benefit = 0; // objective saved (pJ or s); when split
  double halo_macs = 0;
  double extra_weight_words = 0; // weights read again by the extra parts
  std::string reason;            // when left alone
};

struct SplitResult {
  std::vector<SplitRegion> regions; // disjoint, in graph order of acceptance
  std::vector<SplitDecision> decisions;
  ExecPlan plan_before;
  ExecPlan plan_after;
  SimulationResult before;
  SimulationResult after;
};

/// What later scheduling sees: every node outside a region on its own, and each split region as
/// one super-node whose live words are the peak over its parts.
struct ScheduleUnit {
  std::vector<int> nodes;
  int region = -1;       // index into SplitResult::regions, or -1 for a single node
  double peak_words = 0; // global-level live words (the peak over the unit's steps)
};
std::vector<ScheduleUnit> super_node_schedule(const SplitResult &result);

/// Whether a region's steps fit `capacity_words` in `simulation` of `plan`.
bool region_fits(const ExecPlan &plan, const SimulationResult &simulation, int region,
                 double capacity_words);

/// Splits hotspots one at a time, highest live words first, until no step above capacity is
/// left untried. Windows of up to max_region_nodes consecutive nodes containing the hotspot
/// node are tried along rows and channels; for each, the smallest divisor n >= 2 of the split
/// extent that fits with a positive benefit; the window with the largest benefit wins.
SplitResult plan_splits(const Graph &graph, const Hardware &hw, const SplitOptions &options);

/// How a plan's costs (anything with latency_s and energy_pj) are ordered under `objective`: the
/// objective first, the other as the tie-break.
template <class Cost> std::pair<double, double> plan_rank(const Cost &c, PlanObjective objective) {
  if (objective == PlanObjective::Latency)
    return {c.latency_s, c.energy_pj};
  return {c.energy_pj, c.latency_s};
}

/// The objective value of a simulation.
double objective_value(const SimulationResult &s, PlanObjective objective);

} // namespace dse
