// Sweep axes (`--set path=...`) and hardware files loaded with swept parameters.
#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "config/expect_error.hpp"
#include "dse/config/hardware_parameters.hpp"
#include "dse/support/error.hpp"

namespace dse {
namespace {

const std::string kHw = test_common::repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kDsp = test_common::repo_file("hw_configs/vector-dsp-4core-8m.yaml");

/// The error of loading `file` with the parameter at `path` set to `value`.
std::string error_with(const std::string &file, const std::string &path, double value) {
  return testing::error_what([&] { load_hardware_with(file, {{path, value}}); });
}

TEST(HardwareParametersTest, GeometricLinearAndListAxes) {
  EXPECT_EQ(parse_sweep_axis("GlobalBuffer.capacity_kib=32..256:x2").values,
            (std::vector<double>{32, 64, 128, 256}));
  EXPECT_EQ(parse_sweep_axis("pe_array.rows=8..20:+4").values,
            (std::vector<double>{8, 12, 16, 20}));
  const SweepAxis list = parse_sweep_axis("DRAM.bandwidth_gbps=60,128");
  EXPECT_EQ(list.path, "DRAM.bandwidth_gbps");
  EXPECT_EQ(list.values, (std::vector<double>{60, 128}));
}

TEST(HardwareParametersTest, GridIsTheCartesianProductLastAxisFastest) {
  const auto grid = sweep_grid({parse_sweep_axis("a=1,2"), parse_sweep_axis("b=3,4,5")});
  ASSERT_EQ(grid.size(), 6u);
  EXPECT_EQ(grid[1][0].value, 1);
  EXPECT_EQ(grid[1][1].value, 4);
  EXPECT_EQ(grid[3][0].value, 2);
}

TEST(HardwareParametersTest, GridSizeIsCheckedBeforeBuildingIt) {
  const SweepAxis wide = parse_sweep_axis("a=1..1000:+1");
  EXPECT_EQ(sweep_grid({wide, parse_sweep_axis("b=1..100:+1")}).size(), 100000u);
  EXPECT_EQ(testing::error_what([&] {
              sweep_grid({wide, parse_sweep_axis("b=1..100000:+1"), parse_sweep_axis("c=1,2")});
            }),
            "error: --set b: the sweep grid has more than 100000 configurations");
}

TEST(HardwareParametersTest, RangeSyntaxErrorsNameTheProblem) {
  EXPECT_EQ(testing::error_what([] { parse_sweep_axis("GlobalBuffer.capacity_kib"); }),
            "error: --set GlobalBuffer.capacity_kib: expected path=values, e.g. "
            "GlobalBuffer.capacity_kib=32..1024:x2");
  EXPECT_EQ(testing::error_what([] { parse_sweep_axis("x=32..64:x1"); }),
            "error: --set x=32..64:x1: a geometric range needs a positive start and a factor "
            "greater than 1");
  EXPECT_EQ(testing::error_what([] { parse_sweep_axis("x=32..64"); }),
            "error: --set x=32..64: a range is 'a..b:xF' or 'a..b:+S'");
  EXPECT_EQ(testing::error_what([] { parse_sweep_axis("x=64..32:+1"); }),
            "error: --set x=64..32:+1: the range ends below its start");
  EXPECT_EQ(testing::error_what([] { parse_sweep_axis("x=1,abc"); }),
            "error: --set x=1,abc: 'abc' is not a number");
}

TEST(HardwareParametersTest, SettingsReplaceFieldsOfLevelsAndSections) {
  const Hardware hw = load_hardware_with(
      kHw, {{"GlobalBuffer.capacity_kib", 64}, {"pe_array.rows", 16}, {"clock_ghz", 2}});
  EXPECT_EQ(hw.gb_capacity_words(), 64 * 1024 / 2);
  EXPECT_EQ(hw.array.rows, 16);
  EXPECT_EQ(hw.clock_ghz, 2);
}

TEST(HardwareParametersTest, UnknownPathsAndInvalidValuesFailClearly) {
  EXPECT_EQ(error_with(kHw, "Cache.capacity_kib", 1),
            kHw + ": error: unknown parameter path 'Cache.capacity_kib': no section or level "
                  "named 'Cache'");
  EXPECT_EQ(error_with(kHw, "speed", 1),
            kHw + ": error: unknown parameter path 'speed': no numeric top-level key of that name");
  EXPECT_NE(
      error_with(kHw, "GlobalBuffer.capacity_kib", 0).find("(with GlobalBuffer.capacity_kib=0)"),
      std::string::npos);
  EXPECT_NE(error_with(kHw, "GlobalBuffer.capacty_kib", 4).find("unknown key 'capacty_kib'"),
            std::string::npos);
}

TEST(HardwareParametersTest, DmaUnitBandwidthIsAParameter) {
  EXPECT_EQ(parse_sweep_axis("dma_units.dma0.bandwidth_gbps=5..20:x2").values,
            (std::vector<double>{5, 10, 20}));
  const Hardware hw = load_hardware_with(kDsp, {{"dma_units.dma2.bandwidth_gbps", 5.5}});
  ASSERT_EQ(hw.dma_units.size(), 4u);
  EXPECT_EQ(hw.dma_units[2].bandwidth_gbps, 5.5);
  EXPECT_EQ(hw.dma_units[1].bandwidth_gbps, 10);
  EXPECT_EQ(hw.dma_units[2].direction, DmaDirection::Both);
}

TEST(HardwareParametersTest, DmaUnitPathsAndValuesFailClearly) {
  EXPECT_EQ(error_with(kDsp, "dma_units.dma9.bandwidth_gbps", 1),
            kDsp + ": error: unknown parameter path 'dma_units.dma9.bandwidth_gbps': no dma unit "
                   "named 'dma9'");
  EXPECT_EQ(error_with(kHw, "dma_units.dma0.bandwidth_gbps", 1),
            kHw + ": error: unknown parameter path 'dma_units.dma0.bandwidth_gbps': no dma unit "
                  "named 'dma0'");
  EXPECT_EQ(error_with(kDsp, "dma_units.bandwidth_gbps", 1),
            kDsp + ": error: unknown parameter path 'dma_units.bandwidth_gbps': expected "
                   "dma_units.<unit name>.<field>");
  const std::string zero = error_with(kDsp, "dma_units.dma1.bandwidth_gbps", 0);
  EXPECT_NE(zero.find("dma unit 'dma1': bandwidth_gbps must be a positive number, got 0 (with "
                      "dma_units.dma1.bandwidth_gbps=0)"),
            std::string::npos)
      << zero;
}

TEST(HardwareParametersTest, AFileThatIsNotAMapFailsBeforeAnyParameterIsSet) {
  EXPECT_EQ(testing::error_what([] {
              parse_hardware_with("42\n", "h.yaml", {{"clock_ghz", 1}});
            }),
            "h.yaml:1:1: error: expected a map of keys, got '42'");
  EXPECT_EQ(testing::error_what([] {
              parse_hardware_with("[1, 2]\n", "h.yaml", {{"pe_array.rows", 8}});
            }),
            "h.yaml:1:1: error: expected a map of keys, got a list");
}

TEST(HardwareParametersTest, SweptValuesPassTheSameRangeChecks) {
  EXPECT_EQ(error_with(kHw, "clock_ghz", 1e308),
            kHw + ": error: clock_ghz must be between 1e-6 and 1e6 GHz, got 1e+308 (with "
                  "clock_ghz=1e+308)");
}

} // namespace
} // namespace dse
