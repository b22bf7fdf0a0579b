// One task of the hierarchical search (docs/HIERARCHY.md §7): the space every task reads, and
// the search of one (spatial row, keep vector) over its tilings (innermost level first, dimension
// by dimension, capacity-filtered, maximal and bounded when pruning) and loop orders, into the
// task's own front. src/search/hier_search.cpp runs the tasks and merges their fronts.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_dram_floor.hpp"
#include "dse/search/hier_rows.hpp"
#include "dse/search/hier_search.hpp"
#include "hier_delivery_cost.hpp"

namespace dse {

/// What every task reads: the problem, its mapspace constraints, the rows and keep vectors, per
/// level and set of present dimensions the loop orders to try, the divisors of every value a
/// dimension's remainder takes, and the symbolic rows of every support met.
struct HierSearchSpace {
  HierSearchSpace(const Hardware &hw, const Workload &w, const Operator &op,
                  const HierSearchOptions &o);

  /// The rows of the support whose loops are `present` (per level a bit per index of `dims`):
  /// every combination of the levels' orders (the innermost level's first only when pruning: no
  /// count reads it), built when first asked for and shared by every task.
  const HierRowBlock &rows_of(const std::vector<std::uint64_t> &present) const;

  const Hardware &hw;
  const Hierarchy &h;
  const Workload &w;
  const Operator &op;
  const HierSearchOptions &options;
  std::vector<int> dims;
  OperatorTensors tensors;
  std::vector<std::uint64_t> relevant;       // per tensor: a bit per workload dimension it uses
  std::vector<std::uint64_t> relevant_index; // the same, a bit per index of `dims`
  BoundMapspace rules;
  std::vector<std::vector<std::vector<FanoutMapping>>> rows; // spatial rows: per gap, fan-outs
  std::vector<std::vector<std::uint32_t>> keeps;
  /// [level][bit per index in dims] orders
  std::vector<std::vector<std::vector<std::vector<int>>>> orders;
  std::map<std::int64_t, std::vector<std::int64_t>> divisors_of;
  bool buffer_objective = false;
  /// The floor under the DRAM words of the tensors that keep vector `keep` keeps at level 1,
  /// over every tiling whose level-1 extents are multiples of `extent`: 0 unless DRAM words are
  /// an objective, the search prunes and level 1 has one instance.
  double dram_floor(size_t keep, const std::vector<std::int64_t> &extent) const;
  /// Per workload dimension, the product of spatial row `row`'s factors: what level 1's extent
  /// is a multiple of.
  std::vector<std::int64_t> spatial_extent(size_t row) const;

private:
  /// Lattice points of a floor table at most (a few MB and a fraction of a second to build).
  static constexpr size_t kMaxDramFloorPoints = size_t{1} << 18;
  void build_dram_floors();
  /// Per level-1 keep set, its floor table (built for the keep sets of `keeps`).
  std::array<std::unique_ptr<const HierDramFloor>, size_t{1} << kMaxHierTensors> dram_floors_;
  mutable std::mutex rows_mutex_;
  mutable std::map<std::vector<std::uint64_t>, std::unique_ptr<const HierRowBlock>> rows_;
  /// The same rows indexed by the masks side by side, read without the lock, when they take at
  /// most kDirectSupportBits bits (a support is met about once per tiling).
  static constexpr size_t kDirectSupportBits = 20;
  std::unique_ptr<std::atomic<const HierRowBlock *>[]> direct_rows_;
};

/// A front point found by a task, before its cost is evaluated in full.
struct HierFoundPoint {
  Objectives objectives;
  OpMapping mapping;
};

/// What one task hands back: its front, the mappings of its points, and its statistics.
struct HierTaskResult {
  explicit HierTaskResult(const std::vector<Objective> &objectives) : front(objectives) {}
  ParetoFront front;
  std::map<std::uint64_t, HierFoundPoint> found; // by tiling id
  HierSearchStatistics stats;
};

/// The search of task (`row`, `keep`) of `space`, whose deliveries cost `costs` (the row's, with
/// the keep vector set); `earlier` is the front of the batches before it.
HierTaskResult search_hier_task(const HierSearchSpace &space, const ParetoFront &earlier,
                                size_t row, size_t keep, HierDeliveryCost costs);

} // namespace dse
