// The report layer of an exploration, fed only by what the search returned: the front as CSV
// (front_csv.cpp; a sweep writes the same columns) or JSON (front_json.cpp), one front point as
// a mapping file (mapping_yaml.cpp), and the search statistics that --verbose prints
// (search_statistics.cpp).
#pragma once

#include <map>
#include <optional>
#include <string>

#include "dse/ir/hardware.hpp"
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

PointDetail point_detail(const ExploreResult &result, const FrontPoint &point, const Hardware &hw);

/// The columns of a front table from `point` on: a gb_words_<op> column per name in
/// `buffer_ops`, or without it one gb_words column, the largest need over operators.
std::string front_table_header(const std::optional<std::vector<std::string>> &buffer_ops);
/// One row per front point, each starting with `leading` (fields before `point`, comma included).
std::string front_table_rows(const std::string &leading, const ExploreResult &result,
                             const Hardware &hw,
                             const std::optional<std::vector<std::string>> &buffer_ops);

std::string front_csv(const ExploreResult &result, const Workload &workload, const Hardware &hw);
std::string front_json(const ExploreResult &result, const Workload &workload, const Hardware &hw);
/// The mapping YAML of front point `index` (the format `dse eval --mapping` reads).
std::string mapping_yaml(const ExploreResult &result, const Workload &workload, size_t index);
/// Per problem: pruning, mappings decided, tiling columns visited, mappings whose objectives were
/// computed, the Q x B flops and their rate against the nominal peak of `threads` cores (0: all).
std::string search_statistics(const ExploreResult &result, int threads);

} // namespace dse
