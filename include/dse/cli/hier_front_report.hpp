// The report layer of `dse explore` on a hierarchy of any depth, fed only by what the search
// returned: the front as CSV or JSON, and the search statistics that --verbose prints.
#pragma once

#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

/// One operator's mapping in one line: per level its loops and keep set, per fan-out its
/// spatial factors (`DRAM[m16 n8] | GlobalBuffer[k32] keep A B Z | PE x(n16) y(m16) | ...`).
std::string describe_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                                  const OpMapping &mapping);

std::string hier_front_csv(const HierExploreResult &result, const Workload &workload,
                           const Hardware &hw);
std::string hier_front_json(const HierExploreResult &result, const Workload &workload,
                            const Hardware &hw);
std::string hier_search_statistics(const HierExploreResult &result, const Workload &workload);

} // namespace dse
