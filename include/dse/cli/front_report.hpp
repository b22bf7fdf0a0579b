// Renders an exploration result: the front as CSV or JSON, one front point as a mapping file,
// and the search statistics that --verbose prints.
#pragma once

#include <map>
#include <string>

#include "dse/ir/hardware.hpp"
#include "dse/model/cost.hpp"
#include "dse/search/explore.hpp"
#include "dse/support/csv.hpp"

namespace dse {

/// What the output shows of a front point beyond its totals.
struct PointDetail {
  std::map<std::string, double> buffer_words; // GB words needed, per op
  double utilisation = 0;
  bool fused = false;
  std::string dataflow; // readable loop tree, retention, recompute, spatial mapping and tiles
};

PointDetail point_detail(const ExploreResult &result, const FrontPoint &point, const Hardware &hw,
                         LatencyModel model);

std::string front_csv(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                      LatencyModel model);
std::string front_json(const ExploreResult &result, const Workload &workload, const Hardware &hw,
                       LatencyModel model);
/// The mapping YAML of front point `index` (the format `dse eval --mapping` reads).
std::string mapping_yaml(const ExploreResult &result, const Workload &workload, size_t index);
std::string search_statistics(const ExploreResult &result);

} // namespace dse
