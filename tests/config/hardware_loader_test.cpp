// Tests of src/config/hardware_loader.cpp: the accepted format and one test per error message,
// each checking the exact file:line:col.
#include "dse/config/hardware_loader.hpp"

#include <gtest/gtest.h>

#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::error_message;
using testing::throws_at;
using testing::with;

const std::string kBase = R"(name: test-hw
clock_ghz: 1.0
word_bytes: 2
pe_array: {rows: 32, cols: 32, mac_energy_pj: 0.5}
levels:
  - {name: DRAM, bandwidth_gbps: 60, read_energy_pj: 100, write_energy_pj: 100}
  - {name: GlobalBuffer, capacity_kib: 1024, read_energy_pj: 2, write_energy_pj: 2}
  - {name: RegFile, capacity_words: 64, read_energy_pj: 0.1, write_energy_pj: 0.1}
)";

::testing::AssertionResult fails(const std::string &yaml, const std::string &line_col,
                                 const std::string &message) {
  return throws_at([&] { parse_hardware(yaml, "hw.yaml"); }, "hw.yaml:" + line_col, message);
}

TEST(HardwareLoader, ParsesAllFields) {
  const Hardware hw = parse_hardware(
      with(kBase, "name: test-hw", "name: test-hw\nsource: \"Horowitz\"\ncores: 4"), "hw.yaml");
  EXPECT_EQ(hw.name, "test-hw");
  EXPECT_EQ(hw.source, "Horowitz");
  EXPECT_EQ(hw.source_file, "hw.yaml");
  EXPECT_DOUBLE_EQ(hw.clock_ghz, 1.0);
  EXPECT_EQ(hw.word_bytes, 2);
  EXPECT_EQ(hw.cores, 4);
  EXPECT_EQ(hw.array.rows, 32);
  EXPECT_EQ(hw.array.cols, 32);
  EXPECT_DOUBLE_EQ(hw.array.mac_energy_pj, 0.5);
  EXPECT_FALSE(hw.array.is_vector);
  ASSERT_EQ(hw.levels.size(), 3u);
  EXPECT_EQ(hw.dram().name, "DRAM");
  EXPECT_FALSE(hw.dram().capacity_words.has_value());
  EXPECT_DOUBLE_EQ(*hw.dram().bandwidth_gbps, 60.0);
  EXPECT_DOUBLE_EQ(hw.dram().read_energy_pj, 100.0);
  EXPECT_EQ(hw.gb_capacity_words(), 1024 * 1024 / 2);
  EXPECT_FALSE(hw.gb_words_per_cycle().has_value());
  EXPECT_FALSE(hw.global_buffer().double_buffering);
  ASSERT_NE(hw.register_file(), nullptr);
  EXPECT_EQ(*hw.register_file()->capacity_words, 64);
  EXPECT_DOUBLE_EQ(hw.register_file()->write_energy_pj, 0.1);
}

TEST(HardwareLoader, DefaultsAndOptionalKeys) {
  const std::string two_levels = with(kBase,
                                      "  - {name: RegFile, capacity_words: 64, "
                                      "read_energy_pj: 0.1, write_energy_pj: 0.1}\n",
                                      "");
  const Hardware hw = parse_hardware(
      with(two_levels, "capacity_kib: 1024,",
           "capacity_words: 4096, bandwidth_words_per_cycle: 64, double_buffering: true,"),
      "hw.yaml");
  EXPECT_EQ(hw.cores, 1);
  EXPECT_EQ(hw.source, "");
  EXPECT_EQ(hw.levels.size(), 2u);
  EXPECT_EQ(hw.register_file(), nullptr);
  EXPECT_EQ(hw.gb_capacity_words(), 4096);
  EXPECT_DOUBLE_EQ(*hw.gb_words_per_cycle(), 64.0);
  EXPECT_TRUE(hw.global_buffer().double_buffering);
}

