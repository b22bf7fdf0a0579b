// Tests of the `mapspace` list of the general hardware form (src/config/hierarchy_loader.cpp,
// docs/HIERARCHY.md §2.2): the rules read, and one test per error message with its exact
// file:line:col.
#include "dse/config/hardware_loader.hpp"

#include <gtest/gtest.h>

#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::error_what;
using testing::with;

const std::string kConstrained = R"(name: ms
clock_ghz: 1.0
word_bytes: 2
hierarchy:
  - {level: DRAM, bandwidth_gbps: 64, read_energy_pj: 200.0, write_energy_pj: 200.0}
  - {level: GB, capacity_kib: 64, read_energy_pj: 30.0, write_energy_pj: 33.0}
  - {fanout: cores, x: 4}
  - {fanout: mesh, x: 16, y: 16}
  - {level: RF, capacity_words: 32, read_energy_pj: 0.3, write_energy_pj: 0.35,
     holds: [output, operand1]}
compute: {mac_energy_pj: 0.8}
mapspace:
  - {target: GB, factors: {k: 1, m: 4}, order: [n, m]}
  - {target: mesh, x: [n], y: [m, k], one_axis_per_dim: true, min_utilisation: 0.5}
  - {target: RF, keep: [output, Z], bypass: [operand0, B]}
)";

std::string error_of(const std::string &yaml) {
  return error_what([&] { parse_hardware(yaml, "hw.yaml"); });
}

std::vector<std::string> names_of(const std::vector<MapspaceName> &names) {
  std::vector<std::string> out;
  for (const MapspaceName &n : names)
    out.push_back(n.name);
  return out;
}

TEST(MapspaceLoader, ReadsLevelAndFanoutRules) {
  const Hierarchy h = parse_hardware(kConstrained, "hw.yaml").hierarchy;
  ASSERT_EQ(h.mapspace.size(), 3U);
  const MapspaceRule &gb = h.mapspace[0];
  EXPECT_TRUE(gb.on_level);
  EXPECT_EQ(gb.level, 1);
  EXPECT_EQ(gb.where.line, 13);
  EXPECT_EQ(gb.where.column, 5);
  ASSERT_EQ(gb.factors.size(), 2U);
  EXPECT_EQ(gb.factors[0].first.name, "k");
  EXPECT_EQ(gb.factors[0].second, 1);
  EXPECT_EQ(gb.factors[1].first.name, "m");
  EXPECT_EQ(gb.factors[1].second, 4);
  EXPECT_EQ(gb.factors[1].first.where.column, 34);
  EXPECT_EQ(names_of(gb.order), (std::vector<std::string>{"n", "m"}));

  const MapspaceRule &mesh = h.mapspace[1];
  EXPECT_FALSE(mesh.on_level);
  EXPECT_EQ(mesh.level, 1);
  EXPECT_EQ(mesh.fanout, 1);
  ASSERT_TRUE(mesh.x && mesh.y);
  EXPECT_EQ(names_of(*mesh.x), (std::vector<std::string>{"n"}));
  EXPECT_EQ(names_of(*mesh.y), (std::vector<std::string>{"m", "k"}));
  EXPECT_TRUE(mesh.one_axis_per_dim);
  EXPECT_DOUBLE_EQ(mesh.min_utilisation, 0.5);

  const MapspaceRule &rf = h.mapspace[2];
  EXPECT_EQ(rf.level, 2);
  EXPECT_EQ(rf.keep_roles, role::kOutput);
  EXPECT_EQ(rf.bypass_roles, role::kOperand0);
  EXPECT_EQ(names_of(rf.keep_tensors), (std::vector<std::string>{"Z"}));
  EXPECT_EQ(names_of(rf.bypass_tensors), (std::vector<std::string>{"B"}));
}

TEST(MapspaceLoader, AbsentAxisListsAllowEveryDimension) {
  const Hierarchy h =
      parse_hardware(with(kConstrained, "x: [n], y: [m, k], ", ""), "hw.yaml").hierarchy;
  EXPECT_FALSE(h.mapspace[1].x);
  EXPECT_FALSE(h.mapspace[1].y);
}

TEST(MapspaceLoader, UnknownTarget) {
  EXPECT_EQ(error_of(with(kConstrained, "{target: GB,", "{target: L3,")),
            "hw.yaml:13:14: error: mapspace[0]: target 'L3' is not a level or fan-out of the "
            "hierarchy");
}

TEST(MapspaceLoader, MissingTarget) {
  EXPECT_EQ(error_of(with(kConstrained, "{target: GB, ", "{")),
            "hw.yaml:13:5: error: mapspace[0]: missing required key 'target'");
}

TEST(MapspaceLoader, FanoutKeyOnALevel) {
  EXPECT_EQ(error_of(with(kConstrained, "order: [n, m]", "x: [n]")),
            "hw.yaml:13:41: error: unknown key 'x' in mapspace constraint on level 'GB' (expected "
            "one of: target, keep, bypass, factors, order)");
}

TEST(MapspaceLoader, LevelKeyOnAFanout) {
  EXPECT_EQ(error_of(with(kConstrained, "min_utilisation: 0.5", "keep: [output]")),
            "hw.yaml:14:63: error: unknown key 'keep' in mapspace constraint on fan-out 'mesh' "
            "(expected one of: target, x, y, one_axis_per_dim, min_utilisation)");
}

