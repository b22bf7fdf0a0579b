// Parameter paths into hardware files in the general form (`hierarchy:`): level fields by the
// level's name, fan-out sides by the fan-out's name, top-level numbers and sections, and the
// errors that list what such a file has.
#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "config/expect_error.hpp"
#include "dse/config/hardware_parameters.hpp"
#include "dse/support/error.hpp"

namespace dse {
namespace {

const std::string kA16 = test_common::repo_file("hw_configs/a16-timeloop.yaml");
const std::string kNames = " (levels: DRAM, GlobalBuffer, RegisterFile; fan-outs: PE; sections: "
                           "compute; top-level: clock_ghz, word_bytes)";

std::string error_with(const std::string &path, double value) {
  return testing::error_what([&] { load_hardware_with(kA16, {{path, value}}); });
}

TEST(HierParametersTest, LevelFanoutTopLevelAndSectionFields) {
  const Hardware hw = load_hardware_with(kA16, {{"GlobalBuffer.capacity_words", 8},
                                                {"RegisterFile.read_energy_pj", 0.25},
                                                {"PE.x", 8},
                                                {"PE.y", 4},
                                                {"clock_ghz", 2},
                                                {"compute.mac_energy_pj", 0.5}});
  const Hierarchy &h = hw.hierarchy;
  EXPECT_EQ(h.levels[1].capacity_words, 8);
  EXPECT_EQ(h.levels[2].read_pj, 0.25);
  EXPECT_EQ(h.fanouts[1][0].x, 8);
  EXPECT_EQ(h.fanouts[1][0].y, 4);
  EXPECT_EQ(h.instances(2), 32);
  EXPECT_EQ(hw.clock_ghz, 2);
  EXPECT_EQ(h.mac_pj, 0.5);
}

TEST(HierParametersTest, AlternativeSpellingsReplaceEachOther) {
  // capacity_kib replaces capacity_words; the backing store's bandwidth in GB/s replaces its
  // words per cycle (4 GB/s at 1 GHz and 2-byte words: 2 words per cycle).
  const Hardware hw =
      load_hardware_with(kA16, {{"GlobalBuffer.capacity_kib", 1}, {"DRAM.bandwidth_gbps", 4}});
  EXPECT_EQ(hw.hierarchy.levels[1].capacity_words, 512);
  EXPECT_EQ(hw.hierarchy.levels[0].shared_words_per_cycle, 2);
  EXPECT_EQ(
      load_hardware_with(kA16, {{"DRAM.bandwidth_gbps", 4}, {"DRAM.bandwidth_words_per_cycle", 8}})
          .hierarchy.levels[0]
          .shared_words_per_cycle,
      8);
}

TEST(HierParametersTest, UnknownNamesListWhatTheFileHas) {
  EXPECT_EQ(error_with("Cache.capacity_words", 1),
            kA16 +
                ": error: unknown parameter path 'Cache.capacity_words': no section, level or "
                "fan-out named 'Cache'" +
                kNames);
  EXPECT_EQ(error_with("speed", 1),
            kA16 +
                ": error: unknown parameter path 'speed': no numeric top-level key of that "
                "name" +
                kNames);
}

TEST(HierParametersTest, UnknownFieldsAndBadValuesFailAsInTheFile) {
  EXPECT_EQ(error_with("PE.z", 2),
            kA16 + ": error: unknown key 'z' in fan-out 'PE' (expected one of: fanout, x, y, "
                   "multicast, reduction) (with PE.z=2)");
  EXPECT_EQ(error_with("PE.x", 0),
            kA16 + ": error: fan-out 'PE': x must be a positive integer, got 0 (with PE.x=0)");
  EXPECT_EQ(error_with("DRAM.capacity_words", 4),
            kA16 + ": error: level 'DRAM': the outermost level is unbounded and takes no "
                   "'capacity_words' (with DRAM.capacity_words=4)");
}

TEST(HierParametersTest, TodaysFormCountedByTheGeneralRulesKeepsTodaysPaths) {
  const std::string text = "name: t\nclock_ghz: 1.0\nword_bytes: 2\ncounting: timeloop\n"
                           "pe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}\n"
                           "levels:\n"
                           "  - {name: DRAM, bandwidth_gbps: 10, read_energy_pj: 100, "
                           "write_energy_pj: 100}\n"
                           "  - {name: GB, capacity_words: 4096, read_energy_pj: 2, "
                           "write_energy_pj: 2}\n";
  const Hardware hw = parse_hardware_with(text, "h.yaml", {{"GB.capacity_words", 64}});
  EXPECT_FALSE(hw.is_legacy());
  EXPECT_EQ(hw.hierarchy.levels[1].capacity_words, 64);
  EXPECT_EQ(testing::error_what([&] {
              parse_hardware_with(text, "h.yaml", {{"L9.x", 1}});
            }),
            "h.yaml: error: unknown parameter path 'L9.x': no section or level named 'L9'");
}

} // namespace
} // namespace dse
