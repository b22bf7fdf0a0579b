// Bad hardware files given to `dse explore`: one test per error message, each checking the
// exact text, the exit code and that no output file is written.
#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

class HardwareErrors : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("w.yaml", test_common::gemm_workload("w", 8, 8, 8, "g"));
  }
  /// `dse explore` with `hardware` as hw.yaml fails with "hw.yaml:<message>".
  void expect_hw_error(const std::string &hardware, const std::string &message) const {
    write("hw.yaml", hardware);
    expect_error({"explore", "--hw", "hw.yaml", "--workload", "w.yaml"}, "hw.yaml:" + message);
  }
  std::string hw(const std::string &from, const std::string &to) const {
    return with(kTinyHardware, from, to);
  }
};

TEST_F(HardwareErrors, ValidFileIsAccepted) {
  write("hw.yaml", kTinyHardware);
  run_ok({"explore", "--hw", "hw.yaml", "--workload", "w.yaml"});
}

TEST_F(HardwareErrors, MalformedYaml) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: 1.0: 2"),
                  "2:15: error: invalid yaml: illegal map value");
}

TEST_F(HardwareErrors, EmptyFile) { expect_hw_error("# nothing\n", " error: the file is empty"); }

TEST_F(HardwareErrors, TwoDocuments) {
  expect_hw_error(kTinyHardware + "---\nname: other\n",
                  "9:1: error: expected one yaml document, got 2");
}

TEST_F(HardwareErrors, TopLevelIsNotAMap) {
  expect_hw_error("- a\n- b\n", "1:1: error: expected a map of keys, got a list");
}

TEST_F(HardwareErrors, UnknownTopLevelKey) {
  expect_hw_error(
      hw("word_bytes: 2\n", "word_bytes: 2\nwordbits: 16\n"),
      "4:1: error: unknown key 'wordbits' at the top level (expected one of: name, "
      "source, clock_ghz, word_bytes, cores, pe_array, vector, levels, dma_units, counting, "
      "first_read_elision)");
}

TEST_F(HardwareErrors, UnknownLevelKey) {
  expect_hw_error(hw("capacity_words: 4096,", "capacity_words: 4096, banks: 4,"),
                  "7:48: error: unknown key 'banks' in level 'GlobalBuffer' (expected one of: "
                  "name, capacity_kib, capacity_words, bandwidth_words_per_cycle, read_energy_pj, "
                  "write_energy_pj, double_buffering)");
}

TEST_F(HardwareErrors, DuplicateKey) {
  expect_hw_error(hw("word_bytes: 2\n", "word_bytes: 2\nclock_ghz: 2.0\n"),
                  "4:1: error: duplicate key 'clock_ghz'");
}

TEST_F(HardwareErrors, MissingTopLevelKey) {
  expect_hw_error(hw("clock_ghz: 1.0\n", ""), "1:1: error: missing required key 'clock_ghz'");
}

TEST_F(HardwareErrors, MissingNestedKey) {
  expect_hw_error(hw(", mac_energy_pj: 1.0", ""),
                  "4:11: error: pe_array: missing required key 'mac_energy_pj'");
}

TEST_F(HardwareErrors, MissingComputeArray) {
  expect_hw_error(hw("pe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}\n", ""),
                  "1:1: error: missing required key 'pe_array' (or 'vector')");
}

TEST_F(HardwareErrors, BothComputeArrays) {
  expect_hw_error(hw("levels:", "vector: {lanes: 8, fma_units: 2, fma_energy_pj: 1.0}\nlevels:"),
                  "5:1: error: give either 'pe_array' or 'vector', not both");
}

TEST_F(HardwareErrors, MissingCapacity) {
  expect_hw_error(hw("capacity_words: 4096, ", ""),
                  "7:5: error: level 'GlobalBuffer': missing required key 'capacity_kib' (or "
                  "'capacity_words')");
}

TEST_F(HardwareErrors, BothCapacities) {
  expect_hw_error(hw("capacity_words: 4096,", "capacity_kib: 8, capacity_words: 4096,"),
                  "7:43: error: level 'GlobalBuffer': give either 'capacity_kib' or "
                  "'capacity_words', not both");
}

TEST_F(HardwareErrors, CapacityOnDram) {
  expect_hw_error(hw("bandwidth_gbps: 10,", "bandwidth_gbps: 10, capacity_kib: 8,"),
                  "6:38: error: level 'DRAM': the outermost level is unbounded and takes no "
                  "'capacity_kib'");
}

TEST_F(HardwareErrors, TooFewLevels) {
  expect_hw_error(hw("  - {name: GlobalBuffer, capacity_words: 4096, read_energy_pj: 2, "
                     "write_energy_pj: 2}\n",
                     ""),
                  "6:3: error: levels must list 2 or 3 levels (DRAM, global buffer, optional "
                  "register file), got 1");
}

TEST_F(HardwareErrors, DuplicateLevelName) {
  expect_hw_error(hw("name: GlobalBuffer", "name: DRAM"),
                  "7:12: error: duplicate level name 'DRAM'");
}

TEST_F(HardwareErrors, NumberIsText) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: fast"),
                  "2:12: error: key 'clock_ghz' must be a number, got 'fast'");
}

TEST_F(HardwareErrors, NumberIsQuoted) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: \"1.0\""),
                  "2:12: error: key 'clock_ghz' must be a number, got \"1.0\"");
}

