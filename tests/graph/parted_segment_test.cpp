// Tests of src/graph/parted_segment.cpp: a split region run part by part, each part's compute
// nodes alone beside its slabs or fused depth first, whichever is cheaper.
#include "dse/graph/parted_segment.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "test_graphs.hpp"

namespace dse {
namespace {

using testing::tiny_hardware;

FusionOptions fusion_options(bool fusion) {
  FusionOptions options;
  options.search = testing::cheap_network_options().search;
  options.search.fusion = fusion;
  return options;
}

/// The index of the node named `name`.
int node_named(const Graph &g, const std::string &name) {
  for (size_t v = 0; v < g.nodes.size(); ++v)
    if (g.nodes[v].name == name)
      return static_cast<int>(v);
  throw std::logic_error("no node " + name);
}

// The tiny CNN's inverted residual (1x1 expand, depthwise 3x3, 1x1 project) in row parts: with
// fusion on, each part runs its compute nodes alone beside its slabs or planned depth first in the
// whole buffer (fused through the depthwise window where that pays), whichever is cheaper, so the
// region never costs more than with its parts alone, and strictly less where a part runs fused;
// at some capacities the fused parts pay.
TEST(PartedSegment, PartsRunDepthFirstWhereThatPays) {
  const Graph g = load_network(testing::repo_file("networks/tiny-cnn.yaml"));
  const int first = node_named(g, "expand"), last = node_named(g, "project");
  int fused_cheaper = 0;
  for (long capacity : {1500L, 3000L, 6000L, 20000L})
    for (int parts : {2, 4}) {
      SCOPED_TRACE(std::to_string(capacity) + " words, " + std::to_string(parts) + " parts");
      const Hardware hw = tiny_hardware(capacity);
      const std::optional<SplitRegion> region = make_region(g, first, last, SplitAxis::Rows, parts);
      ASSERT_TRUE(region.has_value());
      const std::optional<Segment> alone = parted_segment(g, hw, *region, fusion_options(false));
      const std::optional<Segment> best = parted_segment(g, hw, *region, fusion_options(true));
      if (!alone)
        continue; // the slabs leave no room: only the parts planned depth first may run
      ASSERT_TRUE(best.has_value());
      EXPECT_FALSE(alone->cost.fused);
      EXPECT_EQ(best->nodes, alone->nodes);
      const auto rank = [](const Segment &s) { return plan_rank(s.cost, PlanObjective::Latency); };
      EXPECT_LE(rank(*best), rank(*alone));
      if (best->cost.fused) {
        ++fused_cheaper;
        EXPECT_LT(rank(*best), rank(*alone));
      }
    }
  EXPECT_GT(fused_cheaper, 0);
}

} // namespace
} // namespace dse
