// The execution plan with split regions expanded into their parts: one step per (part, node),
// slab buffers for the tensors a part keeps, slab-sized accesses to the boundary tensors.
#include <algorithm>
#include <map>
#include <tuple>

#include "dse/graph/node_work.hpp"
#include "dse/graph/split_region.hpp"

namespace dse {

namespace {

double slice_words(const Graph &graph, int tensor, size_t dim, Range range) {
  const Shape &s = graph.tensor(tensor).shape;
  return static_cast<double>(element_count(s) / s[dim] * range.size());
}

class PlanBuilder {
public:
  PlanBuilder(const Graph &graph, const std::vector<SplitRegion> &regions)
      : graph_(graph), regions_(regions), region_of_(graph.nodes.size(), -1) {
    for (size_t r = 0; r < regions.size(); ++r)
      for (int v : regions[r].nodes)
        region_of_[static_cast<size_t>(v)] = static_cast<int>(r);
  }

  ExecPlan build() {
    plan_ = whole_node_plan(graph_);
    std::vector<PlanStep> whole = std::move(plan_.steps);
    plan_.steps.clear();
    for (size_t v = 0; v < graph_.nodes.size(); ++v) {
      const int r = region_of_[v];
      if (r < 0)
        plan_.steps.push_back(std::move(whole[v]));
      else if (regions_[static_cast<size_t>(r)].nodes.front() == static_cast<int>(v))
        add_region(static_cast<size_t>(r));
    }
    return std::move(plan_);
  }

private:
  bool produced_in(const SplitRegion &r, int tensor) const {
    return r.contains(graph_.tensor(tensor).producer);
  }

  bool read_in(const SplitRegion &r, int tensor) const {
    const auto &c = graph_.tensor(tensor).consumers;
    return std::any_of(c.begin(), c.end(), [&](int v) { return r.contains(v); });
  }

  /// Row regions stream their boundary tensors: nothing of them stays on chip.
  void mark_boundaries(const SplitRegion &r) {
    for (int v : r.nodes) {
      const GraphNode &n = graph_.node(v);
      for (int t : n.inputs)
        if (graph_.tensor(t).kind != TensorKind::Weight && !produced_in(r, t))
          plan_.buffers[static_cast<size_t>(t)].dram_only = true;
      for (int t : n.outputs)
        if (leaves_region(graph_, r, t))
          plan_.buffers[static_cast<size_t>(t)].dram_only = true;
    }
  }

  int slab(size_t region, int tensor, int part, double words) {
    const auto key = std::make_tuple(region, tensor, part);
    if (const auto it = slabs_.find(key); it != slabs_.end())
      return it->second;
    PlanBuffer b;
    b.name = graph_.tensor(tensor).name + "#" + std::to_string(part);
    b.words = words;
    plan_.buffers.push_back(std::move(b));
    slabs_[key] = static_cast<int>(plan_.buffers.size()) - 1;
    return slabs_[key];
  }

  void add_region(size_t index) {
    const SplitRegion &r = regions_[index];
    if (r.axis == SplitAxis::Rows)
      mark_boundaries(r);
    for (int p = 0; p < r.parts; ++p)
      for (size_t i = 0; i < r.nodes.size(); ++i)
        plan_.steps.push_back(part_step(index, i, p));
  }

  PlanStep part_step(size_t index, size_t i, int part) {
    const SplitRegion &r = regions_[index];
    const int v = r.nodes[i];
    const GraphNode &n = graph_.node(v);
    const int out = n.outputs[0];
    const size_t dim = r.dim(graph_, v);
    const Range range = r.ranges[i][static_cast<size_t>(part)];
    const double fraction =
        static_cast<double>(range.size()) / static_cast<double>(graph_.tensor(out).shape[dim]);
    PlanStep step;
    step.node = v;
    step.part = part;
    step.region = static_cast<int>(index);
    step.macs = node_macs(graph_, v) * fraction;
    step.vector_ops = node_vector_ops(graph_, v) * fraction;
    step.weight_words = node_weight_words(graph_, v) / (r.axis == SplitAxis::Rows ? 1 : r.parts);
    for (int in : n.inputs)
      if (graph_.tensor(in).kind != TensorKind::Weight)
        step.accesses.push_back(input_access(index, v, in, part, range));
    if (read_in(r, out))
      step.accesses.push_back({slab(index, out, part, slice_words(graph_, out, dim, range)),
                               slice_words(graph_, out, dim, range), true});
    if (leaves_region(graph_, r, out)) {
      const Range share = share_of(graph_.tensor(out).shape[dim], r.parts, part);
      step.accesses.push_back({out, slice_words(graph_, out, dim, share), true});
    }
    return step;
  }

  BufferAccess input_access(size_t index, int v, int in, int part, Range out_range) {
    const SplitRegion &r = regions_[index];
    const double words = input_words(graph_, r, v, in, out_range);
    if (!produced_in(r, in))
      return {in, words, false};
    const int producer = graph_.tensor(in).producer;
    const size_t at =
        static_cast<size_t>(std::find(r.nodes.begin(), r.nodes.end(), producer) - r.nodes.begin());
    const size_t dim = r.dim(graph_, producer);
    const double kept = slice_words(graph_, in, dim, r.ranges[at][static_cast<size_t>(part)]);
    return {slab(index, in, part, kept), words, false};
  }

  const Graph &graph_;
  const std::vector<SplitRegion> &regions_;
  std::vector<int> region_of_;
  ExecPlan plan_;
  std::map<std::tuple<size_t, int, int>, int> slabs_;
};

} // namespace

ExecPlan split_plan(const Graph &graph, const std::vector<SplitRegion> &regions) {
  return PlanBuilder(graph, regions).build();
}

} // namespace dse