TEST(HardwareLoader, VectorTargetMapsFmaUnitsToRows) {
  const Hardware hw =
      parse_hardware(with(kBase, "pe_array: {rows: 32, cols: 32, mac_energy_pj: 0.5}",
                          "vector: {lanes: 16, fma_units: 3, fma_energy_pj: 1.0}"),
                     "hw.yaml");
  EXPECT_TRUE(hw.array.is_vector);
  EXPECT_EQ(hw.array.rows, 3);
  EXPECT_EQ(hw.array.cols, 16);
  EXPECT_DOUBLE_EQ(hw.array.mac_energy_pj, 1.0);
}

TEST(HardwareLoader, CapacityKibRoundsDownToWholeWords) {
  const Hardware hw = parse_hardware(with(kBase, "capacity_kib: 1024", "capacity_kib: 0.5"), "x");
  EXPECT_EQ(hw.gb_capacity_words(), 256);
}

TEST(HardwareLoader, MissingRequiredKey) {
  EXPECT_TRUE(
      fails(with(kBase, "clock_ghz: 1.0\n", ""), "1:1", "missing required key 'clock_ghz'"));
}

TEST(HardwareLoader, UnknownTopLevelKey) {
  EXPECT_TRUE(fails(with(kBase, "clock_ghz", "clokc_ghz"), "2:1",
                    "unknown key 'clokc_ghz' at the top level (expected one of: name, source"));
}

TEST(HardwareLoader, UnknownLevelKey) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib", "capcity_kib"), "7:26",
                    "unknown key 'capcity_kib' in level 'GlobalBuffer'"));
}

TEST(HardwareLoader, DuplicateKey) {
  EXPECT_TRUE(fails(with(kBase, "word_bytes: 2", "word_bytes: 2\nword_bytes: 4"), "4:1",
                    "duplicate key 'word_bytes'"));
}

TEST(HardwareLoader, ZeroCapacityKib) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024", "capacity_kib: 0"), "7:40",
                    "level 'GlobalBuffer': capacity_kib must be a positive number, got 0"));
}

TEST(HardwareLoader, CapacityKibBelowOneWord) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024", "capacity_kib: 0.001"), "7:40",
                    "capacity_kib 0.001 holds less than one 2-byte word"));
}

TEST(HardwareLoader, CapacityKibTooLarge) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024", "capacity_kib: 1e12"), "7:40",
                    "capacity_kib must be at most 2147483648, got 1e12"));
}

TEST(HardwareLoader, CapacityWordsTooLarge) {
  EXPECT_TRUE(fails(with(kBase, "capacity_words: 64", "capacity_words: 1099511627777"), "8:37",
                    "level 'RegFile': capacity_words must be at most 1099511627776, got "
                    "1099511627777"));
}

TEST(HardwareLoader, CapacityWordsOverflowsInt64) {
  EXPECT_TRUE(fails(with(kBase, "capacity_words: 64", "capacity_words: 99999999999999999999"),
                    "8:37",
                    "capacity_words must be at most 1099511627776, got 99999999999999999999"));
}

TEST(HardwareLoader, BothCapacityKeys) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024,", "capacity_kib: 1024, capacity_words: 8,"),
                    "7:46", "give either 'capacity_kib' or 'capacity_words', not both"));
}

TEST(HardwareLoader, NoCapacityKey) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024, ", ""), "7:5",
                    "level 'GlobalBuffer': missing required key 'capacity_kib' (or "
                    "'capacity_words')"));
}

TEST(HardwareLoader, DramTakesNoCapacity) {
  EXPECT_TRUE(fails(with(kBase, "bandwidth_gbps: 60,", "bandwidth_gbps: 60, capacity_kib: 8,"),
                    "6:38", "the outermost level is unbounded and takes no 'capacity_kib'"));
}

TEST(HardwareLoader, DramNeedsBandwidth) {
  EXPECT_TRUE(fails(with(kBase, "bandwidth_gbps: 60, ", ""), "6:5",
                    "level 'DRAM': missing required key 'bandwidth_gbps'"));
}

TEST(HardwareLoader, ZeroBandwidth) {
  EXPECT_TRUE(fails(with(kBase, "bandwidth_gbps: 60", "bandwidth_gbps: 0"), "6:34",
                    "level 'DRAM': bandwidth_gbps must be a positive number, got 0"));
}

