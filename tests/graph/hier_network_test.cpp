// A network plan on a general hierarchy (docs/HIERARCHY.md §8.5): every node in one segment, each
// searched segment's cost the best point of its own explore_hier front, the MACs those of the
// graph, no segment below the I/O bound of the tensors it reads and writes, the network front
// equal to every combination of segment front points filtered, and the plan independent of the
// thread count. With fused pairs (hier_fusion): each fused segment the best plan of its pair's
// fused front (explore_hier_fused_pair), no plan or front point worse than without them.
#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/graph/lowering.hpp"
#include "dse/graph/network_plan.hpp"
#include "dse/graph/node_work.hpp"

namespace dse {
namespace {

using test_common::repo_file;

NetworkPlan plan_on(const Graph &graph, const Hardware &hw, int threads,
                    PlanObjective objective = PlanObjective::Latency, bool hier_fusion = false) {
  NetworkOptions options;
  options.objective = objective;
  options.search.threads = threads;
  options.hier_fusion = hier_fusion;
  return plan_network(graph, hw, options);
}

/// The segment's nodes as units: each compute node with the nodes attached after it.
SegmentNodes units_of(const Graph &graph, const Segment &s) {
  SegmentNodes nodes;
  for (int v : s.nodes)
    if (is_compute(graph.node(v).kind))
      nodes.units.push_back({v, {}});
    else
      nodes.units.back().attached.push_back(v);
  return nodes;
}

/// The plan of `front` with the least latency, then energy (a latency-planned segment's point).
const HierPlan *best_plan(const std::vector<HierPlan> &front) {
  const HierPlan *best = nullptr;
  for (const HierPlan &p : front)
    if (!best || std::pair(p.objectives.latency_s, p.objectives.energy_pj) <
                     std::pair(best->objectives.latency_s, best->objectives.energy_pj))
      best = &p;
  return best;
}

class HierNetwork : public ::testing::Test {
protected:
  const Graph graph = load_network(repo_file("networks/tiny-cnn.yaml"));
  const Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
  const NetworkPlan plan = plan_on(graph, hw, 2);
};

/// Whether a and b agree to a relative 1e-12 (sums taken in another order).
::testing::AssertionResult close(double a, double b) {
  if (std::abs(a - b) <= 1e-12 * std::max(std::abs(a), std::abs(b)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b;
}

TEST_F(HierNetwork, CoversEveryNodeOnceAndCountsTheGraphsMacs) {
  std::vector<int> covered(graph.nodes.size(), 0);
  double macs = 0;
  for (const Segment &s : plan.schedule.segments) {
    EXPECT_NE(s.kind, SegmentKind::Fused) << s.label;
    for (int v : s.nodes)
      ++covered[static_cast<size_t>(v)];
    macs += s.cost.macs;
  }
  for (size_t v = 0; v < covered.size(); ++v)
    EXPECT_EQ(covered[v], 1) << graph.nodes[v].name;
  double graph_macs = 0;
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    graph_macs += node_macs(graph, static_cast<int>(v));
  EXPECT_EQ(macs, graph_macs);
  EXPECT_EQ(plan.schedule.total.macs, graph_macs);
  // The residual add (and its ReLU) belong to the convolution whose output starts from it.
  const auto residual = std::find_if(
      plan.schedule.segments.begin(), plan.schedule.segments.end(), [&](const Segment &s) {
        return std::any_of(s.nodes.begin(), s.nodes.end(),
                           [&](int v) { return graph.node(v).name == "residual"; });
      });
  ASSERT_NE(residual, plan.schedule.segments.end());
  EXPECT_EQ(residual->kind, SegmentKind::Single);
  EXPECT_EQ(graph.node(residual->nodes.front()).name, "block_conv2");
}

TEST_F(HierNetwork, EachSegmentIsItsOwnSearchsBestPoint) {
  int searched = 0;
  for (const Segment &s : plan.schedule.segments) {
    if (s.kind != SegmentKind::Single)
      continue;
    ++searched;
    const std::optional<Workload> workload = lower_segment(graph, units_of(graph, s));
    ASSERT_TRUE(workload) << s.label;
    HierSearchOptions options;
    options.threads = 1;
    const HierExploreResult r = explore_hier(hw, *workload, options);
    const HierPlan *best = best_plan(r.front);
    ASSERT_NE(best, nullptr) << s.label;
    EXPECT_EQ(s.cost.latency_s, best->objectives.latency_s) << s.label;
    EXPECT_EQ(s.cost.energy_pj, best->objectives.energy_pj) << s.label;
    EXPECT_EQ(s.cost.dram_words, best->objectives.dram_words) << s.label;
    ASSERT_EQ(s.cost.front.size(), r.front.size()) << s.label;
    for (size_t i = 0; i < r.front.size(); ++i) {
      EXPECT_EQ(s.cost.front[i].latency_s, r.front[i].objectives.latency_s) << s.label;
      EXPECT_EQ(s.cost.front[i].energy_pj, r.front[i].objectives.energy_pj) << s.label;
    }
  }
  EXPECT_EQ(searched, 7);
}

TEST_F(HierNetwork, NoSegmentMovesFewerWordsThanItReadsAndWrites) {
  for (const Segment &s : plan.schedule.segments) {
    if (s.eliminated)
      continue;
    // The operands of a segment's einsum, the residual its result starts from and its result
    // cross the backing store at least once: the intermediates inside a segment need not.
    // (Biases are not einsum operands: a Gemm's or a Conv's is an elementwise add of the
    // result.)
    double words = 0;
    if (s.kind == SegmentKind::Single) {
      const GraphNode &compute = graph.node(s.nodes.front());
      for (size_t i = 0; i < 2; ++i)
        words += static_cast<double>(element_count(graph.tensor(compute.inputs[i]).shape));
      for (auto v = s.nodes.begin() + 1; v != s.nodes.end(); ++v)
        if (const int r = residual_operand(graph, *v, graph.node(*(v - 1)).outputs[0]); r >= 0)
          words += static_cast<double>(element_count(graph.tensor(r).shape));
      words += node_output_words(graph, s.nodes.back());
    } else {
      words =
          node_weight_words(graph, s.nodes.front()) + node_activation_words(graph, s.nodes.front());
    }
    EXPECT_GE(s.cost.dram_words, words) << s.label;
    EXPECT_GT(words, 0) << s.label;
  }
}

TEST_F(HierNetwork, NetworkFrontIsEveryCombinationOfSegmentPointsFiltered) {
  std::vector<CostPoint> sums{CostPoint{}};
  for (const Segment &s : plan.schedule.segments) {
    std::vector<CostPoint> next;
    for (const CostPoint &a : sums)
      for (const CostPoint &b : s.cost.front)
        next.push_back(
            {a.latency_s + b.latency_s, a.energy_pj + b.energy_pj, a.dram_words + b.dram_words, 0});
    sums = std::move(next);
    ASSERT_LT(sums.size(), 100000u);
  }
  std::vector<CostPoint> undominated;
  for (const CostPoint &p : sums)
    if (std::none_of(sums.begin(), sums.end(), [&](const CostPoint &o) {
          return o.latency_s <= p.latency_s && o.energy_pj <= p.energy_pj &&
                 (o.latency_s < p.latency_s || o.energy_pj < p.energy_pj);
        }))
      undominated.push_back(p);
  std::sort(undominated.begin(), undominated.end(), [](const CostPoint &a, const CostPoint &b) {
    return std::pair(a.latency_s, a.energy_pj) < std::pair(b.latency_s, b.energy_pj);
  });
  undominated.erase(std::unique(undominated.begin(), undominated.end(),
                                [](const CostPoint &a, const CostPoint &b) {
                                  return a.latency_s == b.latency_s && a.energy_pj == b.energy_pj;
                                }),
                    undominated.end());
  const CostFront &front = plan.schedule.front;
  ASSERT_EQ(front.size(), undominated.size());
  ASSERT_GE(front.size(), 2u);
  for (size_t i = 0; i < front.size(); ++i) {
    EXPECT_TRUE(close(front[i].latency_s, undominated[i].latency_s)) << i;
    EXPECT_TRUE(close(front[i].energy_pj, undominated[i].energy_pj)) << i;
  }
  // The plan takes each segment's fastest point: the network's fastest.
  EXPECT_TRUE(close(plan.schedule.total.latency_s, front.front().latency_s));
  const NetworkPlan frugal = plan_on(graph, hw, 2, PlanObjective::Energy);
  EXPECT_TRUE(close(frugal.schedule.total.energy_pj, front.back().energy_pj));
}

TEST_F(HierNetwork, WithoutSearchesOnlyTheGraphPassesRun) {
  NetworkOptions options;
  options.search_segments = false;
  const NetworkPlan graph_only = plan_network(graph, hw, options);
  EXPECT_TRUE(graph_only.fusion.segments.empty());
  EXPECT_TRUE(graph_only.schedule.segments.empty());
  EXPECT_EQ(graph_only.movement.movement_nodes, plan.movement.movement_nodes);
}

TEST_F(HierNetwork, DoesNotDependOnTheThreadCount) {
  const NetworkPlan one = plan_on(graph, hw, 1);
  ASSERT_EQ(one.schedule.segments.size(), plan.schedule.segments.size());
  for (size_t i = 0; i < one.schedule.segments.size(); ++i) {
    EXPECT_EQ(one.schedule.costs[i].latency_s, plan.schedule.costs[i].latency_s);
    EXPECT_EQ(one.schedule.costs[i].energy_pj, plan.schedule.costs[i].energy_pj);
  }
  ASSERT_EQ(one.schedule.front.size(), plan.schedule.front.size());
  for (size_t i = 0; i < one.schedule.front.size(); ++i) {
    EXPECT_EQ(one.schedule.front[i].latency_s, plan.schedule.front[i].latency_s);
    EXPECT_EQ(one.schedule.front[i].energy_pj, plan.schedule.front[i].energy_pj);
  }
}

/// The perceptron's plans on a16, with fused pairs and without, made once for the suite.
class HierNetworkFusion : public ::testing::Test {
protected:
  struct Plans {
    Graph graph = load_network(repo_file("tests/data/perceptron.yaml"));
    Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
    NetworkPlan fused = plan_on(graph, hw, 2, PlanObjective::Latency, true);
    NetworkPlan alone = plan_on(graph, hw, 2);
  };
  static const Plans &plans() {
    static const Plans p;
    return p;
  }
  const Graph &graph = plans().graph;
  const Hardware &hw = plans().hw;
  const NetworkPlan &fused = plans().fused;
  const NetworkPlan &alone = plans().alone;
};

TEST_F(HierNetworkFusion, EachFusedSegmentIsTheBestFusedPlanOfItsPair) {
  int pairs = 0;
  for (const Segment &s : fused.schedule.segments) {
    if (s.kind != SegmentKind::Fused)
      continue;
    ++pairs;
    const std::optional<Workload> workload = lower_segment(graph, units_of(graph, s));
    ASSERT_TRUE(workload) << s.label;
    HierSearchOptions options;
    options.fusion = true;
    const std::optional<HierExploreResult> r = explore_hier_fused_pair(hw, *workload, options);
    ASSERT_TRUE(r) << s.label;
    for (const HierPlan &p : r->front)
      EXPECT_TRUE(r->segments[p.parts.at(0).segment].pair.has_value());
    const HierPlan *best = best_plan(r->front);
    ASSERT_NE(best, nullptr) << s.label;
    EXPECT_EQ(s.cost.latency_s, best->objectives.latency_s) << s.label;
    EXPECT_EQ(s.cost.energy_pj, best->objectives.energy_pj) << s.label;
    EXPECT_EQ(s.cost.dram_words, best->objectives.dram_words) << s.label;
    EXPECT_TRUE(s.cost.fused);
    // Its DRAM words: at least the first einsum's operands, the second's weights and the last
    // result (biases are elementwise adds, not einsum operands).
    const GraphNode &first = graph.node(s.nodes.front());
    const GraphNode &second = graph.node(units_of(graph, s).units.back().node);
    const double io = static_cast<double>(element_count(graph.tensor(first.inputs[0]).shape) +
                                          element_count(graph.tensor(first.inputs[1]).shape) +
                                          element_count(graph.tensor(second.inputs[1]).shape)) +
                      node_output_words(graph, s.nodes.back());
    EXPECT_GE(s.cost.dram_words, io) << s.label;
  }
  EXPECT_GE(pairs, 1); // fusing fc1 and fc2 keeps h1 off DRAM, which pays on a16
}

TEST_F(HierNetworkFusion, IsNeverWorseThanEachNodeAloneAndMovesFewerWords) {
  EXPECT_LT(fused.schedule.total.latency_s, alone.schedule.total.latency_s);
  EXPECT_LT(fused.schedule.total.dram_words, alone.schedule.total.dram_words);
  double graph_macs = 0;
  for (size_t v = 0; v < graph.nodes.size(); ++v)
    graph_macs += node_macs(graph, static_cast<int>(v));
  EXPECT_GE(fused.schedule.total.macs, graph_macs); // recomputed MACs included
  for (const CostPoint &p : alone.schedule.front)
    EXPECT_TRUE(std::any_of(fused.schedule.front.begin(), fused.schedule.front.end(),
                            [&](const CostPoint &q) {
                              return q.latency_s <= p.latency_s * (1 + 1e-12) &&
                                     q.energy_pj <= p.energy_pj * (1 + 1e-12);
                            }))
        << p.latency_s << " s, " << p.energy_pj << " pJ";
}

TEST_F(HierNetworkFusion, DoesNotDependOnTheThreadCount) {
  const NetworkPlan one = plan_on(graph, hw, 1, PlanObjective::Latency, true);
  ASSERT_EQ(one.schedule.segments.size(), fused.schedule.segments.size());
  for (size_t i = 0; i < one.schedule.segments.size(); ++i) {
    EXPECT_EQ(one.schedule.segments[i].kind, fused.schedule.segments[i].kind);
    EXPECT_EQ(one.schedule.costs[i].latency_s, fused.schedule.costs[i].latency_s);
    EXPECT_EQ(one.schedule.costs[i].energy_pj, fused.schedule.costs[i].energy_pj);
  }
}

} // namespace
} // namespace dse
