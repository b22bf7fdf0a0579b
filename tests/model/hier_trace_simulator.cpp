// The literal walk behind hier_trace_simulator.hpp: the nest as a list of loops with coordinate
// strides, instances as mixed-radix numbers over the spatial loops above a level, and passes
// over every temporal step below a root level that drain, fill and compute.
#include "model/hier_trace_simulator.hpp"

#include <algorithm>

#include "dse/support/check.hpp"

namespace dse::hier_trace {

namespace {

using Coords = std::vector<std::int64_t>;

/// One loop of the nest: a temporal loop of a level's block or a spatial loop of a fan-out axis.
struct Loop {
  int dim = 0;
  std::int64_t trip = 1;
  std::int64_t stride = 1; // step of the dimension's coordinate per iteration
  bool multicast = true;   // spatial loops: the capabilities of their fan-out
  bool reduction = true;
};

/// The whole nest, outermost first, and where each level sits in it. Levels run 0..L+1, L+1
/// standing for the compute units.
struct Nest {
  std::vector<Loop> temporal;
  std::vector<Loop> spatial;
  std::vector<size_t> temporal_above; // per level: temporal loops above its block
  std::vector<size_t> spatial_above;  // per level: spatial loops above it
  std::vector<Coords> extent;         // per level and dimension: what its tile spans

  int compute_level() const { return static_cast<int>(temporal_above.size()) - 1; }
};

std::int64_t entry(const std::vector<std::int64_t> &factors, int dim) {
  const auto at = static_cast<size_t>(dim);
  return at < factors.size() ? factors[at] : 1;
}

/// The temporal loops of one level's block, outer to inner (a factor of 1 is no loop).
std::vector<Loop> block_loops(const LevelMapping &level) {
  std::vector<Loop> loops;
  for (int dim : level.order)
    if (entry(level.factor, dim) > 1)
      loops.push_back({dim, entry(level.factor, dim)});
  const auto present =
      std::count_if(level.factor.begin(), level.factor.end(), [](std::int64_t f) { return f > 1; });
  DSE_CHECK(static_cast<std::size_t>(present) == loops.size(),
            "a level's order must list each dimension of factor above 1 once");
  return loops;
}

/// The spatial loops of the fan-outs of one gap: per fan-out its x axis, then its y axis.
std::vector<Loop> gap_loops(const std::vector<Fanout> &fanouts,
                            const std::vector<FanoutMapping> &mappings, size_t dims) {
  std::vector<Loop> loops;
  for (size_t f = 0; f < fanouts.size(); ++f)
    for (const auto *axis : {&mappings[f].x, &mappings[f].y})
      for (size_t d = 0; d < dims; ++d)
        if (const std::int64_t trip = entry(*axis, static_cast<int>(d)); trip > 1)
          loops.push_back(
              {static_cast<int>(d), trip, 1, fanouts[f].multicast, fanouts[f].reduction});
  return loops;
}

/// Gives every loop its stride (the product of the trips of its dimension inside it) and records
/// the tile extents of the levels.
Nest build_nest(const Hierarchy &hierarchy, const OpMapping &mapping, size_t dims) {
  const size_t levels = hierarchy.levels.size();
  std::vector<std::vector<Loop>> blocks, gaps;
  for (size_t l = 0; l < levels; ++l) {
    blocks.push_back(block_loops(mapping.levels[l]));
    gaps.push_back(gap_loops(hierarchy.fanouts[l], mapping.fanouts[l], dims));
  }
  Nest nest;
  nest.extent.assign(levels + 1, Coords(dims, 1));
  Coords span(dims, 1);
  const auto give_strides = [&span](std::vector<Loop> &loops) {
    for (auto loop = loops.rbegin(); loop != loops.rend(); ++loop) {
      loop->stride = span[static_cast<size_t>(loop->dim)];
      span[static_cast<size_t>(loop->dim)] *= loop->trip;
    }
  };
  for (size_t l = levels; l-- > 0;) {
    give_strides(gaps[l]);
    give_strides(blocks[l]);
    nest.extent[l] = span;
  }
  for (size_t l = 0; l < levels; ++l) {
    nest.temporal_above.push_back(nest.temporal.size());
    nest.spatial_above.push_back(nest.spatial.size());
    nest.temporal.insert(nest.temporal.end(), blocks[l].begin(), blocks[l].end());
    nest.spatial.insert(nest.spatial.end(), gaps[l].begin(), gaps[l].end());
  }
  nest.temporal_above.push_back(nest.temporal.size());
  nest.spatial_above.push_back(nest.spatial.size());
  return nest;
}

std::int64_t trip_product(const std::vector<Loop> &loops, size_t first, size_t last) {
  std::int64_t product = 1;
  for (size_t k = first; k < last; ++k)
    product *= loops[k].trip;
  return product;
}

/// The loop indices of spatial loops [0, count) of mixed-radix instance number `instance`.
std::vector<std::int64_t> instance_digits(const std::vector<Loop> &spatial, size_t count,
                                          std::int64_t instance) {
  std::vector<std::int64_t> digits(count);
  for (size_t k = count; k-- > 0;) {
    digits[k] = instance % spatial[k].trip;
    instance /= spatial[k].trip;
  }
  return digits;
}

std::int64_t index_value(const IndexExpr &index, const Coords &coords) {
  std::int64_t value = 0;
  for (const IndexTerm &term : index.terms)
    value += term.coef * coords[static_cast<size_t>(term.dim)];
  return value;
}

/// A tensor's coordinate space: per index position the values 0..size-1 its accesses reach over
/// the padded iteration space, numbered row-major.
struct TensorSpace {
  const TensorAccess *access = nullptr;
  Coords size;
  std::int64_t words = 1;

