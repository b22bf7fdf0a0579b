// The schedule's pass layouts: idle cycles per option, the layout of each group of passes that
// share a tensor on chip, and the passes of a schedule laid out so.
#include "dse/graph/pass_layouts.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <numeric>
#include <optional>

#include "dse/graph/node_work.hpp"

namespace dse {

SegmentPart with_pass_option(SegmentPart part, const Graph &graph, const Hardware &hw, int node,
                             const ParallelOption &option) {
  const double ops = node_vector_ops(graph, node);
  const Shape &out = graph.tensor(graph.node(node).outputs[0]).shape;
  const double ideal = ops * cost_weights(hw, LatencyModel::Roofline).cycles_per_vector_op;
  part.totals.cycles = std::max(0.0, pass_compute_cycles(ops, out, option, hw) - ideal);
  return part;
}

SegmentCost fastest_pass_cost(const Graph &graph, const Hardware &hw, int node,
                              const SegmentPart &part, LatencyModel model) {
  PassLayoutProblem alone{
      {parallel_options(graph.tensor(graph.node(node).outputs[0]).shape, hw.cores)}, {}, {false}};
  std::vector<SegmentCost> costs;
  for (ParallelOption &o : alone.options[0]) {
    costs.push_back(sequence_cost({with_pass_option(part, graph, hw, node, o)}, hw, model));
    o.latency_s = costs.back().latency_s;
  }
  return std::move(costs[static_cast<size_t>(choose_pass_layouts(alone)[0])]);
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

void lay_out_passes(const Graph &graph, const Hardware &hw,
                    const std::vector<const Segment *> &segments, const OnChipTensors &on_chip,
                    PassLayouts layouts, const PassCostInSchedule &cost,
                    std::vector<SegmentCost> &costs,
                    std::vector<std::optional<ParallelOption>> &chosen) {
  // Per buffer: its tensors, and whether one of them is stored differently in the two layouts. A
  // view keeps the graph's layout only where that changes its order.
  std::vector<int> members(graph.tensors.size(), 0);
  std::vector<bool> ordered(graph.tensors.size(), false);
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const auto buffer = static_cast<size_t>(on_chip.buffer_of[t]);
    ++members[buffer];
    ordered[buffer] = ordered[buffer] || !layouts_store_alike(graph.tensors[t].shape);
  }
  PassLayoutProblem problem;
  std::vector<size_t> segment_of;                     // per pass
  std::vector<std::vector<SegmentCost>> option_costs; // per pass and option
  std::map<int, std::vector<int>> passes_on_chip;     // per resident buffer, the passes using it
  for (size_t i = 0; i < segments.size(); ++i) {
    const Segment &s = *segments[i];
    if (s.kind != SegmentKind::Vector || s.eliminated || s.cost.parts.size() != 1)
      continue;
    const int pass = static_cast<int>(segment_of.size());
    const int node = s.nodes.front();
    bool bound = false;
    for (const auto &[name, t] : s.graph_tensors)
      if (on_chip.resident[static_cast<size_t>(t)]) {
        const int buffer = on_chip.buffer_of[static_cast<size_t>(t)];
        passes_on_chip[buffer].push_back(pass);
        const auto b = static_cast<size_t>(buffer);
        bound = bound || (members[b] > 1 && ordered[b]); // a view's buffer
      }
    std::vector<ParallelOption> options;
    option_costs.emplace_back();
    for (ParallelOption o :
         parallel_options(graph.tensor(graph.node(node).outputs[0]).shape, hw.cores)) {
      if (layouts == PassLayouts::GraphLayout && o.layout != DataLayout::LastAxis)
        continue;
      option_costs.back().push_back(cost(i, with_pass_option(s.cost.parts[0], graph, hw, node, o)));
      o.latency_s = option_costs.back().back().latency_s;
      options.push_back(o);
    }
    segment_of.push_back(i);
    problem.options.push_back(std::move(options));
    problem.graph_layout.push_back(bound);
  }
  for (auto &[buffer, passes] : passes_on_chip)
    problem.shared.push_back(std::move(passes));
  const std::vector<int> picked = choose_pass_layouts(problem);
  for (size_t pass = 0; pass < picked.size(); ++pass) {
    const auto o = static_cast<size_t>(picked[pass]);
    costs[segment_of[pass]] = std::move(option_costs[pass][o]);
    chosen[segment_of[pass]] = problem.options[pass][o];
  }
}

} // namespace dse
