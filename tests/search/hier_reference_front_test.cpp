// Front dominance over hand-written mappings: on each shape of the Timeloop reference set
// (tests/data/timeloop-a16), the exact front of the hierarchical search on the reference
// architecture weakly dominates, in latency and energy, every one of the 20 reference mappings of
// that shape, with first-read elision on and off.
#include <map>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/timeloop_reference.hpp"
#include "dse/config/timeloop_loader.hpp"
#include "dse/search/hier_search.hpp"

namespace dse {
namespace {

/// The input folders of the reference mappings, grouped by shape (the id without its number).
std::map<std::string, std::vector<std::string>> mappings_by_shape() {
  std::map<std::string, std::vector<std::string>> shapes;
  for (const YAML::Node &record : test_common::timeloop_reference_records()) {
    const std::string id = record["id"].as<std::string>();
    shapes[id.substr(0, id.rfind('_'))].push_back(test_common::timeloop_reference_dir() +
                                                  "inputs/" + id + "/");
  }
  return shapes;
}

bool weakly_dominated(const std::vector<HierFrontPoint> &front, const Objectives &o) {
  for (const HierFrontPoint &p : front)
    if (p.objectives.latency_s <= o.latency_s && p.objectives.energy_pj <= o.energy_pj)
      return true;
  return false;
}

void expect_front_dominates_references(bool elision) {
  for (const auto &[shape, dirs] : mappings_by_shape()) {
    SCOPED_TRACE(shape);
    const Hardware hw = load_timeloop_architecture(dirs[0] + "arch.yaml", dirs[0] + "ert.yaml");
    const Workload w = load_timeloop_problem(dirs[0] + "problem.yaml");
    HierSearchOptions options;
    options.first_read_elision = elision;
    const HierSearchResult result = search_hier_front(hw, w, w.ops[0], options);
    ASSERT_FALSE(result.front.empty());
    for (const std::string &dir : dirs) {
      const OpMapping m = load_timeloop_mapping(dir + "map.yaml", hw, w);
      const HierCost cost =
          evaluate_hier_mapping(hw, w, w.ops[0], m, elision, LatencyModel::Roofline);
      EXPECT_TRUE(weakly_dominated(result.front, hier_objectives(hw, cost)))
          << dir << ": " << cost.latency_cycles << " cycles, " << cost.energy_pj << " pJ";
    }
  }
}

TEST(HierReferenceFront, DominatesEveryReferenceMappingWithElision) {
  expect_front_dominates_references(true);
}

TEST(HierReferenceFront, DominatesEveryReferenceMappingWithoutElision) {
  expect_front_dominates_references(false);
}

} // namespace
} // namespace dse
