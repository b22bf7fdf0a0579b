// Renders a network plan: the text summary, the hotspot report (`dse network --report`), and
// the CSV tables written to the report directory.
#pragma once

#include <string>

#include "dse/graph/network_plan.hpp"

namespace dse {

std::string network_summary(const NetworkPlan &plan, const Graph &graph, const Hardware &hw,
                            const NetworkOptions &options);
/// Hotspots per level before splitting, the decision for each, and what is left after.
std::string hotspot_report(const NetworkPlan &plan, const Graph &graph);
/// plan,step,node,part,region, then per level its live words, and resident and DRAM words.
std::string memory_csv(const NetworkPlan &plan, const Graph &graph);
std::string splits_csv(const NetworkPlan &plan, const Graph &graph);
/// One row per segment and a final total row; with DMA units declared, each unit's words and
/// busy cycles (its share of the balanced transfer) after the `restreamed` column.
std::string segments_csv(const NetworkPlan &plan, const Graph &graph, const Hardware &hw);
/// The network's latency-energy front, latency ascending: one row per point with its EDP, DRAM
/// words and fused pairs (the columns `dse plot` reads from an explore front).
std::string network_front_csv(const NetworkPlan &plan);
/// Layout and core split per node: of the schedule's vector passes (their latency in it), or,
/// without the segment searches, of every node in the layout planner's own plan.
std::string layout_csv(const NetworkPlan &plan, const Graph &graph);

} // namespace dse
