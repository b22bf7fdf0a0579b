// Fusion segments: vector nodes that run on their own are costed with the search's latency
// model (transfer and vector work overlapped under roofline, added under sequential); pairs are
// searched fused only, and only where they can run fused; the network front's ends are the
// latency- and energy-optimal segmentations the dynamic program picks.
#include <gtest/gtest.h>

#include <algorithm>

#include "common/suite_scale.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/graph/fusion_segments.hpp"
#include "dse/graph/network_schedule.hpp"
#include "dse/graph/node_work.hpp"
#include "dse/model/cost.hpp"
#include "graph/test_graphs.hpp"

namespace dse {
namespace {

// A Relu on the network input: no compute node produces it, so it is a segment of its own.
const char *const kLeadingRelu = R"(name: leading-relu
inputs:
  - {name: x, shape: [1, 3, 16, 16]}
nodes:
  - {name: r0, op: Relu, inputs: [x], output: a0}
  - {name: c1, op: Conv, inputs: [a0], output: y1, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1]}
outputs: [y1]
)";

// A 3x3 convolution, a 1x1 one that can run fused with it, a 3x3 one that reads the 1x1's
// result through its padded window (fusable too), then a grouped one, which no fused dataflow
// runs.
const char *const kConvStack = R"(name: conv-stack
inputs:
  - {name: x, shape: [1, 2, 8, 8]}
nodes:
  - {name: c1, op: Conv, inputs: [x], output: y1, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: c2, op: Conv, inputs: [y1], output: y2, channels: 8, kernel: [1, 1]}
  - {name: c3, op: Conv, inputs: [y2], output: y3, channels: 4, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: c4, op: Conv, inputs: [y3], output: y4, channels: 4, kernel: [3, 3], groups: 2}
outputs: [y4]
)";

Segment standalone_relu(const Graph &g, const Hardware &hw, LatencyModel model) {
  FusionOptions options;
  options.search.latency_model = model;
  const FusionPlan plan = plan_fusion(g, hw, options);
  const auto it = std::find_if(plan.segments.begin(), plan.segments.end(),
                               [](const Segment &s) { return s.label == "r0"; });
  EXPECT_NE(it, plan.segments.end());
  return *it;
}

TEST(FusionSegments, StandaloneVectorNodesFollowTheLatencyModel) {
  const Graph g = parse_graph_yaml(kLeadingRelu, "leading-relu.yaml");
  const Hardware hw = testing::tiny_hardware(1 << 16);
  const CostWeights w = cost_weights(hw, LatencyModel::Roofline);
  const double words = 3 * 16 * 16; // read once, written once
  const double transfer = dram_transfer_cycles(words, words, w);
  const double vector = node_vector_ops(g, 0) * w.cycles_per_vector_op;
  ASSERT_GT(transfer, 0);
  ASSERT_GT(vector, 0);
  const Segment roofline = standalone_relu(g, hw, LatencyModel::Roofline);
  const Segment sequential = standalone_relu(g, hw, LatencyModel::Sequential);
  EXPECT_EQ(roofline.kind, SegmentKind::Vector);
  EXPECT_DOUBLE_EQ(roofline.cost.latency_s, std::max(transfer, vector) * w.seconds_per_cycle);
  EXPECT_DOUBLE_EQ(sequential.cost.latency_s, (transfer + vector) * w.seconds_per_cycle);
  EXPECT_DOUBLE_EQ(sequential.cost.energy_pj, roofline.cost.energy_pj);
  EXPECT_EQ(roofline.cost.dram_words, 2 * words);
}

