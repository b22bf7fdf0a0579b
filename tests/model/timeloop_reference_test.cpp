// The hierarchical model against Timeloop: each of the 80 reference mappings of
// tests/data/timeloop-a16, read by the Timeloop readers and evaluated with first-read elision on
// and off, gives Timeloop's reads, fills and updates per level and tensor exactly, its energy per
// level (relative 1e-12) and its cycles per level and in total within one cycle.
#include "dse/model/hier_cost.hpp"

#include <cmath>
#include <fstream>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/timeloop_reference.hpp"
#include "dse/config/timeloop_loader.hpp"
#include "dse/model/hier_mapping_check.hpp"

namespace dse {
namespace {

using test_common::timeloop_input_path;
using test_common::timeloop_reference_records;

void expect_relative(double actual, double expected, const std::string &what) {
  EXPECT_LE(std::abs(actual - expected), 1e-12 * std::abs(expected))
      << what << ": " << actual << " vs Timeloop's " << expected;
}

void expect_within_one_cycle(double actual, double expected, const std::string &what) {
  EXPECT_LE(std::abs(actual - expected), 1.0)
      << what << ": " << actual << " vs Timeloop's " << expected;
}

/// One level's counts, energy and cycles against Timeloop's statistics of that level.
void expect_level(const HierLevelCost &level, const OpMapping &mapping, size_t index,
                  const OperatorTensors &tensors, const YAML::Node &stats) {
  for (size_t t = 0; t < tensors.size(); ++t) {
    const std::string &name = tensors[t]->tensor;
    const YAML::Node counts = stats["tensors"][name];
    const bool kept = index == 0 || (mapping.levels[index].keep >> t & 1U) != 0;
    if (!counts) {
      EXPECT_FALSE(kept) << name << " is absent from Timeloop's level but kept";
      EXPECT_FALSE(level.tensors[t].has_value()) << name;
      continue;
    }
    ASSERT_TRUE(level.tensors[t].has_value()) << name << " is in Timeloop's level but not kept";
    EXPECT_EQ(level.tensors[t]->reads, counts["reads_total"].as<double>()) << name << " reads";
    EXPECT_EQ(level.tensors[t]->fills, counts["fills_total"].as<double>()) << name << " fills";
    EXPECT_EQ(level.tensors[t]->updates, counts["updates_total"].as<double>())
        << name << " updates";
  }
  expect_relative(level.energy_pj, stats["energy_pJ"].as<double>(), "energy");
  expect_within_one_cycle(level.cycles, stats["cycles"].as<double>(), "cycles");
}

void expect_statistics(const Hardware &hw, const Workload &workload, const OpMapping &mapping,
                       bool elision, const YAML::Node &stats) {
  const Operator &op = workload.ops.front();
  const HierCost cost =
      evaluate_hier_mapping(hw, workload, op, mapping, elision, LatencyModel::Roofline);
  const OperatorTensors tensors = operator_tensors(op);
  ASSERT_EQ(cost.levels.size(), hw.hierarchy.levels.size());
  for (size_t l = 0; l < cost.levels.size(); ++l) {
    const std::string &name = hw.hierarchy.levels[l].name;
    SCOPED_TRACE(name);
    ASSERT_TRUE(stats["levels"][name]) << "Timeloop reports no level " << name;
    expect_level(cost.levels[l], mapping, l, tensors, stats["levels"][name]);
  }
  const YAML::Node mac = stats["levels"]["MACC"];
  EXPECT_EQ(cost.macs, stats["macs"].as<double>());
  EXPECT_EQ(cost.utilised_units, mac["utilized_instances"].as<std::int64_t>());
  expect_within_one_cycle(cost.compute_cycles, mac["cycles"].as<double>(), "compute cycles");
  expect_relative(cost.compute_energy_pj, mac["energy_pJ"].as<double>(), "MAC energy");
  expect_relative(cost.energy_pj, stats["energy_pJ_total"].as<double>(), "total energy");
  expect_within_one_cycle(cost.latency_cycles, stats["cycles"].as<double>(), "total cycles");
}

TEST(TimeloopReference, CountsEnergyAndCyclesOfEveryRecord) {
  const std::vector<YAML::Node> records = timeloop_reference_records();
  ASSERT_EQ(records.size(), 80u);
  for (const YAML::Node &record : records) {
    SCOPED_TRACE(record["id"].as<std::string>());
    const Hardware hw = load_timeloop_architecture(timeloop_input_path(record, "arch"),
                                                   timeloop_input_path(record, "ert"));
    const Workload workload = load_timeloop_problem(timeloop_input_path(record, "problem"));
    const OpMapping mapping =
        load_timeloop_mapping(timeloop_input_path(record, "map"), hw, workload);
    const std::optional<std::string> violation =
        hier_mapping_violation(hw, workload, workload.ops.front(), mapping);
    ASSERT_FALSE(violation.has_value()) << *violation;
    for (const bool elision : {true, false}) {
      SCOPED_TRACE(elision ? "first-read elision on" : "first-read elision off");
      expect_statistics(hw, workload, mapping, elision,
                        record[elision ? "stats" : "stats_no_first_read_elision"]);
    }
  }
}

} // namespace
} // namespace dse
