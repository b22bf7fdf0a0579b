// Memory hotspots (VMOC): live words per step in the global buffer (the one level that holds
// whole tensors), the runs of steps whose live words exceed its capacity, and the operators and
// tensors that set each peak.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "dse/graph/memory_simulation.hpp"

namespace dse {

/// A maximal run of consecutive steps above the global buffer's capacity.
struct Hotspot {
  int first_step = 0;
  int last_step = 0;
  int peak_step = 0;
  double peak_words = 0;
  /// What is live at the peak, largest first, cut once the listed words exceed the excess over
  /// capacity: removing these would be needed to fit.
  std::vector<std::pair<std::string, double>> tensors;
};

struct MemoryReport {
  std::string level; // the global buffer's name
  double capacity_words = 0;
  std::vector<double> live_words; // per step
  double peak_words = 0;
  int peak_step = -1;
  std::vector<Hotspot> hotspots; // by step
};

MemoryReport memory_report(const ExecPlan &plan, const SimulationResult &simulation,
                           const Hardware &hw);

} // namespace dse
