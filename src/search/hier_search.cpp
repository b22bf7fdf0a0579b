// The exact hierarchical search: spatial rows x keep vectors x tilings (innermost level first,
// dimension by dimension, capacity-filtered, maximal when pruning) x loop orders, into one Pareto
// front, within the hardware's mapspace constraints (a fixed factor is the only choice at its
// level, and a move that would change it is no move for maximality). Each (spatial row, keep
// vector) is one task with its own front; a task is skipped whole when its least deliveries are
// rejected, and inside it every partly chosen tiling is bounded the same way (docs/HIERARCHY.md
// §7.3). Tasks run in fixed batches on TBB, each batch reading the front of the batches before
// it, so the work done and the front are the same for any thread count.
#include "dse/search/hier_search.hpp"

#include <algorithm>
#include <map>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include "dse/ir/limits.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/search/hier_space.hpp"
#include "dse/support/check.hpp"
#include "dse/support/thread_arena.hpp"
#include "hier_task_search.hpp"

namespace dse {

HierSearchSpace::HierSearchSpace(const Hardware &hw_in, const Workload &w_in, const Operator &op_in,
                                 const HierSearchOptions &o)
    : hw(hw_in), h(hw_in.hierarchy), w(w_in), op(op_in), options(o), dims(op_in.dims()),
      tensors(operator_tensors(op_in)), rules(bind_mapspace(h, w, op)),
      rows(spatial_rows(h, w, op)), keeps(keep_vectors(h, w, op)),
      buffer_objective(std::count(o.objectives.begin(), o.objectives.end(), Objective::Buffer) >
                       0) {
  DSE_CHECK(w.dims.size() <= kMaxWorkloadDimensions,
            "more workload dimensions than a relevance mask holds");
  if (o.level1_keeps_all && h.levels.size() > 1) {
    const std::uint32_t all = (1U << tensors.size()) - 1;
    std::erase_if(keeps, [all](const std::vector<std::uint32_t> &k) { return k[1] != all; });
  }
  // Tilings are chosen dimension by dimension: the reduction dimensions first, then the larger
  // ones, so that the bounds of partly chosen levels (§7.3) cut the widest subtrees early.
  std::stable_sort(dims.begin(), dims.end(), [&](int a, int b) {
    const bool reduces_a = !op.einsum.output.uses(a), reduces_b = !op.einsum.output.uses(b);
    if (reduces_a != reduces_b)
      return reduces_a;
    return w.dim_size(a) > w.dim_size(b);
  });
  for (const TensorAccess *t : tensors) {
    relevant.push_back(0);
    relevant_index.push_back(0);
    for (size_t i = 0; i < dims.size(); ++i)
      if (t->uses(dims[i])) {
        relevant.back() |= std::uint64_t{1} << dims[i];
        relevant_index.back() |= std::uint64_t{1} << i;
      }
  }
  orders.assign(h.levels.size(),
                std::vector<std::vector<std::vector<int>>>(size_t{1} << dims.size()));
  for (size_t mask = 0; mask < orders[0].size(); ++mask) {
    std::vector<int> present;
    for (size_t i = 0; i < dims.size(); ++i)
      if ((mask >> i & 1U) != 0)
        present.push_back(dims[i]);
    for (size_t l = 0; l < h.levels.size(); ++l)
      orders[l][mask] = level_orders(op, present, o.prune, rules.levels[l]);
  }
  for (int d : dims)
    for (std::int64_t v : divisors(w.dim_size(d)))
      divisors_of.emplace(v, divisors(v));
  if (const size_t bits = h.levels.size() * dims.size(); bits <= kDirectSupportBits)
    direct_rows_ = std::make_unique<std::atomic<const HierRowBlock *>[]>(size_t{1} << bits);
  build_dram_floors();
}

void HierSearchSpace::build_dram_floors() {
  const bool dram_objective =
      std::count(options.objectives.begin(), options.objectives.end(), Objective::Dram) > 0;
  if (!dram_objective || !options.prune || !options.dram_floor || h.levels.size() < 2 ||
      h.instances(1) != 1)
    return;
  std::vector<std::int64_t> whole(w.dims.size(), 1);
  for (int d : dims)
    whole[static_cast<size_t>(d)] = w.dim_size(d);
  const double first_arrivals = elides_first_read(op, options.first_read_elision)
                                    ? tensors[tensors.size() - 1]->words(whole)
                                    : 0;
  for (const std::vector<std::uint32_t> &keep : keeps)
    if (keep[1] != 0 && !dram_floors_[keep[1]])
      dram_floors_[keep[1]] = std::make_unique<const HierDramFloor>(
          hw, w, op, dims, keep[1], first_arrivals, kMaxDramFloorPoints);
}

double HierSearchSpace::dram_floor(size_t keep, const std::vector<std::int64_t> &extent) const {
  if (h.levels.size() < 2)
    return 0;
  const std::unique_ptr<const HierDramFloor> &floor = dram_floors_[keeps[keep][1]];
  return floor ? floor->at_least(extent) : 0;
}

std::vector<std::int64_t> HierSearchSpace::spatial_extent(size_t row) const {
  std::vector<std::int64_t> extent(w.dims.size(), 1);
  for (const std::vector<FanoutMapping> &gap : rows[row])
    for (const FanoutMapping &f : gap)
      for (int d : dims)
        extent[static_cast<size_t>(d)] *= f.factor(d);
  return extent;
}

const HierRowBlock &HierSearchSpace::rows_of(const std::vector<std::uint64_t> &present) const {
  size_t direct = 0;
  if (direct_rows_) {
    for (std::uint64_t mask : present)
      direct = direct << dims.size() | mask;
    if (const HierRowBlock *found = direct_rows_[direct].load(std::memory_order_acquire))
      return *found;
  }
  {
    const std::lock_guard lock(rows_mutex_);
    if (const auto found = rows_.find(present); found != rows_.end())
      return *found->second;
  }
  // Built outside the lock (a block is a function of its support: a block another thread built
  // meanwhile is the same, and the first one stored is kept).
  std::vector<std::span<const std::vector<int>>> level_orders;
  for (size_t l = 0; l < present.size(); ++l) {
    std::span<const std::vector<int>> all = orders[l][present[l]];
    level_orders.push_back(options.prune && l + 1 == present.size()
                               ? all.first(std::min<size_t>(1, all.size()))
                               : all);
  }
  auto built = std::make_unique<const HierRowBlock>(op, dims, present, level_orders);
  const std::lock_guard lock(rows_mutex_);
  const HierRowBlock &block = *rows_.try_emplace(present, std::move(built)).first->second;
  if (direct_rows_)
    direct_rows_[direct].store(&block, std::memory_order_release);
  return block;
}

namespace {

/// Tasks per batch: a batch reads the front of the batches before it. Fixed, so that what is
/// skipped does not depend on the thread count.
constexpr size_t kTasksPerBatch = 16;

void add_statistics(HierSearchStatistics &total, const HierSearchStatistics &task) {
  total.tilings += task.tilings;
  total.tilings_kept += task.tilings_kept;
  total.mappings += task.mappings;
}

/// Drops the mappings of points that have left the front.
void forget_dropped_points(std::map<std::pair<std::uint64_t, std::uint64_t>, HierFoundPoint> &found,
                           const ParetoFront &front) {
  std::map<std::pair<std::uint64_t, std::uint64_t>, HierFoundPoint> kept;
  for (const ParetoPoint &p : front.points())
    kept.insert(found.extract({p.candidate, p.tiling}));
  found = std::move(kept);
}

} // namespace

Objectives hier_objectives(const Hardware &hw, const HierCost &cost) {
  Objectives o;
  o.latency_s = cost.latency_cycles / (hw.clock_ghz * 1e9);
  o.energy_pj = cost.energy_pj;
  o.edp = o.latency_s * o.energy_pj;
  for (const std::optional<HierTensorCounts> &t : cost.levels[0].tensors)
    if (t)
      o.dram_words += t->reads + t->updates;
  if (cost.levels.size() > 1)
    o.buffer_words = cost.levels[1].buffer_words;
  return o;
}

HierSearchResult search_hier_front(const Hardware &hw, const Workload &workload, const Operator &op,
                                   const HierSearchOptions &options) {
  const HierSearchSpace space(hw, workload, op, options);
  HierSearchResult result;
  result.statistics.spatial_rows = space.rows.size();
  result.statistics.keep_vectors = space.keeps.size();
  std::vector<std::pair<size_t, size_t>> tasks; // (row, keep) in visit order
  for (size_t row : rows_by_utilisation(space.rows, space.dims))
    for (size_t keep = 0; keep < space.keeps.size(); ++keep)
      tasks.emplace_back(row, keep);
  ParetoFront front(options.objectives);
  std::map<std::pair<std::uint64_t, std::uint64_t>, HierFoundPoint> found;
  tbb::task_arena arena = thread_arena(options.threads);
  std::optional<HierDeliveryCost> row_costs;
  size_t next = 0;
  while (next < tasks.size()) {
    // The next tasks whose least deliveries the front does not reject: every mapping of a task
    // delivers at least |t| * rho(l,t) words into each keeper, and its objectives grow with every
    // delivery, so a rejected bound rejects the task (its ids are at least (candidate, 0)).
    std::vector<std::pair<size_t, HierDeliveryCost>> batch;
    for (; next < tasks.size() && batch.size() < kTasksPerBatch; ++next) {
      const auto [row, keep] = tasks[next];
      if (!row_costs || tasks[next - 1].first != row)
        row_costs.emplace(hw, workload, op, space.rows[row], options.first_read_elision,
                          options.latency_model);
      row_costs->set_keeps(space.keeps[keep]);
      const std::uint64_t candidate = row * space.keeps.size() + keep;
      const double floor = space.dram_floor(keep, space.spatial_extent(row));
      if (options.prune &&
          !front.admits(front.key_of(row_costs->least_objectives(floor)), candidate, 0))
        continue;
      batch.emplace_back(next, *row_costs);
    }
    std::vector<std::optional<HierTaskResult>> results(batch.size());
    arena.execute([&] {
      // One task per chunk: task sizes differ by orders of magnitude, so each is left to steal.
      tbb::parallel_for(
          tbb::blocked_range<size_t>(0, batch.size(), 1),
          [&](const tbb::blocked_range<size_t> &range) {
            for (size_t i = range.begin(); i != range.end(); ++i) {
              const auto [row, keep] = tasks[batch[i].first];
              results[i] = search_hier_task(space, front, row, keep, batch[i].second);
            }
          },
          tbb::simple_partitioner());
    });
    for (std::optional<HierTaskResult> &r : results) {
      add_statistics(result.statistics, r->stats);
      for (const ParetoPoint &p : r->front.points())
        if (front.insert(p))
          found.insert_or_assign({p.candidate, p.tiling}, std::move(r->found.at(p.tiling)));
    }
    forget_dropped_points(found, front);
  }
  for (const ParetoPoint &p : front.points()) {
    HierFoundPoint &f = found.at({p.candidate, p.tiling});
    HierFrontPoint point;
    point.objectives = f.objectives;
    point.cost = evaluate_hier_mapping(hw, workload, op, f.mapping, options.first_read_elision,
                                       options.latency_model);
    point.mapping = std::move(f.mapping);
    result.front.push_back(std::move(point));
  }
  return result;
}

} // namespace dse
