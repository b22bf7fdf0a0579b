// The report layer of `dse eval` on a hierarchy of any depth (docs/HIERARCHY.md §4.6): per
// segment (an einsum or a fused pair), per level its instances, cycles and energy, per tensor it
// keeps the tile, reads, fills, updates and energy; then the compute units and the totals. Text and
// JSON carry the same exact numbers.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "dse/ir/hardware.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_vector_pass.hpp"

namespace dse {

/// One evaluated segment: an einsum and its cost, a fused pair and its cost, or an attached
/// operator's vector pass.
struct HierSegmentReport {
  std::vector<const Operator *> ops; // the einsum, the producer and consumer, or the operator
  std::vector<std::string> tensors;  // the names of cost.levels[l].tensors' entries, in order
  HierCost cost;
  double fused_vector_ops = 0; // a fused pair's attached operators, in the cost's compute
  std::optional<HierVectorPass> pass;
};

/// The report of einsum `op`'s cost.
HierSegmentReport einsum_report(const Operator &op, HierCost cost);

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