TEST(MapspaceLoader, WrongTypes) {
  EXPECT_EQ(error_of(with(kConstrained, "one_axis_per_dim: true", "one_axis_per_dim: 3")),
            "hw.yaml:14:57: error: mapspace constraint on fan-out 'mesh': key 'one_axis_per_dim' "
            "must be true or false, got '3'");
  EXPECT_EQ(error_of(with(kConstrained, "m: 4}", "m: four}")),
            "hw.yaml:13:37: error: mapspace constraint on level 'GB': key 'factors' must be an "
            "integer, got 'four'");
  EXPECT_EQ(error_of(with(kConstrained, "order: [n, m]", "order: n")),
            "hw.yaml:13:48: error: mapspace constraint on level 'GB': key 'order' must be a list, "
            "got 'n'");
  EXPECT_EQ(error_of(with(kConstrained, "factors: {k: 1, m: 4}", "factors: [k]")),
            "hw.yaml:13:27: error: mapspace constraint on level 'GB': key 'factors' must be a map, "
            "got a list");
}

TEST(MapspaceLoader, FactorBelowOne) {
  EXPECT_EQ(error_of(with(kConstrained, "k: 1,", "k: 0,")),
            "hw.yaml:13:31: error: mapspace constraint on level 'GB': factors must be a positive "
            "integer, got 0");
}

TEST(MapspaceLoader, NameListedTwice) {
  EXPECT_EQ(error_of(with(kConstrained, "order: [n, m]", "order: [n, n]")),
            "hw.yaml:13:52: error: mapspace constraint on level 'GB': order names 'n' twice");
}

TEST(MapspaceLoader, KeepAndBypassNameTheSameRole) {
  EXPECT_EQ(error_of(with(kConstrained, "bypass: [operand0, B]", "bypass: [output, B]")),
            "hw.yaml:15:46: error: mapspace constraint on level 'RF': keep and bypass both name "
            "'output'");
}

TEST(MapspaceLoader, KeepARoleTheLevelMayNotHold) {
  EXPECT_EQ(
      error_of(with(kConstrained, "keep: [output, Z], bypass: [operand0, B]", "keep: [operand0]")),
      "hw.yaml:15:24: error: mapspace constraint on level 'RF': keep names operand0, which "
      "the level may not hold (its holds: output, operand1)");
}

TEST(MapspaceLoader, KeepOnTheBackingStore) {
  EXPECT_EQ(error_of(with(kConstrained, "{target: GB,", "{target: DRAM, keep: [output],")),
            "hw.yaml:13:20: error: mapspace constraint on level 'DRAM': the backing store keeps "
            "every tensor; keep and bypass apply to on-chip levels");
}

TEST(MapspaceLoader, MinUtilisationOutOfRange) {
  EXPECT_EQ(error_of(with(kConstrained, "min_utilisation: 0.5", "min_utilisation: 1.5")),
            "hw.yaml:14:80: error: mapspace constraint on fan-out 'mesh': min_utilisation must be "
            "between 0 and 1, got 1.5");
  EXPECT_EQ(error_of(with(kConstrained, "min_utilisation: 0.5", "min_utilisation: -0.1")),
            "hw.yaml:14:80: error: mapspace constraint on fan-out 'mesh': min_utilisation must be "
            "non-negative, got -0.1");
}

TEST(MapspaceLoader, TwoRulesOnOneTarget) {
  EXPECT_EQ(error_of(kConstrained + "  - {target: GB, order: [m]}\n"),
            "hw.yaml:16:14: error: mapspace constraint on level 'GB': target 'GB' already has a "
            "mapspace constraint, at line 13");
}

TEST(MapspaceLoader, NotAList) {
  const std::string yaml = kConstrained.substr(0, kConstrained.find("mapspace:"));
  EXPECT_EQ(error_of(yaml + "mapspace: {target: GB}\n"),
            "hw.yaml:12:11: error: key 'mapspace' must be a list, got a map");
}

TEST(MapspaceLoader, LegacyCountingTakesNoMapspace) {
  const std::string legacy = R"(name: legacy
clock_ghz: 1.0
word_bytes: 2
counting: legacy
hierarchy:
  - {level: DRAM, bandwidth_gbps: 60, read_energy_pj: 320.0, write_energy_pj: 320.0}
  - {level: GlobalBuffer, capacity_kib: 1024, read_energy_pj: 25.0, write_energy_pj: 25.0}
  - {fanout: array, x: 32, y: 32}
compute: {mac_energy_pj: 1.5}
mapspace:
  - {target: array, one_axis_per_dim: true}
)";
  EXPECT_EQ(error_of(legacy), "hw.yaml:10:1: error: mapspace constraints need counting: timeloop "
                              "(the legacy search does not read them)");
}

TEST(MapspaceLoader, TodaysFormTakesNoMapspace) {
  const std::string today = R"(name: today
clock_ghz: 1.0
word_bytes: 2
pe_array: {rows: 8, cols: 4, mac_energy_pj: 0.5}
levels:
  - {name: DRAM, bandwidth_gbps: 16, read_energy_pj: 100, write_energy_pj: 100}
  - {name: GlobalBuffer, capacity_words: 4096, read_energy_pj: 2, write_energy_pj: 3}
mapspace: []
)";
  EXPECT_EQ(error_of(today).rfind("hw.yaml:8:1: error: unknown key 'mapspace' at the top level", 0),
            0U);
}

} // namespace
} // namespace dse
