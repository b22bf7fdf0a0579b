// Memory hotspots (VMOC): live words per step and per on-chip level, the runs of steps whose
// live words exceed a level's capacity, and the operators and tensors that set each peak.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dse/graph/memory_simulation.hpp"

namespace dse {

/// An on-chip level checked by planning. The global buffer holds every live tensor; an inner
/// level (per core) holds the running step's operands split over the cores.
struct PlannedLevel {
  std::string name;
  double capacity_words = 0;
  bool shared = true; // the global level
};

/// The global buffer, then each inner level with a capacity.
std::vector<PlannedLevel> planned_levels(const Hardware &hw);

/// A maximal run of consecutive steps above a level's capacity.
struct Hotspot {
  size_t level = 0;
  int first_step = 0;
  int last_step = 0;
  int peak_step = 0;
  double peak_words = 0;
  /// What is live at the peak, largest first, cut once the listed words exceed the excess over
  /// capacity: removing these would be needed to fit.
  std::vector<std::pair<std::string, double>> tensors;
};

struct MemoryReport {
  std::vector<PlannedLevel> levels;
  std::vector<std::vector<double>> live_words; // [level][step]
  std::vector<double> peak_words;              // per level
  std::vector<int> peak_step;                  // per level
  std::vector<Hotspot> hotspots;               // by level, then step
};

MemoryReport memory_report(const ExecPlan &plan, const SimulationResult &simulation,
                           const Hardware &hw);

} // namespace dse