TEST(FusionSegments, PairsAreSearchedFusedAndOnlyWhereTheyCanRunFused) {
  const Graph g = parse_graph_yaml(kConvStack, "conv-stack.yaml");
  const Hardware hw = testing::tiny_hardware(1 << 12);
  FusionOptions pairs;
  pairs.search.max_fused = 2;
  const FusionPlan plan = plan_fusion(g, hw, pairs);
  // Four singles and the two pairs that can run fused (c1+c2, c2+c3), whose fronts are fused
  // points only: their unfused mappings are those of the singles.
  EXPECT_EQ(plan.searches, 6);
  EXPECT_EQ(plan.cache_hits, 0);
  for (const Segment &s : plan.segments) {
    if (s.kind != SegmentKind::Fused)
      continue;
    EXPECT_TRUE(s.label == "c1+c2" || s.label == "c2+c3") << s.label;
    EXPECT_TRUE(s.cost.fused);
    ASSERT_FALSE(s.cost.front.empty());
    for (const CostPoint &p : s.cost.front)
      EXPECT_EQ(p.fused_segments, 1);
  }
  // Without fusion no pair can run fused: none is searched, and the plan is the singles.
  FusionOptions no_fusion;
  no_fusion.search.fusion = false;
  const FusionPlan singles = plan_fusion(g, hw, no_fusion);
  EXPECT_EQ(singles.searches, 4);
  EXPECT_TRUE(std::none_of(singles.segments.begin(), singles.segments.end(),
                           [](const Segment &s) { return s.kind == SegmentKind::Fused; }));
}

// Runs of three (docs/DEPTH_FIRST.md §2): c1+c2+c3 is searched too, and the plan over runs is
// never worse in its objective than the plan over pairs; for energy on a small buffer it runs the
// three depth first and moves fewer DRAM words.
TEST(FusionSegments, RunsOfThreeAreSearchedWhereTheyCanRunFused) {
  const Graph g = parse_graph_yaml(kConvStack, "conv-stack.yaml");
  const Hardware hw = testing::tiny_hardware(1 << 10);
  FusionOptions pairs;
  pairs.objective = PlanObjective::Energy;
  pairs.search.max_fused = 2;
  FusionOptions runs = pairs;
  runs.search.max_fused = 3;
  const FusionPlan by_pairs = plan_fusion(g, hw, pairs);
  const FusionPlan by_runs = plan_fusion(g, hw, runs);
  EXPECT_EQ(by_runs.searches, by_pairs.searches + 1);
  EXPECT_LE(by_runs.total.energy_pj, by_pairs.total.energy_pj);
  const auto three = std::find_if(by_runs.segments.begin(), by_runs.segments.end(),
                                  [](const Segment &s) { return s.label == "c1+c2+c3"; });
  ASSERT_NE(three, by_runs.segments.end()) << "the run of three is on the plan";
  EXPECT_EQ(three->kind, SegmentKind::Fused);
  EXPECT_TRUE(three->cost.fused);
  EXPECT_LT(by_runs.total.dram_words, by_pairs.total.dram_words);
}

/// Whether segment `s` is a pair whose consumer reads the intermediate through a window.
bool fused_through_a_window(const Graph &g, const Segment &s) {
  if (s.kind != SegmentKind::Fused)
    return false;
  return std::any_of(s.nodes.begin() + 1, s.nodes.end(), [&](int v) {
    const GraphNode &n = g.node(v);
    return n.kind == NodeKind::Conv && (n.attrs.kernel[0] > 1 || n.attrs.kernel[1] > 1);
  });
}

TEST(FusionSegments, WindowFusionMovesFewerDramWordsOnRealNetworks) {
  // ResNet-18 (3x3 -> 3x3 pairs) and MobileNetV2 (1x1 -> depthwise 3x3) in the release suite,
  // the tiny CNN's 1x1 -> depthwise pair in the sanitizer suite.
  const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  for (const std::string &network : test_common::per_suite<std::vector<std::string>>(
           {"networks/resnet18.onnx", "networks/mobilenet_v2.onnx"}, {"networks/tiny-cnn.yaml"})) {
    SCOPED_TRACE(network);
    const Graph g = load_network(testing::repo_file(network));
    int plans_with_windows = 0;
    for (const PlanObjective objective : {PlanObjective::Latency, PlanObjective::Energy}) {
      FusionOptions options;
      options.objective = objective;
      options.search.menu = TileMenu::PowersOfTwo;
      const FusionPlan windows = plan_fusion(g, hw, options);
      options.search.window_fusion = false;
      const FusionPlan pairwise = plan_fusion(g, hw, options);
      EXPECT_FALSE(std::any_of(pairwise.segments.begin(), pairwise.segments.end(),
                               [&](const Segment &s) { return fused_through_a_window(g, s); }));
      // No more DRAM words, and strictly fewer where a pair fused through a window is on the plan.
      // The schedules made of them (tensors kept on chip between segments) move no more either;
      // a pair on the schedule may tie, since the other schedule may keep its intermediate on
      // chip instead.
      EXPECT_LE(windows.total.dram_words, pairwise.total.dram_words);
      if (std::any_of(windows.segments.begin(), windows.segments.end(),
                      [&](const Segment &s) { return fused_through_a_window(g, s); })) {
        ++plans_with_windows;
        EXPECT_LT(windows.total.dram_words, pairwise.total.dram_words);
      }
      const LatencyModel model = options.search.latency_model;
      const NetworkSchedule with = schedule_network(g, hw, windows, {}, model, objective);
      const NetworkSchedule without = schedule_network(g, hw, pairwise, {}, model, objective);
      EXPECT_LE(with.total.dram_words, without.total.dram_words);
    }
    EXPECT_GT(plans_with_windows, 0);
  }
}

