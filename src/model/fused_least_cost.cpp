// The least counts of a fused operator's nests below level 0 (docs/HIERARCHY.md §8.3), which
// the search bounds loop trees, tilings, and spatial rows with keep vectors by.
#include "dse/model/fused_least_cost.hpp"

#include <algorithm>
#include <array>

#include "dse/support/check.hpp"

namespace dse {

namespace {

/// The words of the tensor `access` that cross from its innermost keeper `keeper` to the compute
/// units: the MACs over the fan-outs between them that share a word (multicast ones for an input,
/// any for the output) over the dimensions the tensor does not use.
double words_to_compute(const Hierarchy &h, const OpMapping &shape, const ProblemOp &op,
                        const TensorAccess &access, bool output, size_t keeper, double macs) {
  double sharing = 1;
  for (size_t gap = keeper; gap < shape.fanouts.size(); ++gap)
    for (size_t f = 0; f < shape.fanouts[gap].size(); ++f)
      if (output || h.fanouts[gap][f].multicast)
        for (int d : op.dims)
          if (!access.uses(d))
            sharing *= static_cast<double>(shape.fanouts[gap][f].factor(d));
  return macs / sharing;
}

} // namespace

void fused_least_operator_cost(const Hardware &hw, const Problem &problem, const FusedTiles &tiles,
                               int o, const FusedLevel0Trips &trips, const OpMapping *shape,
                               FusedOperatorCost &c) {
  const Hierarchy &h = hw.hierarchy;
  const ProblemOp &op = problem.ops[static_cast<size_t>(o)];
  c.levels.resize(h.levels.size());
  for (HierLevelCost &level : c.levels)
    reset_level_cost(level, 0);
  c.macs = trips.productions;
  for (int d : op.dims)
    c.macs *= static_cast<double>(tiles.extent[static_cast<size_t>(d)] *
                                  tiles.trips[static_cast<size_t>(d)]);
  c.utilised_units = static_cast<double>(h.compute_units());
  const OperatorTensors tensors = operator_tensors(problem.op(o));
  const size_t output = tensors.size() - 1;
  std::array<double, 3> tile_arrivals{};
  c.levels[1].tensors.assign(tensors.size(), HierTensorCounts{});
  for (size_t t = 0; t < tensors.size(); ++t) {
    tile_arrivals[t] = trips.to_last_indexing[t] * tensors[t]->words(tiles.extent);
    HierTensorCounts &counts = *c.levels[1].tensors[t];
    (t == output ? counts.updates : counts.reads) = tile_arrivals[t];
  }
  if (shape == nullptr)
    return;
  DSE_CHECK(h.levels.size() <= kMaxStorageLevels,
            std::to_string(h.levels.size()) + " storage levels in a hierarchy");
  // Per level (the compute units last), its instances, and the copies of each tensor.
  std::array<double, kMaxStorageLevels + 1> instances{};
  std::array<std::array<double, 3>, kMaxStorageLevels> copies{};
  instances[0] = 1;
  copies[0] = {1, 1, 1};
  for (size_t l = 1; l <= h.levels.size(); ++l) {
    instances[l] = instances[l - 1];
    if (l < h.levels.size())
      copies[l] = copies[l - 1];
    for (const FanoutMapping &f : shape->fanouts[l - 1])
      for (int d : op.dims) {
        instances[l] *= static_cast<double>(f.factor(d));
        for (size_t t = 0; l < h.levels.size() && t < tensors.size(); ++t)
          if (!tensors[t]->uses(d))
            copies[l][t] *= static_cast<double>(f.factor(d));
      }
  }
  c.utilised_units = instances[h.levels.size()];
  std::array<double, kMaxStorageLevels> reads{}, fills{}, updates{};
  for (size_t t = 0; t < tensors.size(); ++t) {
    size_t keeper = 1;
    for (size_t l = 2; l < h.levels.size(); ++l)
      if ((shape->levels[l].keep >> t & 1U) != 0) {
        keeper = l;
        if (t != output)
          fills[l] += tile_arrivals[t] * copies[l][t];
      }
    const double towards =
        words_to_compute(h, *shape, op, *tensors[t], t == output, keeper, c.macs);
    HierTensorCounts &level1 = *c.levels[1].tensors[t];
    double &at_level1 = t == output ? level1.updates : level1.reads;
    if (keeper == 1)
      at_level1 = std::max(at_level1, towards);
    else
      (t == output ? updates : reads)[keeper] += towards;
  }
  for (size_t l = 2; l < h.levels.size(); ++l) {
    const StorageLevel &storage = h.levels[l];
    c.levels[l].energy_pj =
        reads[l] * storage.read_pj + fills[l] * storage.fill_pj + updates[l] * storage.update_pj;
    c.levels[l].transfer_cycles =
        port_cycles(storage, reads[l] / instances[l], (fills[l] + updates[l]) / instances[l]);
  }
}

FusedOperatorCost fused_least_operator_cost(const Hardware &hw, const Problem &problem,
                                            const FusedTiles &tiles, int o,
                                            const FusedLevel0Trips &trips, const OpMapping *shape) {
  FusedOperatorCost c;
  fused_least_operator_cost(hw, problem, tiles, o, trips, shape, c);
  return c;
}

} // namespace dse
