// The report layer of `dse eval` on a hierarchy of any depth (docs/HIERARCHY.md §4.6): per
// segment, per level its instances, cycles and energy, per tensor it keeps the tile, reads,
// fills, updates and energy; then the compute units and the totals. Text and JSON carry the
// same exact numbers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dse/ir/hardware.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_vector_pass.hpp"

namespace dse {

/// One evaluated segment: an einsum and its cost, or an attached operator's vector pass.
struct HierSegmentReport {
  const Operator *op = nullptr;
  HierCost cost;
  std::optional<HierVectorPass> pass;
};

/// Segments run one after another: latency and energy add up.
struct HierEvalTotals {
  double latency_cycles = 0;
  double energy_pj = 0;
};

HierEvalTotals hier_eval_totals(const std::vector<HierSegmentReport> &segments);

std::string hier_eval_text(const Hardware &hw, const std::vector<HierSegmentReport> &segments,
                           bool first_read_elision);
nlohmann::ordered_json hier_eval_json(const Hardware &hw, const Workload &workload,
                                      const std::vector<HierSegmentReport> &segments,
                                      bool first_read_elision);

} // namespace dse