TEST(FusionSegments, RunsOfThreeMoveFewerDramWordsOnInvertedResiduals) {
  // MobileNetV2 in the release suite (its inverted residuals searched as runs of three: about
  // 10 s), the conv stack on a small buffer in the sanitizer suite.
  const bool sanitized = test_common::kSanitizedSuite;
  const Hardware hw =
      sanitized ? testing::tiny_hardware(1 << 10)
                : load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
  const Graph g = sanitized ? parse_graph_yaml(kConvStack, "conv-stack.yaml")
                            : load_network(testing::repo_file("networks/mobilenet_v2.onnx"));
  FusionOptions options;
  options.objective = PlanObjective::Energy;
  options.search.menu = TileMenu::PowersOfTwo;
  const FusionPlan pairs = plan_fusion(g, hw, options);
  options.search.max_fused = 3;
  const FusionPlan runs = plan_fusion(g, hw, options);
  EXPECT_LE(runs.total.energy_pj, pairs.total.energy_pj);
  const auto three = std::count_if(runs.segments.begin(), runs.segments.end(), [&](const auto &s) {
    return std::count_if(s.nodes.begin(), s.nodes.end(),
                         [&](int v) { return is_compute(g.node(v).kind); }) == 3;
  });
  EXPECT_GT(three, 0) << "no run of three on the plan";
  EXPECT_LT(runs.total.dram_words, pairs.total.dram_words);
  const LatencyModel model = options.search.latency_model;
  EXPECT_LT(schedule_network(g, hw, runs, {}, model, options.objective).total.dram_words,
            schedule_network(g, hw, pairs, {}, model, options.objective).total.dram_words);
}

TEST(FusionSegments, NetworkFrontEndsAreTheOptimalPlans) {
  // ResNet-18 in the release suite only: the sanitizer suite plans it in network_plan_test.cpp.
  for (const std::string &network : test_common::per_suite<std::vector<std::string>>(
           {"networks/tiny-cnn.yaml", "networks/resnet18.onnx"}, {"networks/tiny-cnn.yaml"})) {
    const Graph g = load_network(testing::repo_file(network));
    const Hardware hw = load_hardware(testing::repo_file("hw_configs/vector-dsp-4core-8m.yaml"));
    FusionOptions fastest, cheapest;
    fastest.search.menu = cheapest.search.menu = TileMenu::PowersOfTwo;
    fastest.objective = PlanObjective::Latency;
    cheapest.objective = PlanObjective::Energy;
    const FusionPlan by_latency = plan_fusion(g, hw, fastest);
    const FusionPlan by_energy = plan_fusion(g, hw, cheapest);
    const CostFront &front = by_latency.total.front;
    ASSERT_FALSE(front.empty()) << network;
    EXPECT_EQ(by_energy.total.front.size(), front.size()) << network;
    EXPECT_NEAR(front.front().latency_s, by_latency.total.latency_s,
                1e-12 * by_latency.total.latency_s)
        << network;
    EXPECT_NEAR(front.back().energy_pj, by_energy.total.energy_pj,
                1e-12 * by_energy.total.energy_pj)
        << network;
    // No segmentation is faster than the fastest point or cheaper than the cheapest.
    EXPECT_LE(front.front().latency_s, by_energy.total.latency_s * (1 + 1e-12)) << network;
    EXPECT_LE(front.back().energy_pj, by_latency.total.energy_pj * (1 + 1e-12)) << network;
  }
}

} // namespace
} // namespace dse
