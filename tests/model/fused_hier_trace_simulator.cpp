// The walk behind fused_hier_trace_simulator.hpp: the fused loop tree of level 0 entered loop by
// loop, level-1 tiles allocated and released at their retention depths, and per operator one
// single-operator walk rooted at level 1 that runs at every iteration of the operator's
// innermost level-0 loop.
#include "model/fused_hier_trace_simulator.hpp"

#include <algorithm>
#include <string>

#include "dse/support/check.hpp"

namespace dse::fused_hier_trace {

namespace {

using Coords = std::vector<std::int64_t>;

/// A box of a tensor's elements: per index position its least value and its extent.
struct Box {
  Coords lo;
  Coords extent;

  std::int64_t words() const {
    std::int64_t words = 1;
    for (std::int64_t e : extent)
      words *= e;
    return words;
  }
  bool contains(const Box &inner) const {
    for (size_t i = 0; i < lo.size(); ++i)
      if (inner.lo[i] < lo[i] || inner.lo[i] + inner.extent[i] > lo[i] + extent[i])
        return false;
    return true;
  }
};

/// The box an access spans over the iterations [lo[d], lo[d] + extent[d]) of each dimension.
Box access_box(const TensorAccess &access, const Coords &lo, const Coords &extent) {
  Box box;
  for (const IndexExpr &index : access.indices) {
    std::int64_t first = 0, last = 0;
    for (const IndexTerm &term : index.terms) {
      const auto d = static_cast<size_t>(term.dim);
      first += term.coef * lo[d];
      last += term.coef * (lo[d] + extent[d] - 1);
    }
    box.lo.push_back(first);
    box.extent.push_back(last - first + 1);
  }
  return box;
}

/// One run of the fused schedule.
class FusedWalk {
public:
  FusedWalk(const Hardware &hw, const Problem &problem, const FusedHierMapping &mapping,
            bool elision);
  TraceCounts run();

private:
  void take_extents(int op);
  void prefix_body(size_t k);
  void run_operators();
  void subnest_body(int op, size_t j);
  template <class Body> void loop(int dim, Body body);
  std::vector<int> allocate_at(const std::vector<int> &candidates, int depth);
  void allocate(int tensor);
  void release(const std::vector<int> &tensors);
  Box level1_box(int tensor) const;
  Coords level1_origin(int op) const;
  void check_tiles_live(int op, const Coords &origin) const;
  std::vector<std::int64_t> elements(int tensor, const Box &box) const;
  TraceCounts combined_counts() const;

