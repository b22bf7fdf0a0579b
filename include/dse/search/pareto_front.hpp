// An exact Pareto front over up to four minimised objectives, with a total tie-break order
// (objectives, then candidate id, then tiling id) so the front is identical for any thread count.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "dse/model/cost.hpp"

namespace dse {

enum class Objective { Latency, Energy, Edp, Dram, Buffer };
inline constexpr size_t kMaxObjectives = 4;

Objective parse_objective(const std::string &name); // throws UserError
const char *objective_name(Objective o);
double objective_value(const Objectives &o, Objective which);

struct ParetoPoint {
  std::array<double, kMaxObjectives> key{}; // selected objectives, unused entries 0
  std::uint64_t candidate = 0;
  std::uint64_t tiling = 0;
  Objectives objectives;
  MetricTotals totals;
};

class ParetoFront {
public:
  explicit ParetoFront(std::vector<Objective> objectives);

  /// Fills `key` from `objectives` for this front's objective selection.
  void set_key(ParetoPoint &p) const;
  /// Adds the point unless a point of the front dominates it; drops the points it dominates.
  bool insert(const ParetoPoint &p);
  void merge(const ParetoFront &other);
  /// Points sorted by their objective key, then ids.
  const std::vector<ParetoPoint> &points() const { return points_; }
  const std::vector<Objective> &objectives() const { return objectives_; }
  size_t size() const { return points_.size(); }

private:
  bool dominates(const ParetoPoint &a, const ParetoPoint &b) const;
  bool insert_2d(const ParetoPoint &p);
  bool insert_nd(const ParetoPoint &p);

  std::vector<Objective> objectives_;
  std::vector<ParetoPoint> points_;
};

} // namespace dse