// Rates are bounded on both sides, so that no latency the model computes overflows to infinity
// (a subnormal bandwidth) or vanishes (an enormous clock).
TEST(HardwareLoader, ClockOutOfRange) {
  EXPECT_TRUE(fails(with(kBase, "clock_ghz: 1.0", "clock_ghz: 1e308"), "2:12",
                    "clock_ghz must be between 1e-6 and 1e6 GHz, got 1e308"));
  EXPECT_TRUE(fails(with(kBase, "clock_ghz: 1.0", "clock_ghz: 1e-9"), "2:12",
                    "clock_ghz must be between 1e-6 and 1e6 GHz, got 1e-9"));
}

TEST(HardwareLoader, SubnormalBandwidth) {
  EXPECT_TRUE(fails(with(kBase, "bandwidth_gbps: 60", "bandwidth_gbps: 1e-310"), "6:34",
                    "level 'DRAM': bandwidth_gbps must be between 1e-6 and 1e6 GB/s, got 1e-310"));
  EXPECT_TRUE(fails(
      with(kBase, "capacity_kib: 1024,", "capacity_kib: 1024, bandwidth_words_per_cycle: 4e-320,"),
      "7:73",
      "bandwidth_words_per_cycle must be between 1e-6 and 1e12 words per cycle, "
      "got 4e-320"));
}

TEST(HardwareLoader, ZeroBufferBandwidth) {
  EXPECT_TRUE(fails(with(kBase, "capacity_kib: 1024,",
                         "capacity_kib: 1024, "
                         "bandwidth_words_per_cycle: 0,"),
                    "7:73", "bandwidth_words_per_cycle must be a positive number, got 0"));
}

TEST(HardwareLoader, NegativeEnergy) {
  EXPECT_TRUE(fails(with(kBase, "read_energy_pj: 2,", "read_energy_pj: -1,"), "7:62",
                    "level 'GlobalBuffer': read_energy_pj must be non-negative, got -1"));
}

TEST(HardwareLoader, InfiniteEnergy) {
  EXPECT_TRUE(fails(with(kBase, "read_energy_pj: 100,", "read_energy_pj: .inf,"), "6:54",
                    "read_energy_pj must be a finite number, got .inf"));
}

TEST(HardwareLoader, OverflowingNumberIsNotFinite) {
  EXPECT_TRUE(fails(with(kBase, "clock_ghz: 1.0", "clock_ghz: 1e999"), "2:12",
                    "clock_ghz must be a finite number, got 1e999"));
}

TEST(HardwareLoader, NegativeMacEnergy) {
  EXPECT_TRUE(fails(with(kBase, "mac_energy_pj: 0.5", "mac_energy_pj: -0.5"), "4:47",
                    "pe_array: mac_energy_pj must be non-negative, got -0.5"));
}

TEST(HardwareLoader, NotAnInteger) {
  EXPECT_TRUE(fails(with(kBase, "rows: 32", "rows: abc"), "4:18",
                    "pe_array: key 'rows' must be an integer, got 'abc'"));
}

TEST(HardwareLoader, FractionIsNotAnInteger) {
  EXPECT_TRUE(fails(with(kBase, "cols: 32", "cols: 1.5"), "4:28",
                    "key 'cols' must be an integer, got '1.5'"));
}

TEST(HardwareLoader, QuotedNumberIsAString) {
  EXPECT_TRUE(fails(with(kBase, "rows: 32", "rows: \"32\""), "4:18",
                    "key 'rows' must be an integer, got \"32\""));
}

TEST(HardwareLoader, ZeroRows) {
  EXPECT_TRUE(fails(with(kBase, "rows: 32", "rows: 0"), "4:18",
                    "pe_array: rows must be a positive integer, got 0"));
}

TEST(HardwareLoader, WordBytesOutOfRange) {
  EXPECT_TRUE(fails(with(kBase, "word_bytes: 2", "word_bytes: 32"), "3:13",
                    "word_bytes must be at most 16, got 32"));
}

TEST(HardwareLoader, ClockNotANumber) {
  EXPECT_TRUE(fails(with(kBase, "clock_ghz: 1.0", "clock_ghz: fast"), "2:12",
                    "key 'clock_ghz' must be a number, got 'fast'"));
}

