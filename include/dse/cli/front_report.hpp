// Renders an exploration result: the front as CSV or JSON, one front point as a mapping file,
// and the search statistics that --verbose prints.
#pragma once

#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/model/cost.hpp"
#include "dse/search/explore.hpp"

namespace dse {

std::string front_csv(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                      LatencyModel model);
std::string front_json(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                       LatencyModel model);
/// The mapping YAML of front point `index` (the format `dse eval --mapping` reads).
std::string mapping_yaml(const ExploreResult &result, const Workload &workload, size_t index);
std::string search_statistics(const ExploreResult &result);

} // namespace dse
