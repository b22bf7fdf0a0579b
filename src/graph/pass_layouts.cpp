// The schedule's pass layouts: idle cycles per option, and the layout of each group of passes
// that share a tensor on chip.
#include "dse/graph/pass_layouts.hpp"

#include <array>
#include <limits>
#include <numeric>
#include <optional>

#include "dse/graph/node_work.hpp"

namespace dse {

double pass_idle_cycles(const Graph &graph, const Hardware &hw, int node,
                        const ParallelOption &option) {
  const double ops = node_vector_ops(graph, node);
  const Shape &out = graph.tensor(graph.node(node).outputs[0]).shape;
  const double ideal = ops * cost_weights(hw, LatencyModel::Roofline).cycles_per_vector_op;
  return std::max(0.0, pass_compute_cycles(ops, out, option, hw) - ideal);
}

SegmentPart with_pass_option(SegmentPart part, const Graph &graph, const Hardware &hw, int node,
                             const ParallelOption &option) {
  part.totals.cycles = pass_idle_cycles(graph, hw, node, option);
  return part;
}

SegmentCost fastest_pass_cost(const Graph &graph, const Hardware &hw, int node,
                              const SegmentPart &part, LatencyModel model) {
  std::optional<SegmentCost> best;
  for (const ParallelOption &o :
       parallel_options(graph.tensor(graph.node(node).outputs[0]).shape, hw.cores)) {
    SegmentCost c = sequence_cost({with_pass_option(part, graph, hw, node, o)}, hw, model);
    if (!best || c.latency_s < best->latency_s)
      best = std::move(c);
  }
  return std::move(*best);
}

namespace {

/// Groups of passes bound together by `shared`: a root per pass.
std::vector<size_t> group_roots(const PassLayoutProblem &p) {
  std::vector<size_t> root(p.options.size());
  std::iota(root.begin(), root.end(), size_t{0});
  const auto find = [&](size_t x) {
    while (root[x] != x)
      x = root[x] = root[root[x]];
    return x;
  };
  for (const std::vector<int> &set : p.shared)
    for (size_t k = 1; k < set.size(); ++k)
      root[find(static_cast<size_t>(set[k]))] = find(static_cast<size_t>(set[0]));
  for (size_t x = 0; x < root.size(); ++x)
    root[x] = find(x);
  return root;
}

/// The first of pass `pass`'s fastest options in `layout` (-1 when it has none).
int fastest_in(const PassLayoutProblem &p, size_t pass, DataLayout layout) {
  int best = -1;
  const std::vector<ParallelOption> &options = p.options[pass];
  for (size_t o = 0; o < options.size(); ++o)
    if (options[o].layout == layout &&
        (best < 0 || options[o].latency_s < options[static_cast<size_t>(best)].latency_s))
      best = static_cast<int>(o);
  return best;
}

} // namespace

std::vector<int> choose_pass_layouts(const PassLayoutProblem &problem) {
  const size_t n = problem.options.size();
  const std::vector<size_t> root = group_roots(problem);
  constexpr DataLayout kLayouts[] = {DataLayout::LastAxis, DataLayout::ChannelAxis};
  // Per group and layout: the summed latency of its passes' fastest options (infinite where a
  // pass has none, or the group is bound to the graph's layout).
  std::vector<std::array<double, 2>> sum(n, {0.0, 0.0});
  for (size_t pass = 0; pass < n; ++pass)
    for (size_t l = 0; l < 2; ++l) {
      const int o = fastest_in(problem, pass, kLayouts[l]);
      const bool bound = l == 1 && problem.graph_layout[pass];
      sum[root[pass]][l] += o < 0 || bound
                                ? std::numeric_limits<double>::infinity()
                                : problem.options[pass][static_cast<size_t>(o)].latency_s;
    }
  std::vector<int> chosen(n);
  for (size_t pass = 0; pass < n; ++pass) {
    const std::array<double, 2> &s = sum[root[pass]];
    chosen[pass] = fastest_in(problem, pass, s[1] < s[0] ? kLayouts[1] : kLayouts[0]);
  }
  return chosen;
}

} // namespace dse
