// Tests of src/graph/pass_layouts.cpp: a vector pass's compute cycles under each layout and core
// split, the layouts chosen for passes bound by tensors kept on chip (equal to the best of every
// assignment, by brute force), and the passes of a network's schedule laid out so.
#include "dse/graph/pass_layouts.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "dse/graph/network_plan.hpp"
#include "test_graphs.hpp"

namespace dse {
namespace {

using testing::tiny_hardware;

TEST(PassLayouts, ComputeCyclesCountIdleLanesAndCores) {
  const Hardware hw = tiny_hardware(20000, 4); // 4 rows of 4 lanes per core
  const Shape pooled = {1, 64, 1, 1};          // one position along the last axis
  const double work = 64 * 49;
  const ParallelOption nchw{DataLayout::LastAxis, 1, -1, 0};
  const ParallelOption nhwc{DataLayout::ChannelAxis, 1, -1, 0};
  // NCHW: one lane of 4 busy; NHWC: all 4, on one core.
  EXPECT_DOUBLE_EQ(pass_compute_cycles(work, pooled, nchw, hw), work / 4);
  EXPECT_DOUBLE_EQ(pass_compute_cycles(work, pooled, nhwc, hw), work / 16);
  // Split along the channels between 4 cores: 16 channels each, every lane busy, then a barrier.
  const LayoutCosts costs;
  const ParallelOption split{DataLayout::ChannelAxis, 4, 1, 0};
  EXPECT_DOUBLE_EQ(pass_compute_cycles(work, pooled, split, hw, costs),
                   work / 64 + costs.barrier_cycles);
  // 10 channels on 4 cores: the busiest core has 3 of them, and 3 of its 4 lanes busy.
  const Shape ten = {1, 10, 1, 1};
  EXPECT_DOUBLE_EQ(pass_compute_cycles(100, ten, split, hw, costs),
                   100.0 * 0.3 / (16 * 0.75) + costs.barrier_cycles);
  // The options: each layout on one core, and split along the channels (the axis before the last
  // has one position, fewer than the cores).
  EXPECT_EQ(parallel_options(pooled, 4).size(), 4u);
  EXPECT_EQ(parallel_options(pooled, 1).size(), 2u);
}

TEST(PassLayouts, LayoutsStoreAlikeWhereMovingTheChannelsInnermostChangesNoOrder) {
  EXPECT_TRUE(layouts_store_alike({1, 32, 1, 1}));  // a pooled image: channels only
  EXPECT_TRUE(layouts_store_alike({1, 1, 7, 7}));   // one channel
  EXPECT_FALSE(layouts_store_alike({1, 32, 7, 7})); // NCHW and NHWC differ
  EXPECT_TRUE(layouts_store_alike({1, 32}));        // a row
  EXPECT_FALSE(layouts_store_alike({4, 32}));       // row- and column-major differ
  EXPECT_TRUE(layouts_store_alike({8, 4, 1}));      // batched columns
  EXPECT_FALSE(layouts_store_alike({8, 4, 3}));
  EXPECT_TRUE(layouts_store_alike({32}));
}

/// The least summed latency over every assignment of options in which the passes of each shared
/// set take one layout and the bound passes the graph's.
double brute_force_best(const PassLayoutProblem &p) {
  const size_t n = p.options.size();
  std::vector<size_t> pick(n, 0);
  double best = std::numeric_limits<double>::infinity();
  while (true) {
    bool legal = true;
    for (size_t i = 0; i < n; ++i)
      legal = legal && (!p.graph_layout[i] || p.options[i][pick[i]].layout == DataLayout::LastAxis);
    for (const std::vector<int> &set : p.shared)
      for (int member : set)
        legal =
            legal &&
            p.options[static_cast<size_t>(member)][pick[static_cast<size_t>(member)]].layout ==
                p.options[static_cast<size_t>(set[0])][pick[static_cast<size_t>(set[0])]].layout;
    if (legal) {
      double sum = 0;
      for (size_t i = 0; i < n; ++i)
        sum += p.options[i][pick[i]].latency_s;
      best = std::min(best, sum);
    }
    size_t k = 0;
    while (k < n && ++pick[k] == p.options[k].size())
      pick[k++] = 0;
    if (k == n)
      return best;
  }
}

TEST(PassLayouts, ChoiceEqualsTheBestAssignmentByBruteForce) {
  std::mt19937 rng(11);
  const auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution(lo, hi)(rng); };
  for (int trial = 0; trial < 300; ++trial) {
    SCOPED_TRACE("trial " + std::to_string(trial));
    PassLayoutProblem p;
    const int n = uniform(1, 6);
    for (int i = 0; i < n; ++i) {
      std::vector<ParallelOption> options;
      for (DataLayout layout : {DataLayout::LastAxis, DataLayout::ChannelAxis})
        for (int k = uniform(1, 2); k > 0; --k) // small integers: ties happen
          options.push_back({layout, k, k > 1 ? 0 : -1, static_cast<double>(uniform(1, 9))});
      p.options.push_back(std::move(options));
      p.graph_layout.push_back(uniform(0, 5) == 0);
    }
    for (int sets = uniform(0, 3); sets > 0; --sets) {
      std::vector<int> set;
      for (int members = uniform(1, 3); members > 0; --members)
        set.push_back(uniform(0, n - 1));
      p.shared.push_back(std::move(set));
    }
    const std::vector<int> chosen = choose_pass_layouts(p);
    ASSERT_EQ(chosen.size(), static_cast<size_t>(n));
    PassLayoutProblem only_chosen = p; // the choice, as the one option of each pass
    double sum = 0;
    for (int i = 0; i < n; ++i) {
      const ParallelOption &o = p.options[static_cast<size_t>(i)][static_cast<size_t>(chosen[i])];
      only_chosen.options[static_cast<size_t>(i)] = {o};
      sum += o.latency_s;
    }
    EXPECT_EQ(brute_force_best(only_chosen), sum) << "the choice breaks a binding";
    EXPECT_EQ(sum, brute_force_best(p));
  }
}

// The tiny CNN's global pool writes 32 channels of one position: with the channels contiguous
// every lane works, with the last axis one lane of four. Its input, kept on chip, is written by
// a searched convolution, which takes any layout.
TEST(PassLayouts, AGlobalPoolRunsWithItsChannelsContiguous) {
  const Graph g = load_network(testing::repo_file("networks/tiny-cnn.yaml"));
  const NetworkPlan p = plan_network(g, tiny_hardware(100000), testing::cheap_network_options());
  const NetworkSchedule &s = p.schedule;
  bool found = false;
  for (size_t i = 0; i < s.segments.size(); ++i) {
    const Segment &segment = s.segments[i];
    if (segment.kind != SegmentKind::Vector || g.node(segment.nodes.front()).name != "gap")
      continue;
    found = true;
    ASSERT_TRUE(s.layouts[i].has_value());
    EXPECT_EQ(s.layouts[i]->layout, DataLayout::ChannelAxis);
  }
  EXPECT_TRUE(found);
  for (const PassContribution &c : s.contributions)
    if (c.pass == "layout planning") {
      EXPECT_GT(c.without.latency_s, s.total.latency_s);
      EXPECT_EQ(c.without.energy_pj, s.total.energy_pj);
      EXPECT_EQ(c.without.dram_words, s.total.dram_words);
    }
}

} // namespace
} // namespace dse