  const Problem &p_;
  const FusedHierMapping &m_;
  const size_t levels_;
  const bool elision_;
  Coords x1_;              // per workload dimension: its level-1 extent
  Coords trips_;           // per workload dimension: its level-0 trips
  Coords iteration_;       // per workload dimension: its level-0 loop's iteration, -1 outside it
  std::vector<Box> whole_; // per problem tensor: its padded extent
  std::vector<std::vector<bool>> written_; // per problem tensor and element: went to level 0
  std::vector<std::optional<Box>> live_;   // per problem tensor: its level-1 tile, if allocated
  std::vector<std::vector<TensorCounts>> outer_; // [level 0 or 1][problem tensor]
  std::vector<hier_trace::NestWalk> inner_;      // per operator, rooted at level 1
};

FusedWalk::FusedWalk(const Hardware &hw, const Problem &problem, const FusedHierMapping &mapping,
                     bool elision)
    : p_(problem), m_(mapping), levels_(hw.hierarchy.levels.size()), elision_(elision),
      x1_(problem.workload->dims.size(), 1), trips_(x1_.size(), 1), iteration_(x1_.size(), -1),
      live_(problem.tensors.size()), outer_(2, std::vector<TensorCounts>(problem.tensors.size())) {
  DSE_CHECK(problem.fused() && levels_ >= 2, "a fused pair on DRAM and at least one level");
  for (int o = 0; o < 2; ++o) {
    inner_.emplace_back(hw, *problem.workload, problem.op(o),
                        mapping.ops.at(static_cast<size_t>(o)), 1, elision);
    take_extents(o);
  }
  Coords padded(x1_.size());
  for (size_t d = 0; d < x1_.size(); ++d)
    padded[d] = x1_[d] * trips_[d];
  for (const ProblemTensor &tensor : problem.tensors) {
    whole_.push_back(access_box(tensor.access, Coords(x1_.size(), 0), padded));
    written_.emplace_back(static_cast<size_t>(whole_.back().words()), false);
  }
}

/// Records the level-1 extents and level-0 trips of op `op`'s dimensions, as its walk spans
/// them (those of a shared dimension agree in a legal mapping).
void FusedWalk::take_extents(int op) {
  const hier_trace::NestWalk &walk = inner_[static_cast<size_t>(op)];
  for (int dim : p_.ops[static_cast<size_t>(op)].dims) {
    const auto d = static_cast<size_t>(dim);
    const std::int64_t x1 = walk.tile_extent(1)[d];
    const std::int64_t trips = walk.tile_extent(0)[d] / x1;
    const std::vector<int> &producer_dims = p_.ops[0].dims;
    const bool shared = op == 1 && std::find(producer_dims.begin(), producer_dims.end(), dim) !=
                                       producer_dims.end();
    DSE_CHECK(!shared || (x1 == x1_[d] && trips == trips_[d]),
              "a shared dimension has one level-1 extent and one trip count");
    x1_[d] = x1;
    trips_[d] = trips;
  }
}

TraceCounts FusedWalk::run() {
  prefix_body(0);
  return combined_counts();
}

/// Body of prefix loop k (0: outside every loop; the prefix length: where the operators run).
/// Tiles of depth equal to the prefix length but the intermediate's belong to the sub-nests.
void FusedWalk::prefix_body(size_t k) {
  std::vector<int> candidates;
  for (int t = 0; t < static_cast<int>(p_.tensors.size()); ++t)
    if (p_.tensors[static_cast<size_t>(t)].role == TensorRole::Intermediate ||
        k < m_.outer.prefix.size())
      candidates.push_back(t);
  const std::vector<int> held = allocate_at(candidates, static_cast<int>(k));
  if (k == m_.outer.prefix.size())
    run_operators();
  else
    loop(m_.outer.prefix[k], [&] { prefix_body(k + 1); });
  release(held);
}

/// One iteration of the prefix: the intermediate starts from zero, the producer runs, then the
/// consumer, and neither leaves a tile below level 1 to the other.
void FusedWalk::run_operators() {
  inner_[0].restart_output();
  for (int o = 0; o < 2; ++o) {
    subnest_body(o, 0);
    inner_[static_cast<size_t>(o)].empty();
  }
}

/// Body of loop j of op `op`'s sub-nest (its length: the level-1 block runs).
void FusedWalk::subnest_body(int op, size_t j) {
  const ProblemOp &pop = p_.ops[static_cast<size_t>(op)];
  std::vector<int> owned;
  for (int t : pop.tensors)
    if (p_.tensors[static_cast<size_t>(t)].role != TensorRole::Intermediate &&
        p_.tensors[static_cast<size_t>(t)].owner == op)
      owned.push_back(t);
  const std::vector<int> &nest = m_.outer.subnests.at(static_cast<size_t>(op));
  const std::vector<int> held = allocate_at(owned, static_cast<int>(m_.outer.prefix.size() + j));
  if (j == nest.size()) {
    const Coords origin = level1_origin(op);
    check_tiles_live(op, origin);
    inner_[static_cast<size_t>(op)].walk(origin);
  } else {
    loop(nest[j], [&] { subnest_body(op, j + 1); });
  }
  release(held);
}

template <class Body> void FusedWalk::loop(int dim, Body body) {
  const auto d = static_cast<size_t>(dim);
  DSE_CHECK(iteration_[d] < 0, "dimension " + p_.dim_name(dim) + " loops twice on one path");
  for (std::int64_t i = 0; i < trips_[d]; ++i) {
    iteration_[d] = i;
    body();
  }
  iteration_[d] = -1;
}

std::vector<int> FusedWalk::allocate_at(const std::vector<int> &candidates, int depth) {
  std::vector<int> held;
  for (int t : candidates)
    if (m_.outer.retention.at(static_cast<size_t>(t)) == depth) {
      allocate(t);
      held.push_back(t);
    }
  return held;
}

/// The level-1 tile of `tensor` now: the current level-1 tile of the dimensions whose loops are
/// entered, the whole padded extent of the others.
Box FusedWalk::level1_box(int tensor) const {
  Coords lo(x1_.size(), 0), extent(x1_.size());
  for (size_t d = 0; d < x1_.size(); ++d) {
    const bool entered = iteration_[d] >= 0;
    lo[d] = entered ? iteration_[d] * x1_[d] : 0;
    extent[d] = entered ? x1_[d] : x1_[d] * trips_[d];
  }
  return access_box(p_.tensors[static_cast<size_t>(tensor)].access, lo, extent);
}

/// Allocates the level-1 tile of `tensor`: an input is filled whole from level 0, the output when
/// partial sums of it went back before (or always without first-read elision, or when its
/// einsum starts it from a residual), the intermediate never.
void FusedWalk::allocate(int tensor) {
  const auto t = static_cast<size_t>(tensor);
  const Box box = level1_box(tensor);
  bool load = false;
  switch (p_.tensors[t].role) {
  case TensorRole::Input:
    load = true;
    break;
  case TensorRole::Output:
    load = !elision_ || !p_.op(p_.tensors[t].owner).einsum.residual.empty();
    for (std::int64_t element : elements(tensor, box))
      load = load || written_[t][static_cast<size_t>(element)];
    break;
  case TensorRole::Intermediate:
    break;
  }
  if (load) {
    outer_[1][t].fills += box.words();
    outer_[0][t].reads += box.words();
  }
  live_[t] = box;
}

/// Releases level-1 tiles; the output's goes back to level 0.
void FusedWalk::release(const std::vector<int> &tensors) {
  for (int tensor : tensors) {
    const auto t = static_cast<size_t>(tensor);
    if (p_.tensors[t].role == TensorRole::Output) {
      outer_[0][t].updates += live_[t]->words();
      for (std::int64_t element : elements(tensor, *live_[t]))
        written_[t][static_cast<size_t>(element)] = true;
    }
    live_[t].reset();
  }
}

/// Per workload dimension, where op `op`'s level-1 block starts at the current level-0
/// iteration.
Coords FusedWalk::level1_origin(int op) const {
  Coords origin(x1_.size(), 0);
  for (int dim : p_.ops[static_cast<size_t>(op)].dims) {
    const auto d = static_cast<size_t>(dim);
    origin[d] = std::max<std::int64_t>(iteration_[d], 0) * x1_[d];
  }
  return origin;
}

/// Every tensor op `op` touches in the level-1 block at `origin` lies in its live level-1 tile.
void FusedWalk::check_tiles_live(int op, const Coords &origin) const {
  const ProblemOp &pop = p_.ops[static_cast<size_t>(op)];
  for (size_t i = 0; i < pop.tensors.size(); ++i) {
    const std::optional<Box> &tile = live_[static_cast<size_t>(pop.tensors[i])];
    DSE_CHECK(tile && tile->contains(access_box(pop.accesses[i], origin, x1_)),
              "op " + p_.op(op).name + " reaches outside the level-1 tile of " +
                  p_.tensors[static_cast<size_t>(pop.tensors[i])].name);
  }
}

/// The row-major numbers of the elements of `box` in `tensor`'s padded extent.
std::vector<std::int64_t> FusedWalk::elements(int tensor, const Box &box) const {
  const Coords &size = whole_[static_cast<size_t>(tensor)].extent;
  std::vector<std::int64_t> numbers;
  Coords position = box.lo;
  while (true) {
    std::int64_t number = 0;
    for (size_t i = 0; i < size.size(); ++i)
      number = number * size[i] + position[i];
    numbers.push_back(number);
    size_t i = position.size(); // odometer, last position fastest
    while (i > 0 && ++position[i - 1] == box.lo[i - 1] + box.extent[i - 1]) {
      position[i - 1] = box.lo[i - 1];
      --i;
    }
    if (i == 0)
      return numbers;
  }
}

void add(std::optional<TensorCounts> &sum, const TensorCounts &more) {
  sum = sum.value_or(TensorCounts{});
  sum->reads += more.reads;
  sum->fills += more.fills;
  sum->updates += more.updates;
}

/// Levels 0 and 1 from the retention scopes, plus what the two walks counted at levels 1..L,
/// per problem tensor.
TraceCounts FusedWalk::combined_counts() const {
  TraceCounts counts;
  counts.levels.assign(levels_, std::vector<std::optional<TensorCounts>>(p_.tensors.size()));
  for (size_t t = 0; t < p_.tensors.size(); ++t) {
    if (p_.tensors[t].role != TensorRole::Intermediate)
      counts.levels[0][t] = outer_[0][t];
    counts.levels[1][t] = outer_[1][t];
  }
  for (size_t o = 0; o < 2; ++o) {
    const hier_trace::TraceCounts &walked = inner_[o].counts();
    const std::vector<int> &tensors = p_.ops[o].tensors;
    for (size_t l = 1; l < levels_; ++l)
      for (size_t i = 0; i < tensors.size(); ++i)
        if (const std::optional<TensorCounts> &c = walked.levels[l].at(i))
          add(counts.levels[l][static_cast<size_t>(tensors[i])], *c);
    counts.macs.push_back(walked.macs);
  }
  return counts;
}

} // namespace

TraceCounts simulate(const Hardware &hw, const Problem &problem, const FusedHierMapping &mapping,
                     bool first_read_elision) {
  return FusedWalk(hw, problem, mapping, first_read_elision).run();
}

} // namespace dse::fused_hier_trace