TEST(HardwareLoader, ZeroClock) {
  EXPECT_TRUE(fails(with(kBase, "clock_ghz: 1.0", "clock_ghz: 0.0"), "2:12",
                    "clock_ghz must be a positive number, got 0.0"));
}

TEST(HardwareLoader, ZeroCores) {
  EXPECT_TRUE(fails(with(kBase, "word_bytes: 2", "word_bytes: 2\ncores: 0"), "4:8",
                    "cores must be a positive integer, got 0"));
}

TEST(HardwareLoader, BothArrayAndVector) {
  EXPECT_TRUE(fails(with(kBase, "levels:",
                         "vector: {lanes: 16, fma_units: 3, fma_energy_pj: 1}\n"
                         "levels:"),
                    "5:1", "give either 'pe_array' or 'vector', not both"));
}

TEST(HardwareLoader, NeitherArrayNorVector) {
  EXPECT_TRUE(fails(with(kBase, "pe_array: {rows: 32, cols: 32, mac_energy_pj: 0.5}\n", ""), "1:1",
                    "missing required key 'pe_array' (or 'vector')"));
}

TEST(HardwareLoader, ArrayNotAMap) {
  EXPECT_TRUE(fails(with(kBase, "{rows: 32, cols: 32, mac_energy_pj: 0.5}", "32"), "4:11",
                    "key 'pe_array' must be a map, got '32'"));
}

TEST(HardwareLoader, MissingMacEnergy) {
  EXPECT_TRUE(fails(with(kBase, ", mac_energy_pj: 0.5", ""), "4:11",
                    "pe_array: missing required key 'mac_energy_pj'"));
}

TEST(HardwareLoader, UnknownVectorKey) {
  EXPECT_TRUE(fails(with(kBase, "pe_array: {rows: 32, cols: 32, mac_energy_pj: 0.5}",
                         "vector: {lanes: 16, fmas: 3, fma_energy_pj: 1.0}"),
                    "4:21", "unknown key 'fmas' in vector (expected one of: lanes, fma_units"));
}

TEST(HardwareLoader, TooManyLevels) {
  const std::string extra = "  - {name: L0, capacity_words: 8, read_energy_pj: 0, "
                            "write_energy_pj: 0}\n";
  EXPECT_TRUE(fails(kBase + extra, "6:3",
                    "levels must list 2 or 3 levels (DRAM, global buffer, optional register "
                    "file), got 4"));
}

TEST(HardwareLoader, LevelsNotAList) {
  EXPECT_TRUE(fails("name: x\nclock_ghz: 1\nword_bytes: 2\n"
                    "pe_array: {rows: 1, cols: 1, mac_energy_pj: 1}\nlevels: {a: 1}\n",
                    "5:9", "key 'levels' must be a list, got a map"));
}

TEST(HardwareLoader, LevelNotAMap) {
  EXPECT_TRUE(fails(with(kBase,
                         "{name: DRAM, bandwidth_gbps: 60, read_energy_pj: 100, "
                         "write_energy_pj: 100}",
                         "DRAM"),
                    "6:5", "levels[0]: expected a map of keys, got 'DRAM'"));
}

TEST(HardwareLoader, LevelWithoutName) {
  EXPECT_TRUE(fails(with(kBase, "name: GlobalBuffer, ", ""), "7:5",
                    "levels[1]: missing required key 'name'"));
}

TEST(HardwareLoader, EmptyName) {
  EXPECT_TRUE(
      fails(with(kBase, "name: test-hw", "name: \"\""), "1:7", "key 'name' must not be empty"));
}

TEST(HardwareLoader, NameNotAString) {
  EXPECT_TRUE(fails(with(kBase, "name: test-hw", "name: [a, b]"), "1:7",
                    "key 'name' must be a string, got a list"));
}

TEST(HardwareLoader, DuplicateLevelName) {
  EXPECT_TRUE(
      fails(with(kBase, "name: RegFile", "name: DRAM"), "8:12", "duplicate level name 'DRAM'"));
}