  /// Per index position, how many values a tile spanning `extent` per dimension covers: the
  /// largest index value less the least, plus one.
  Coords box_extent(const Coords &extent) const {
    Coords last(extent.size());
    std::transform(extent.begin(), extent.end(), last.begin(),
                   [](std::int64_t e) { return e - 1; });
    Coords box;
    for (const IndexExpr &index : access->indices)
      box.push_back(index_value(index, last) + 1);
    return box;
  }
  /// The least index values of the tile whose first iteration is at `base`.
  Coords box_origin(const Coords &base) const {
    Coords origin;
    for (const IndexExpr &index : access->indices)
      origin.push_back(index_value(index, base));
    return origin;
  }
  std::int64_t element(const Coords &position) const {
    std::int64_t key = 0;
    for (size_t i = 0; i < size.size(); ++i)
      key = key * size[i] + position[i];
    return key;
  }
  /// Every element of the box [origin, origin + extent).
  std::vector<std::int64_t> elements(const Coords &origin, const Coords &extent) const {
    std::vector<std::int64_t> keys;
    Coords position = origin;
    while (true) {
      keys.push_back(element(position));
      size_t i = position.size(); // odometer, last position fastest
      while (i > 0 && ++position[i - 1] == origin[i - 1] + extent[i - 1]) {
        position[i - 1] = origin[i - 1];
        --i;
      }
      if (i == 0)
        return keys;
    }
  }
};

std::int64_t distinct(std::vector<std::int64_t> &keys) {
  std::sort(keys.begin(), keys.end());
  return std::unique(keys.begin(), keys.end()) - keys.begin();
}

} // namespace

namespace detail {

/// The walk over every temporal step of one mapping below its root level.
class Walk {
public:
  Walk(const Hierarchy &hierarchy, const Operator &op, const OpMapping &mapping, int root,
       bool elision, size_t dims);
  void walk(const Coords &origin);
  void empty();
  void restart_output();
  const TraceCounts &counts() const { return counts_; }
  const Coords &tile_extent(int level) const { return nest_.extent.at(static_cast<size_t>(level)); }

private:
  bool keeps(int level, size_t tensor) const;
  int parent_keeper(int level, size_t tensor) const;
  bool is_output(size_t tensor) const { return tensor + 1 == tensors_.size(); }
  std::int64_t instances(int level) const;
  std::int64_t group_of(int child, std::int64_t instance, int parent, bool by_reduction) const;
  std::vector<std::optional<TensorCounts>> level_counts(int level) const;
  void place_instances(int level);
  Coords spatial_origin(int level, std::int64_t instance) const;
  Coords iteration_base(int level, std::int64_t instance) const;
  TensorCounts &counts(int level, size_t tensor);
  bool elided(int level, std::int64_t instance, std::int64_t element);
  void set_temporal_bases(const Coords &origin, const std::vector<std::int64_t> &indices);
  void drain(int level, bool every_tile);
  void fill(int level, size_t tensor);
  void compute();

