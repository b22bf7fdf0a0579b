// The objectives of a mapping as a function of its deliveries Delta(l,t) (docs/HIERARCHY.md
// §4.1), for one spatial row and keep vector: every other quantity of §4 is fixed by those two, so
// the search evaluates a tiling's loop orders without allocating, and bounds a whole subtree by
// the least deliveries. What depends on the spatial row alone is computed once per row; choosing
// a keep vector then only looks it up. The arithmetic follows evaluate_hier_mapping step by step,
// so the objectives are bit-identical to hier_objectives of its cost.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/cost.hpp"
#include "dse/search/hier_rows.hpp"

namespace dse {

class HierDeliveryCost {
public:
  /// For the spatial row `fanouts`, with no tensor kept on chip until `set_keeps`; the
  /// operator's dimensions are taken unpadded, as divisor tilings leave them.
  HierDeliveryCost(const Hardware &hw, const Workload &workload, const Operator &op,
                   const std::vector<std::vector<FanoutMapping>> &fanouts, bool first_read_elision,
                   LatencyModel latency_model);

  /// Per storage level, a bit per tensor it keeps (level 0 keeps every tensor).
  void set_keeps(const std::vector<std::uint32_t> &keep);

  /// Objectives of the mapping whose deliveries are `delta`; `buffer_words` is level 1's. A bound
  /// may give `kept_dram_floor`, a floor under the DRAM words of the tensors level 1 keeps
  /// (HierDramFloor): the DRAM words count at least that for them, and each word beyond what
  /// `delta` gives them at least the cheaper of a read and an update of level 0 in energy (every
  /// count grows with `delta`, so a mapping above `delta` pays both).
  Objectives objectives(const HierDeliveries &delta, double buffer_words,
                        double kept_dram_floor = 0) const;
  /// Deliveries no mapping of this spatial row and keep vector goes below: |t| * rho(l,t).
  const HierDeliveries &least_deliveries() const { return least_; }
  /// Utilised instances of storage level `level`.
  double instances(size_t level) const { return levels_[level].instances; }
  /// Objectives of the least deliveries: a bound for every tiling of the row and keep vector
  /// (with `kept_dram_floor` as in objectives).
  Objectives least_objectives(double kept_dram_floor = 0) const {
    return objectives(least_, 0, kept_dram_floor);
  }
  bool keeps(size_t level, size_t tensor) const { return levels_[level].terms[tensor].kept; }

private:
  /// What one level does with one tensor, apart from the deliveries.
  struct Term {
    bool kept = false;
    bool output = false;
    size_t child = 0;          // next keeper inside, or the compute units (levels().size())
    double sharing = 1;        // mu(l,t)
    double first_arrivals = 0; // eps * P(l,t) for outputs
  };
  struct Level {
    std::array<Term, kMaxHierTensors> terms{};
    double instances = 1;
    double read_pj = 0, fill_pj = 0, update_pj = 0;
  };

  double transfer_cycles(size_t level, double reads, double writes) const;

  const Hardware &hw_;
  size_t levels_count_ = 0;
  std::array<Level, kMaxHierLevels> levels_{};
  /// [level][child][tensor] mu(l,t) when `child` is the next keeper inside (or the compute units)
  std::array<std::array<std::array<double, kMaxHierTensors>, kMaxHierLevels + 1>, kMaxHierLevels>
      sharing_{};
  HierDeliveries first_arrivals_{}; // eps * P(l,t) of the output, when kept at l
  size_t tensors_ = 0;
  double macs_ = 0;
  double compute_cycles_ = 0;
  double compute_energy_pj_ = 0;
  LatencyModel latency_model_;
  HierDeliveries least_{};
};

} // namespace dse