TEST(HardwareLoader, RegisterFileNeedsCapacityWords) {
  EXPECT_TRUE(fails(with(kBase, "capacity_words: 64, ", ""), "8:5",
                    "level 'RegFile': missing required key 'capacity_words'"));
}

TEST(HardwareLoader, RegisterFileTakesNoCapacityKib) {
  EXPECT_TRUE(fails(with(kBase, "capacity_words: 64", "capacity_kib: 1"), "8:21",
                    "unknown key 'capacity_kib' in level 'RegFile'"));
}

TEST(HardwareLoader, BadBoolean) {
  EXPECT_TRUE(
      fails(with(kBase, "write_energy_pj: 2}", "write_energy_pj: 2, double_buffering: maybe}"),
            "7:103", "key 'double_buffering' must be true or false, got 'maybe'"));
}

TEST(HardwareLoader, TopLevelNotAMap) {
  EXPECT_TRUE(fails("- a\n- b\n", "1:1", "expected a map of keys, got a list"));
}

TEST(HardwareLoader, MalformedYaml) {
  EXPECT_TRUE(fails(with(kBase, "mac_energy_pj: 0.5}", "mac_energy_pj: 0.5"), "5:7",
                    "invalid yaml: end of map flow not found"));
}

TEST(HardwareLoader, EmptyFile) {
  EXPECT_TRUE(
      throws_at([] { parse_hardware("# nothing\n", "hw.yaml"); }, "hw.yaml", "the file is empty"));
}

TEST(HardwareLoader, TwoDocuments) {
  EXPECT_TRUE(fails(kBase + "---\nname: other\n", "10:1", "expected one yaml document, got 2"));
}

// DMA units (docs/DESIGN.md §3.1): lines 9-12 of kDma.
const std::string kDma = kBase + R"(dma_units:
  - {name: ld, direction: load, bandwidth_gbps: 8}
  - {name: st, direction: store, bandwidth_gbps: 4}
  - {name: io, direction: both, bandwidth_gbps: 2}
)";

TEST(HardwareLoader, ParsesDmaUnitsInFileOrder) {
  const Hardware hw = parse_hardware(kDma, "hw.yaml");
  ASSERT_EQ(hw.dma_units.size(), 3u);
  EXPECT_EQ(hw.dma_units[0].name, "ld");
  EXPECT_EQ(hw.dma_units[0].direction, DmaDirection::Load);
  EXPECT_DOUBLE_EQ(hw.dma_units[0].bandwidth_gbps, 8.0);
  EXPECT_EQ(hw.dma_units[1].direction, DmaDirection::Store);
  EXPECT_EQ(hw.dma_units[2].direction, DmaDirection::Both);
  EXPECT_TRUE(hw.dma_units[2].loads() && hw.dma_units[2].stores());
  EXPECT_FALSE(hw.dma_units[0].stores());
  EXPECT_FALSE(hw.dma_units[1].loads());
  EXPECT_DOUBLE_EQ(hw.dma_words_per_cycle(hw.dma_units[0]), 4.0); // 8 GB/s, 1 GHz, 2-byte words
}

TEST(HardwareLoader, NoDmaUnitsByDefault) {
  EXPECT_TRUE(parse_hardware(kBase, "hw.yaml").dma_units.empty());
}

TEST(HardwareLoader, OneBidirectionalDmaUnitSuffices) {
  const Hardware hw = parse_hardware(
      kBase + "dma_units:\n  - {name: dma, direction: both, bandwidth_gbps: 1e6}\n", "hw.yaml");
  ASSERT_EQ(hw.dma_units.size(), 1u);
  EXPECT_DOUBLE_EQ(hw.dma_units[0].bandwidth_gbps, 1e6);
}

TEST(HardwareLoader, DmaUnitsNotAList) {
  EXPECT_TRUE(fails(kBase + "dma_units: {name: ld}\n", "9:12",
                    "key 'dma_units' must be a list, got a map"));
}

TEST(HardwareLoader, EmptyDmaUnits) {
  EXPECT_TRUE(fails(kBase + "dma_units: []\n", "9:12",
                    "dma_units must list at least one unit (or be left out), got an empty list"));
}

