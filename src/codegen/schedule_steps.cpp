// Scope walk: prefix levels, then each operator's sub-nest, allocating the tiles retained at each
// depth on entry and releasing them on exit, exactly as tests/model/trace_simulator.cpp does.
#include "schedule_steps.hpp"

#include <algorithm>

namespace dse::codegen {

namespace {

class StepBuilder {
public:
  StepBuilder(SegmentPlan &plan, const Dataflow &df) : plan_(plan), df_(df) {}

  void run() {
    prefix_level(0);
    plan_.peak_words = peak_;
  }

private:
  const Problem &problem() const { return *plan_.problem; }
  bool online() const { return plan_.softmax.form == SoftmaxForm::Online; }
  int prefix_length() const { return static_cast<int>(df_.prefix.size()); }

  /// Whether the online-softmax output is rescaled per region at the end of the prefix (its tile
  /// lives across the producer's run) rather than right after its own allocation.
  bool rescale_regions() const {
    const int out = plan_.softmax.output_tile;
    return online() && df_.retention[static_cast<size_t>(out)] < prefix_length();
  }

  void emit(StepKind kind, int dim = -1, int tile = -1, int op = -1) {
    plan_.steps.push_back({kind, dim, tile, op, entered_});
  }

  void allocate(int tile) {
    TilePlan &t = plan_.tiles[static_cast<size_t>(tile)];
    t.offset = top_;
    top_ += t.words;
    emit(StepKind::Allocate, -1, tile);
  }

  void release(const std::vector<int> &tiles) {
    for (auto it = tiles.rbegin(); it != tiles.rend(); ++it) {
      emit(StepKind::Release, -1, *it);
      top_ -= plan_.tiles[static_cast<size_t>(*it)].words;
    }
  }

  /// Allocates the tensors among `candidates` retained at `depth`; returns them.
  std::vector<int> allocate_at(const std::vector<int> &candidates, int depth) {
    std::vector<int> held;
    for (int t : candidates)
      if (df_.retention[static_cast<size_t>(t)] == depth) {
        allocate(t);
        held.push_back(t);
      }
    return held;
  }

  template <class Body> void loop(int dim, Body body) {
    emit(StepKind::LoopBegin, dim);
    entered_.push_back(dim);
    body();
    entered_.pop_back();
    emit(StepKind::LoopEnd, dim);
  }

  /// Body of prefix loop k (k = 0: outside every loop; k = prefix length: the sub-nests).
  void prefix_level(size_t k) {
    std::vector<int> candidates;
    for (int t = 0; t < static_cast<int>(problem().tensors.size()); ++t)
      if (problem().tensors[static_cast<size_t>(t)].role == TensorRole::Intermediate ||
          static_cast<int>(k) < prefix_length())
        candidates.push_back(t);
    std::vector<int> held = allocate_at(candidates, static_cast<int>(k));
    if (online() && static_cast<int>(k) == plan_.softmax.over_position) {
      allocate(plan_.softmax.state_tile);
      held.push_back(plan_.softmax.state_tile);
    }
    for (const HaloPlan &halo : plan_.halos)
      if (halo.cached && static_cast<int>(k) < prefix_length() && df_.prefix[k] == halo.dim) {
        allocate(halo.store_tile); // around the dim's loop
        held.push_back(halo.store_tile);
      }
    if (static_cast<int>(k) == prefix_length())
      subnests();
    else
      loop(df_.prefix[k], [&] { prefix_level(k + 1); });
    release(held);
  }

  /// Steps of `kind` on the overlap stores of the halos op `op` produces.
  void halo_steps(StepKind kind, int op) {
    for (const HaloPlan &halo : plan_.halos)
      if (halo.cached && halo.link == op)
        emit(kind, -1, halo.store_tile);
  }

  /// Each operator's sub-nest in chain order, each producer's overlap loaded before it and kept
  /// after it; a fused softmax between the pair's producer and its consumer.
  void subnests() {
    for (int o = 0; o < static_cast<int>(problem().ops.size()); ++o) {
      if (o == 1) {
        if (plan_.softmax.form == SoftmaxForm::Whole || online())
          emit(StepKind::Softmax);
        if (rescale_regions())
          emit(StepKind::Rescale, -1, plan_.softmax.output_tile);
      }
      halo_steps(StepKind::HaloLoad, o);
      subnest_level(o, 0);
      halo_steps(StepKind::HaloSave, o);
    }
    if (rescale_regions())
      emit(StepKind::Normalize, -1, plan_.softmax.output_tile);
  }

  /// Body of sub-nest loop j of op `op` (j = 0: the sub-nest starts; j = its length: innermost).
  void subnest_level(int op, size_t j) {
    const std::vector<int> &nest = df_.subnests.at(static_cast<size_t>(op));
    std::vector<int> owned;
    for (int t : problem().ops[static_cast<size_t>(op)].tensors)
      if (problem().tensors[static_cast<size_t>(t)].role != TensorRole::Intermediate &&
          problem().tensors[static_cast<size_t>(t)].owner == op)
        owned.push_back(t);
    const std::vector<int> held = allocate_at(owned, prefix_length() + static_cast<int>(j));
    const bool rescales_here =
        online() && !rescale_regions() &&
        std::find(held.begin(), held.end(), plan_.softmax.output_tile) != held.end();
    if (rescales_here)
      emit(StepKind::Rescale, -1, plan_.softmax.output_tile);
    if (j == nest.size()) {
      emit(StepKind::Compute, -1, -1, op);
      peak_ = std::max(peak_, top_);
    } else {
      loop(nest[j], [&] { subnest_level(op, j + 1); });
    }
    if (rescales_here)
      emit(StepKind::Normalize, -1, plan_.softmax.output_tile);
    release(held);
  }

  SegmentPlan &plan_;
  const Dataflow &df_;
  std::vector<int> entered_;
  std::int64_t top_ = 0;
  std::int64_t peak_ = 0;
};

} // namespace

void build_steps(SegmentPlan &plan, const Dataflow &dataflow) {
  plan.steps.clear();
  StepBuilder(plan, dataflow).run();
}

} // namespace dse::codegen
