// An exact Pareto front over up to four minimised objectives, with a total tie-break order
// (objectives, then candidate id, then tiling id) so the front is identical for any thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "dse/model/cost.hpp"

namespace dse {

enum class Objective { Latency, Energy, Edp, Dram, Buffer };
inline constexpr size_t kMaxObjectives = 4;

Objective parse_objective(const std::string &name); // throws UserError
const char *objective_name(Objective o);
/// The member of Objectives that holds `which`.
inline double Objectives::*objective_field(Objective which) {
  switch (which) {
  case Objective::Latency:
    return &Objectives::latency_s;
  case Objective::Energy:
    return &Objectives::energy_pj;
  case Objective::Edp:
    return &Objectives::edp;
  case Objective::Dram:
    return &Objectives::dram_words;
  case Objective::Buffer:
    return &Objectives::buffer_words;
  }
  return &Objectives::latency_s;
}
inline double objective_value(const Objectives &o, Objective which) {
  return o.*objective_field(which);
}

/// The objectives of running a plan with objectives `a`, then one with `b`: latency, energy and
/// DRAM words add up, the buffer need is the larger one.
Objectives objectives_in_sequence(const Objectives &a, const Objectives &b);

/// Objectives that compose under sequential execution: EDP does not add, so the fronts of parts
/// run in sequence are kept over latency and energy (each once, in order), from which the EDP of
/// a sum follows.
std::vector<Objective> composable_objectives(const std::vector<Objective> &objectives);

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

  using Key = std::array<double, kMaxObjectives>;
  /// The selected objectives of `o`, in this front's order (unused entries 0).
  Key key_of(const Objectives &o) const {
    Key key{};
    for (size_t i = 0; i < objectives_.size(); ++i)
      key[i] = o.*fields_[i];
    return key;
  }
  /// The entries of `selection` of `o`, in that order (unused entries 0).
  static Key key_of(const Objectives &o, const std::vector<Objective> &selection) {
    Key key{};
    for (size_t i = 0; i < selection.size(); ++i)
      key[i] = objective_value(o, selection[i]);
    return key;
  }
  /// Fills `key` from `objectives` for this front's objective selection.
  void set_key(ParetoPoint &p) const { p.key = key_of(p.objectives); }
  /// Whether a point with this key and these ids would enter the front (cheap; no insertion).
  bool admits(const Key &key, std::uint64_t candidate, std::uint64_t tiling) const {
    if (objectives_.size() != 2)
      return admits_nd(key, candidate, tiling);
    // The staircase: only the last point with no greater first objective can dominate.
    const auto after = std::upper_bound(first_keys_.begin(), first_keys_.end(), key[0]);
    if (after == first_keys_.begin())
      return true;
    const ParetoPoint &q = points_[static_cast<size_t>(after - first_keys_.begin() - 1)];
    return !dominates(q.key, q.candidate, q.tiling, key, candidate, tiling);
  }
  /// Adds the point unless a point of the front dominates it; drops the points it dominates.
  bool insert(const ParetoPoint &p);
  void merge(const ParetoFront &other);
  /// Points sorted by their objective key, then ids.
  const std::vector<ParetoPoint> &points() const { return points_; }
  const std::vector<Objective> &objectives() const { return objectives_; }
  size_t size() const { return points_.size(); }

private:
  bool dominates(const Key &a, std::uint64_t a_candidate, std::uint64_t a_tiling, const Key &b,
                 std::uint64_t b_candidate, std::uint64_t b_tiling) const {
    bool equal = true;
    for (size_t i = 0; i < objectives_.size(); ++i) {
      if (a[i] > b[i])
        return false;
      equal = equal && a[i] == b[i];
    }
    // Equal objectives: the lower ids win, and a point equal to one already kept is a duplicate.
    return !equal || std::tie(a_candidate, a_tiling) <= std::tie(b_candidate, b_tiling);
  }
  bool admits_nd(const Key &key, std::uint64_t candidate, std::uint64_t tiling) const;
  bool dominates(const ParetoPoint &a, const ParetoPoint &b) const {
    return dominates(a.key, a.candidate, a.tiling, b.key, b.candidate, b.tiling);
  }
  bool insert_2d(const ParetoPoint &p);
  bool insert_nd(const ParetoPoint &p);

  std::vector<Objective> objectives_;
  std::array<double Objectives::*, kMaxObjectives> fields_{}; // of objectives_, in order
  std::vector<ParetoPoint> points_;
  std::vector<double> first_keys_; // with two objectives, key[0] of each point in order
};

} // namespace dse
