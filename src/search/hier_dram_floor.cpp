// The DRAM floor of the tensors level 1 keeps: a table over the divisor lattice, each point the
// least over level 0's orders at those level-1 extents, then the least over its multiples.
#include "dse/search/hier_dram_floor.hpp"

#include <algorithm>
#include <limits>

#include "dse/search/hier_rows.hpp"
#include "dse/search/hier_space.hpp"

namespace dse {

namespace {

constexpr double kNoFit = std::numeric_limits<double>::infinity();

} // namespace

HierDramFloor::HierDramFloor(const Hardware &hw, const Workload &workload, const Operator &op,
                             const std::vector<int> &dims, std::uint32_t kept,
                             double output_first_arrivals, size_t max_points)
    : workload_(workload), op_(op), dims_(dims), kept_(kept),
      output_first_arrivals_(output_first_arrivals),
      capacity_(hw.hierarchy.levels.at(1).capacity_words
                    ? static_cast<double>(*hw.hierarchy.levels[1].capacity_words)
                    : kNoFit) {
  size_t points = 1;
  for (int d : dims_) {
    divisors_.push_back(divisors(workload.dim_size(d)));
    stride_.push_back(points);
    points *= divisors_.back().size();
    if (points > max_points)
      return;
  }
  table_.assign(points, kNoFit);
  build_table();
}

double HierDramFloor::least_over_orders(const std::vector<std::int64_t> &extent) const {
  const OperatorTensors tensors = operator_tensors(op_);
  std::array<double, kMaxHierTensors> cost{}; // words per trip of level 0 that refetches the tile
  double held = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if ((kept_ >> t & 1U) == 0)
      continue;
    const double tile = tensors[t]->words(extent);
    held += tile;
    cost[t] = t + 1 == tensors.size() ? 2 * tile : tile; // an output's updates and read-backs
  }
  if (held > capacity_)
    return kNoFit;
  // Level 0's loops and, per tensor, a bit per loop over one of its dimensions.
  std::vector<double> trips;
  std::array<std::uint32_t, kMaxHierTensors> indexed_by{};
  double all_trips = 1;
  for (int d : dims_) {
    const std::int64_t trip = workload_.dim_size(d) / extent[static_cast<size_t>(d)];
    if (trip == 1)
      continue;
    for (size_t t = 0; t < tensors.size(); ++t)
      if (tensors[t]->uses(d))
        indexed_by[t] |= 1U << trips.size();
    trips.push_back(static_cast<double>(trip));
    all_trips *= static_cast<double>(trip);
  }
  // Orders built from the innermost loop out: a tensor's tile is fetched once per trip of every
  // loop from the outermost down to its innermost indexing loop, that is all trips over those of
  // the loops placed inside it (the set S when its first indexing loop is placed).
  const size_t subsets = size_t{1} << trips.size();
  std::vector<double> best(subsets, kNoFit), inside(subsets, 1);
  best[0] = 0;
  for (size_t s = 0; s < subsets; ++s) {
    if (best[s] == kNoFit)
      continue;
    for (size_t i = 0; i < trips.size(); ++i) {
      if ((s >> i & 1U) != 0)
        continue;
      double fetched = 0;
      for (size_t t = 0; t < tensors.size(); ++t)
        if ((indexed_by[t] & s) == 0 && (indexed_by[t] >> i & 1U) != 0)
          fetched += cost[t] * all_trips / inside[s];
      const size_t next = s | size_t{1} << i;
      inside[next] = inside[s] * trips[i];
      best[next] = std::min(best[next], best[s] + fetched);
    }
  }
  double least = best[subsets - 1];
  for (size_t t = 0; t < tensors.size(); ++t)
    if (indexed_by[t] == 0)
      least += cost[t]; // no loop of level 0 indexes it: fetched once
  if ((kept_ >> (tensors.size() - 1) & 1U) != 0)
    least -= output_first_arrivals_;
  return least;
}

void HierDramFloor::build_table() {
  // From the largest extents down, so that every multiple of a point is settled before it.
  std::vector<std::int64_t> extent(workload_.dims.size(), 1);
  std::vector<size_t> index(dims_.size());
  for (size_t p = table_.size(); p-- > 0;) {
    for (size_t i = 0; i < dims_.size(); ++i) {
      index[i] = p / stride_[i] % divisors_[i].size();
      extent[static_cast<size_t>(dims_[i])] = divisors_[i][index[i]];
    }
    double least = least_over_orders(extent);
    for (size_t i = 0; i < dims_.size(); ++i)
      for (size_t j = index[i] + 1; j < divisors_[i].size(); ++j)
        if (divisors_[i][j] % divisors_[i][index[i]] == 0)
          least = std::min(least, table_[p + (j - index[i]) * stride_[i]]);
    table_[p] = least;
  }
}

double HierDramFloor::at_least(const std::vector<std::int64_t> &extent) const {
  if (table_.empty())
    return 0;
  size_t p = 0;
  for (size_t i = 0; i < dims_.size(); ++i) {
    const std::vector<std::int64_t> &d = divisors_[i];
    const auto at = std::lower_bound(d.begin(), d.end(), extent[static_cast<size_t>(dims_[i])]);
    if (at == d.end() || *at != extent[static_cast<size_t>(dims_[i])])
      return 0;
    p += static_cast<size_t>(at - d.begin()) * stride_[i];
  }
  // Exact while every count is an integer a double holds exactly, as the model's are: the
  // bound may then equal a front point's words and still reject what is no better.
  constexpr double kExactIntegers = 0x1p50;
  return table_[p] == kNoFit || table_[p] < kExactIntegers ? table_[p] : 0;
}

} // namespace dse
