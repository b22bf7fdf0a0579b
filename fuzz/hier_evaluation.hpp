// For the fuzz targets of mappings on hierarchies of any depth: what `dse eval` does with a
// loaded mapping of one operator, the legality check and then, for a legal mapping, the per-level
// evaluation with first-read elision on and off.
#pragma once

#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"

namespace dse::fuzz {

inline void check_and_evaluate(const Hardware &hw, const Workload &workload, const Operator &op,
                               const OpMapping &mapping) {
  if (hier_mapping_violation(hw, workload, op, mapping))
    return; // `dse eval` rejects it with the reason
  for (const bool elision : {true, false})
    evaluate_hier_mapping(hw, workload, op, mapping, elision, LatencyModel::Roofline);
}

} // namespace dse::fuzz