TEST(HardwareLoader, DmaUnitNotAMap) {
  EXPECT_TRUE(fails(with(kDma, "{name: st, direction: store, bandwidth_gbps: 4}", "st"), "11:5",
                    "dma_units[1]: expected a map of keys, got 'st'"));
}

TEST(HardwareLoader, DmaUnitWithoutName) {
  EXPECT_TRUE(
      fails(with(kDma, "name: st, ", ""), "11:5", "dma_units[1]: missing required key 'name'"));
}

TEST(HardwareLoader, UnknownDmaUnitKey) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwith_gbps: 4"), "11:34",
                    "unknown key 'bandwith_gbps' in dma unit 'st' (expected one of: name, "
                    "direction, bandwidth_gbps)"));
}

TEST(HardwareLoader, DmaUnitWithoutDirection) {
  EXPECT_TRUE(fails(with(kDma, "direction: store, ", ""), "11:5",
                    "dma unit 'st': missing required key 'direction'"));
}

TEST(HardwareLoader, DmaUnitWithoutBandwidth) {
  EXPECT_TRUE(fails(with(kDma, ", bandwidth_gbps: 4", ""), "11:5",
                    "dma unit 'st': missing required key 'bandwidth_gbps'"));
}

TEST(HardwareLoader, UnknownDmaDirection) {
  EXPECT_TRUE(fails(with(kDma, "direction: store", "direction: write"), "11:27",
                    "dma unit 'st': direction must be load, store or both, got 'write'"));
}

TEST(HardwareLoader, DmaDirectionNotAString) {
  EXPECT_TRUE(fails(with(kDma, "direction: store", "direction: [load, store]"), "11:27",
                    "dma unit 'st': key 'direction' must be a string, got a list"));
}

TEST(HardwareLoader, DmaBandwidthNotANumber) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: fast"), "11:50",
                    "dma unit 'st': key 'bandwidth_gbps' must be a number, got 'fast'"));
}

TEST(HardwareLoader, ZeroDmaBandwidth) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: 0"), "11:50",
                    "dma unit 'st': bandwidth_gbps must be a positive number, got 0"));
}

TEST(HardwareLoader, NegativeDmaBandwidth) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: -4"), "11:50",
                    "dma unit 'st': bandwidth_gbps must be a positive number, got -4"));
}

TEST(HardwareLoader, NonFiniteDmaBandwidth) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: .inf"), "11:50",
                    "dma unit 'st': bandwidth_gbps must be a finite number, got .inf"));
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: .nan"), "11:50",
                    "dma unit 'st': bandwidth_gbps must be a finite number, got .nan"));
}

TEST(HardwareLoader, HugeDmaBandwidth) {
  EXPECT_TRUE(fails(with(kDma, "bandwidth_gbps: 4", "bandwidth_gbps: 2e6"), "11:50",
                    "dma unit 'st': bandwidth_gbps must be between 1e-6 and 1e6 GB/s, got 2e6"));
}

TEST(HardwareLoader, DuplicateDmaUnitName) {
  EXPECT_TRUE(fails(with(kDma, "name: io", "name: ld"), "12:12", "duplicate dma unit name 'ld'"));
}

TEST(HardwareLoader, DmaUnitsThatCannotLoad) {
  EXPECT_TRUE(fails(with(with(kDma, "direction: load", "direction: store"), "direction: both",
                         "direction: store"),
                    "10:3",
                    "dma_units: no unit loads (direction load or both), so DRAM words could "
                    "never reach the global buffer"));
}

TEST(HardwareLoader, DmaUnitsThatCannotStore) {
  EXPECT_TRUE(fails(
      with(with(kDma, "direction: store", "direction: load"), "direction: both", "direction: load"),
      "10:3",
      "dma_units: no unit stores (direction store or both), so results could "
      "never reach DRAM"));
}

TEST(HardwareLoader, MissingFileNamesThePath) {
  EXPECT_EQ(error_message([] { load_hardware("/nonexistent/dir/hw.yaml"); }),
            "cannot read file '/nonexistent/dir/hw.yaml': no such file or directory");
}

} // namespace
} // namespace dse
