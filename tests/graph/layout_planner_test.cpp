// Tests of src/graph/layout_planner.cpp: the plan never loses to the single-layout one-core
// baseline (which is one of its assignments), one-core targets only choose layouts, and the
// split options divide the work between the cores.
#include "dse/graph/layout_planner.hpp"

#include <gtest/gtest.h>

#include "test_graphs.hpp"

namespace dse {
namespace {

TEST(LayoutPlanner, NeverSlowerThanTheBaseline) {
  for (const std::string &name : testing::shipped_networks())
    for (const char *hw_file :
         {"hw_configs/vector-dsp-4core-8m.yaml", "hw_configs/academic-32x32-512k.yaml"}) {
      const Graph g = load_network(testing::repo_file(name));
      const Hardware hw = load_hardware(testing::repo_file(hw_file));
      const LayoutPlan p = plan_layout(g, hw);
      EXPECT_TRUE(p.exact) << name;
      EXPECT_LE(p.latency_s, p.baseline_s * (1 + 1e-12)) << name;
      EXPECT_GE(p.conversion_s, -1e-15);
      for (size_t v = 0; v < g.nodes.size(); ++v)
        EXPECT_LE(p.options[v][static_cast<size_t>(p.chosen[v])].cores, hw.cores);
    }
}

TEST(LayoutPlanner, FourCoresSpeedUpTheChain) {
  const Graph g = parse_graph_yaml(testing::kConvChain, "c.yaml");
  const LayoutPlan one = plan_layout(g, testing::tiny_hardware(1 << 20, 1));
  const LayoutPlan four = plan_layout(g, testing::tiny_hardware(1 << 20, 4), {0});
  for (const auto &options : one.options)
    EXPECT_EQ(options.size(), 2u); // two layouts, one core
  EXPECT_GT(four.speedup(), 1.2);  // DRAM-bound steps gain nothing from more cores
  EXPECT_LE(four.speedup(), 4.0 + 1e-9);
}

} // namespace
} // namespace dse
