// The report layer of `dse explore` on a hierarchy of any depth, fed only by what the search
// returned: the front as CSV or JSON (the front table's rows also serve `dse sweep`), and the
// search statistics that --verbose prints.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

/// One operator's mapping in one line: per level its loops and keep set, per fan-out its
/// spatial factors (`DRAM[m16 n8] | GlobalBuffer[k32] keep A B Z | PE x(n16) y(m16) | ...`).
std::string describe_hier_mapping(const Hardware &hw, const Workload &workload, const Operator &op,
                                  const OpMapping &mapping);

/// A plan's mapping: each segment's line, `;`-separated: an operator's (describe_hier_mapping),
/// a vector pass's, or a fused pair's (`up + down (fused): prefix[m16] retention(A:1 ...)
/// up{...} down{...}`).
std::string hier_plan_mapping(const HierExploreResult &result, const HierPlan &plan,
                              const Workload &workload, const Hardware &hw);

/// The front table's columns, from `point` on; the buffer column is `<level 1 name>_words`
/// when every hardware of `hws` (at least one) names level 1 alike, else `buffer_words`.
std::string hier_front_table_header(const std::vector<const Hardware *> &hws);
/// One row per front point, each starting with `leading` (fields before `point`, comma
/// included).
std::string hier_front_table_rows(const std::string &leading, const HierExploreResult &result,
                                  const Workload &workload, const Hardware &hw);

std::string hier_front_csv(const HierExploreResult &result, const Workload &workload,
                           const Hardware &hw);
std::string hier_front_json(const HierExploreResult &result, const Workload &workload,
                            const Hardware &hw);
std::string hier_search_statistics(const HierExploreResult &result, const Workload &workload);

} // namespace dse