  const Nest nest_;
  const int root_; // levels above it are not walked; it keeps everything and has one instance
  const size_t first_loop_; // the first temporal loop walked: the root's block's outermost
  const bool elision_;
  std::vector<std::uint32_t> keep_; // per level 0..L
  std::vector<TensorSpace> tensors_;
  std::vector<std::vector<Coords>> spatial_base_; // [level][instance]: per dimension
  std::vector<Coords> temporal_base_;             // [level]: per dimension, at this step
  /// [level][tensor][instance]: origin of the resident tile's box, for keepers root+1..L.
  std::vector<std::vector<std::vector<std::optional<Coords>>>> resident_;
  /// [level][tensor][instance]: the group the instance's words of the tensor travel in from
  /// the tensor's next keeper outside (instances of one group share one word).
  std::vector<std::vector<std::vector<std::int64_t>>> group_;
  /// [level][instance]: output elements that have arrived there (levels root+1..L+1).
  std::vector<std::vector<std::vector<bool>>> arrived_;
  TraceCounts counts_;
};

Walk::Walk(const Hierarchy &hierarchy, const Operator &op, const OpMapping &mapping, int root,
           bool elision, size_t dims)
    : nest_(build_nest(hierarchy, mapping, dims)), root_(root),
      first_loop_(nest_.temporal_above.at(static_cast<size_t>(root))),
      // An output that starts from a residual reads the residual's word at its first arrival.
      elision_(elision && op.einsum.residual.empty()) {
  DSE_CHECK(root < nest_.compute_level() && instances(root) == 1,
            "the root of a walk is a storage level with one instance");
  for (const LevelMapping &level : mapping.levels)
    keep_.push_back(level.keep);
  for (const TensorAccess *access : operator_tensors(op)) {
    TensorSpace space{access, {}, 1};
    space.size = space.box_extent(nest_.extent[0]);
    for (std::int64_t size : space.size)
      space.words *= size;
    tensors_.push_back(space);
  }
  const auto levels = static_cast<size_t>(nest_.compute_level()) + 1;
  spatial_base_.resize(levels);
  group_.assign(levels, std::vector<std::vector<std::int64_t>>(tensors_.size()));
  resident_.assign(levels, std::vector<std::vector<std::optional<Coords>>>(tensors_.size()));
  arrived_.resize(levels);
  for (int level = 0; level < nest_.compute_level(); ++level)
    counts_.levels.push_back(level_counts(level));
  for (int level = root; level <= nest_.compute_level(); ++level)
    place_instances(level);
}

std::vector<std::optional<TensorCounts>> Walk::level_counts(int level) const {
  std::vector<std::optional<TensorCounts>> counts(tensors_.size());
  for (size_t t = 0; t < tensors_.size(); ++t)
    if (level >= root_ && keeps(level, t))
      counts[t] = TensorCounts{};
  return counts;
}

/// Where the instances of `level` start, which groups their words travel in, and room for the
/// tiles they hold and the output elements that reach them.
void Walk::place_instances(int level) {
  const auto at = static_cast<size_t>(level);
  const auto count = static_cast<size_t>(instances(level));
  for (size_t i = 0; i < count; ++i)
    spatial_base_[at].push_back(spatial_origin(level, static_cast<std::int64_t>(i)));
  if (level == root_)
    return;
  for (size_t t = 0; t < tensors_.size(); ++t) {
    if (!keeps(level, t))
      continue;
    if (level < nest_.compute_level())
      resident_[at][t].resize(count);
    for (size_t i = 0; i < count; ++i)
      group_[at][t].push_back(
          group_of(level, static_cast<std::int64_t>(i), parent_keeper(level, t), is_output(t)));
  }
  if (keeps(level, tensors_.size() - 1))
    arrived_[at].assign(count, std::vector<bool>(static_cast<size_t>(tensors_.back().words)));
}

bool Walk::keeps(int level, size_t tensor) const {
  if (level == root_ || level == nest_.compute_level())
    return true; // the root keeps everything; the compute units take every operand
  return (keep_[static_cast<size_t>(level)] >> tensor & 1u) != 0;
}

int Walk::parent_keeper(int level, size_t tensor) const {
  int parent = level - 1;
  while (!keeps(parent, tensor))
    --parent;
  return parent;
}

std::int64_t Walk::instances(int level) const {
  return trip_product(nest_.spatial, 0, nest_.spatial_above[static_cast<size_t>(level)]);
}

/// The instance of `parent` above `instance` of `child`, extended by the child's indices at the
/// fan-outs between them that cannot merge words: without multicast (inputs) or without
/// reduction (the output).
std::int64_t Walk::group_of(int child, std::int64_t instance, int parent, bool by_reduction) const {
  const size_t first = nest_.spatial_above[static_cast<size_t>(parent)];
  const size_t last = nest_.spatial_above[static_cast<size_t>(child)];
  const std::vector<std::int64_t> digits = instance_digits(nest_.spatial, last, instance);
  std::int64_t group = instance / trip_product(nest_.spatial, first, last);
  for (size_t k = first; k < last; ++k) {
    const Loop &loop = nest_.spatial[k];
    if (!(by_reduction ? loop.reduction : loop.multicast))
      group = group * loop.trip + digits[k];
  }
  return group;
}

/// Per dimension, the coordinate where the tiles of `instance` of `level` start at loop indices
/// zero above it: the spatial part of the tile origin.
Coords Walk::spatial_origin(int level, std::int64_t instance) const {
  const size_t count = nest_.spatial_above[static_cast<size_t>(level)];
  const std::vector<std::int64_t> digits = instance_digits(nest_.spatial, count, instance);
  Coords base(nest_.extent[0].size(), 0);
  for (size_t k = 0; k < count; ++k)
    base[static_cast<size_t>(nest_.spatial[k].dim)] += digits[k] * nest_.spatial[k].stride;
  return base;
}

/// Per dimension, the first iteration inside `instance` of `level` at this step: where its tiles
/// start.
Coords Walk::iteration_base(int level, std::int64_t instance) const {
  const auto at = static_cast<size_t>(level);
  Coords base = temporal_base_[at];
  for (size_t d = 0; d < base.size(); ++d)
    base[d] += spatial_base_[at][static_cast<size_t>(instance)][d];
  return base;
}

TensorCounts &Walk::counts(int level, size_t tensor) {
  return *counts_.levels[static_cast<size_t>(level)][tensor];
}

/// Records the arrival of an output element in an instance; true when it is the first one and
/// first-read elision removes its transfer.
bool Walk::elided(int level, std::int64_t instance, std::int64_t element) {
  std::vector<bool>::reference arrived =
      arrived_[static_cast<size_t>(level)][static_cast<size_t>(instance)]
              [static_cast<size_t>(element)];
  const bool first = !arrived;
  arrived = true;
  return first && elision_;
}

/// Per level, where its tiles start at this step (`indices` of the loops walked) but for the
/// spatial part; the root's tile starts at `origin`.
void Walk::set_temporal_bases(const Coords &origin, const std::vector<std::int64_t> &indices) {
  temporal_base_.assign(nest_.temporal_above.size(), origin);
  for (size_t level = 0; level < nest_.temporal_above.size(); ++level)
    for (size_t k = first_loop_; k < nest_.temporal_above[level]; ++k)
      temporal_base_[level][static_cast<size_t>(nest_.temporal[k].dim)] +=
          indices[k - first_loop_] * nest_.temporal[k].stride;
}

/// The output tiles of `level` that leave it (those that change at this step, or all of them at
/// the end) go to the next keeper outside as updates, one per reduction group and element.
void Walk::drain(int level, bool every_tile) {
  const size_t out = tensors_.size() - 1;
  if (!keeps(level, out))
    return;
  const auto at = static_cast<size_t>(level);
  const TensorSpace &space = tensors_[out];
  const Coords extent = space.box_extent(nest_.extent[at]);
  std::vector<std::int64_t> keys;
  for (std::int64_t i = 0; i < instances(level); ++i) {
    const std::optional<Coords> &tile = resident_[at][out][static_cast<size_t>(i)];
    if (!tile || (!every_tile && *tile == space.box_origin(iteration_base(level, i))))
      continue;
    const std::int64_t group = group_[at][out][static_cast<size_t>(i)];
    for (std::int64_t element : space.elements(*tile, extent))
      keys.push_back(group * space.words + element);
  }
  counts(parent_keeper(level, out), out).updates += distinct(keys);
}

/// The tiles of `tensor` at `level` that change at this step are fetched whole from the next
/// keeper outside, which reads each word once per group that needs it.
void Walk::fill(int level, size_t tensor) {
  const auto at = static_cast<size_t>(level);
  const TensorSpace &space = tensors_[tensor];
  const Coords extent = space.box_extent(nest_.extent[at]);
  std::vector<std::int64_t> keys;
  for (std::int64_t i = 0; i < instances(level); ++i) {
    std::optional<Coords> &tile = resident_[at][tensor][static_cast<size_t>(i)];
    const Coords origin = space.box_origin(iteration_base(level, i));
    if (tile == origin)
      continue;
    tile = origin;
    const std::int64_t group = group_[at][tensor][static_cast<size_t>(i)];
    for (std::int64_t element : space.elements(origin, extent)) {
      if (is_output(tensor) && elided(level, i, element))
        continue;
      ++counts(level, tensor).fills;
      keys.push_back(group * space.words + element);
    }
  }
  counts(parent_keeper(level, tensor), tensor).reads += distinct(keys);
}

/// Every compute unit does one MAC: its operands and its partial sum are read from the tensors'
/// innermost keepers and its result goes back there as an update.
void Walk::compute() {
  const int level = nest_.compute_level();
  const auto at = static_cast<size_t>(level);
  const std::int64_t units = instances(level);
  for (size_t t = 0; t < tensors_.size(); ++t) {
    const TensorSpace &space = tensors_[t];
    const int keeper = parent_keeper(level, t);
    std::vector<std::int64_t> reads, updates;
    for (std::int64_t u = 0; u < units; ++u) {
      const std::int64_t element = space.element(space.box_origin(iteration_base(level, u)));
      const std::int64_t key = group_[at][t][static_cast<size_t>(u)] * space.words + element;
      if (is_output(t))
        updates.push_back(key);
      if (!is_output(t) || !elided(level, u, element))
        reads.push_back(key);
    }
    counts(keeper, t).reads += distinct(reads);
    counts(keeper, t).updates += distinct(updates);
  }
  counts_.macs += units;
}

void Walk::walk(const Coords &origin) {
  const int compute_level = nest_.compute_level();
  std::vector<std::int64_t> indices(nest_.temporal.size() - first_loop_, 0);
  while (true) {
    set_temporal_bases(origin, indices);
    for (int level = compute_level - 1; level > root_; --level)
      drain(level, false);
    for (int level = root_ + 1; level < compute_level; ++level)
      for (size_t t = 0; t < tensors_.size(); ++t)
        if (keeps(level, t))
          fill(level, t);
    compute();
    size_t k = indices.size(); // next temporal step: odometer, innermost loop fastest
    while (k > 0 && ++indices[k - 1] == nest_.temporal[first_loop_ + k - 1].trip) {
      indices[k - 1] = 0;
      --k;
    }
    if (k == 0)
      return;
  }
}

void Walk::empty() {
  for (int level = nest_.compute_level() - 1; level > root_; --level)
    drain(level, true);
  for (std::vector<std::vector<std::optional<Coords>>> &level : resident_)
    for (std::vector<std::optional<Coords>> &tiles : level)
      std::fill(tiles.begin(), tiles.end(), std::nullopt);
}

void Walk::restart_output() {
  for (std::vector<std::vector<bool>> &level : arrived_)
    for (std::vector<bool> &elements : level)
      std::fill(elements.begin(), elements.end(), false);
}

} // namespace detail

NestWalk::NestWalk(const Hardware &hw, const Workload &workload, const Operator &op,
                   const OpMapping &mapping, int root, bool first_read_elision)
    : walk_(std::make_unique<detail::Walk>(hw.hierarchy, op, mapping, root, first_read_elision,
                                           workload.dims.size())) {}

NestWalk::NestWalk(NestWalk &&) noexcept = default;
NestWalk &NestWalk::operator=(NestWalk &&) noexcept = default;
NestWalk::~NestWalk() = default;

void NestWalk::walk(const std::vector<std::int64_t> &origin) { walk_->walk(origin); }
void NestWalk::empty() { walk_->empty(); }
void NestWalk::restart_output() { walk_->restart_output(); }
const TraceCounts &NestWalk::counts() const { return walk_->counts(); }
const std::vector<std::int64_t> &NestWalk::tile_extent(int level) const {
  return walk_->tile_extent(level);
}

TraceCounts simulate(const Hardware &hw, const Workload &workload, const Operator &op,
                     const OpMapping &mapping, bool first_read_elision) {
  detail::Walk walk(hw.hierarchy, op, mapping, 0, first_read_elision, workload.dims.size());
  walk.walk(Coords(workload.dims.size(), 0));
  walk.empty();
  return walk.counts();
}

} // namespace dse::hier_trace