TEST_F(HardwareErrors, IntegerIsFractional) {
  expect_hw_error(hw("word_bytes: 2", "word_bytes: 2.5"),
                  "3:13: error: key 'word_bytes' must be an integer, got '2.5'");
}

TEST_F(HardwareErrors, NameIsAList) {
  expect_hw_error(hw("name: tiny", "name: [tiny]"),
                  "1:7: error: key 'name' must be a string, got a list");
}

TEST_F(HardwareErrors, FlagIsNotABoolean) {
  expect_hw_error(hw("write_energy_pj: 2}", "write_energy_pj: 2, double_buffering: yes}"),
                  "7:105: error: level 'GlobalBuffer': key 'double_buffering' must be true or "
                  "false, got 'yes'");
}

TEST_F(HardwareErrors, ArrayIsNotAMap) {
  expect_hw_error(hw("pe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}", "pe_array: 16"),
                  "4:11: error: key 'pe_array' must be a map, got '16'");
}

TEST_F(HardwareErrors, LevelsIsNotAList) {
  expect_hw_error("name: tiny\nclock_ghz: 1.0\nword_bytes: 2\n"
                  "pe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}\nlevels: DRAM\n",
                  "5:9: error: key 'levels' must be a list, got 'DRAM'");
}

TEST_F(HardwareErrors, ZeroClock) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: 0"),
                  "2:12: error: clock_ghz must be a positive number, got 0");
}

TEST_F(HardwareErrors, NegativeClock) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: -1.5"),
                  "2:12: error: clock_ghz must be a positive number, got -1.5");
}

TEST_F(HardwareErrors, ZeroCapacity) {
  expect_hw_error(hw("capacity_words: 4096", "capacity_words: 0"),
                  "7:42: error: level 'GlobalBuffer': capacity_words must be a positive integer, "
                  "got 0");
}

TEST_F(HardwareErrors, NegativeArraySide) {
  expect_hw_error(hw("rows: 4", "rows: -4"),
                  "4:18: error: pe_array: rows must be a positive integer, got -4");
}

TEST_F(HardwareErrors, NegativeEnergy) {
  expect_hw_error(hw("read_energy_pj: 100", "read_energy_pj: -0.5"),
                  "6:54: error: level 'DRAM': read_energy_pj must be non-negative, got -0.5");
}

TEST_F(HardwareErrors, CapacityBelowOneWord) {
  expect_hw_error(hw("capacity_words: 4096", "capacity_kib: 0.001"),
                  "7:40: error: level 'GlobalBuffer': capacity_kib 0.001 holds less than one "
                  "2-byte word");
}

TEST_F(HardwareErrors, NotANumber) {
  expect_hw_error(hw("clock_ghz: 1.0", "clock_ghz: .nan"),
                  "2:12: error: clock_ghz must be a finite number, got .nan");
}

TEST_F(HardwareErrors, InfiniteEnergy) {
  expect_hw_error(hw("write_energy_pj: 100", "write_energy_pj: .inf"),
                  "6:76: error: level 'DRAM': write_energy_pj must be a finite number, got .inf");
}

TEST_F(HardwareErrors, NumberOverflowsDouble) {
  expect_hw_error(hw("bandwidth_gbps: 10", "bandwidth_gbps: 1e999"),
                  "6:34: error: level 'DRAM': bandwidth_gbps must be a finite number, got 1e999");
}

TEST_F(HardwareErrors, HugeArraySide) {
  expect_hw_error(hw("cols: 4", "cols: 99999999999"),
                  "4:27: error: pe_array: cols must be at most 1048576, got 99999999999");
}

TEST_F(HardwareErrors, IntegerOverflowsInt64) {
  expect_hw_error(hw("capacity_words: 4096", "capacity_words: 99999999999999999999"),
                  "7:42: error: level 'GlobalBuffer': capacity_words must be at most "
                  "1099511627776, got 99999999999999999999");
}

TEST_F(HardwareErrors, HugeCapacityKib) {
  expect_hw_error(hw("capacity_words: 4096", "capacity_kib: 1e30"),
                  "7:40: error: level 'GlobalBuffer': capacity_kib must be at most 2147483648, got "
                  "1e30");
}

TEST_F(HardwareErrors, HugeWordSize) {
  expect_hw_error(hw("word_bytes: 2", "word_bytes: 32"),
                  "3:13: error: word_bytes must be at most 16, got 32");
}

TEST_F(HardwareErrors, GlobalBufferTooSmallForAnyMapping) {
  expect_hw_error(hw("capacity_words: 4096", "capacity_words: 1"),
                  " error: global buffer 'GlobalBuffer' holds 1 words, too small for any mapping "
                  "of 'g' in workload 'w' (it needs at least 3 words)");
}

// Finite but huge per-access energies overflow the totals: the front shows energy_pj `inf` in
// CSV and `null` in JSON and every mapping ties. Such values must be rejected where they are
// written, like every other out-of-range value.
TEST_F(HardwareErrors, EnergyTooLargeToSum) {
  write("hw.yaml", hw("read_energy_pj: 100", "read_energy_pj: 1e308"));
  const RunResult r = run({"explore", "--hw", "hw.yaml", "--workload", "w.yaml", "-o", "f.csv"});
  ASSERT_EQ(r.exit_code, 1) << "the front was written:\n" << read("f.csv");
  EXPECT_EQ(r.err.rfind("hw.yaml:6:54: error: level 'DRAM': read_energy_pj ", 0), 0u) << r.err;
  EXPECT_FALSE(exists("f.csv"));
}

} // namespace
} // namespace dse::testing
