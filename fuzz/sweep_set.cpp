// Fuzz target: sweep `--set` expressions, one per line, through parse_sweep_axis and sweep_grid,
// with the first configuration applied to an accelerator with a PE array and the last to one
// with a vector unit and DMA units (both as in hw_configs/, without the comments that only
// slow the campaign down).
#include <sstream>

#include "dse/config/hardware_parameters.hpp"
#include "fuzz_input.hpp"

namespace {

/// At most this many `--set` lines are read: more only multiply the grid.
constexpr int kMaxAxes = 4;

constexpr const char *kPeArray = R"(name: pe
clock_ghz: 1.0
word_bytes: 2
pe_array: {rows: 32, cols: 32, mac_energy_pj: 1.5}
levels:
  - {name: DRAM, bandwidth_gbps: 60, read_energy_pj: 320.0, write_energy_pj: 320.0}
  - {name: GlobalBuffer, capacity_kib: 1024, bandwidth_words_per_cycle: 64,
     read_energy_pj: 25.0, write_energy_pj: 25.0, double_buffering: false}
  - {name: RegFile, capacity_words: 64, read_energy_pj: 1.5, write_energy_pj: 1.5}
)";

constexpr const char *kVector = R"(name: vec
clock_ghz: 1.8
word_bytes: 8
cores: 4
vector: {lanes: 16, fma_units: 3, fma_energy_pj: 18.4}
levels:
  - {name: DDR, bandwidth_gbps: 42.7, read_energy_pj: 1280.0, write_energy_pj: 1280.0}
  - {name: GSM, capacity_kib: 8192, bandwidth_words_per_cycle: 64,
     read_energy_pj: 283.0, write_energy_pj: 283.0, double_buffering: true}
  - {name: AM, capacity_words: 98304, read_energy_pj: 87.0, write_energy_pj: 87.0}
dma_units:
  - {name: dma0, direction: both, bandwidth_gbps: 10}
  - {name: dma1, direction: load, bandwidth_gbps: 20}
  - {name: dma2, direction: store, bandwidth_gbps: 5}
)";

std::vector<dse::SweepAxis> parse_axes(const std::string &text) {
  std::vector<dse::SweepAxis> axes;
  std::istringstream lines(text);
  std::string spec;
  while (static_cast<int>(axes.size()) < kMaxAxes && std::getline(lines, spec))
    axes.push_back(dse::parse_sweep_axis(spec));
  return axes;
}

void apply(const std::string &text) {
  const auto grid = dse::sweep_grid(parse_axes(text));
  dse::parse_hardware_with(kPeArray, "pe.yaml", grid.front());
  dse::parse_hardware_with(kVector, "vec.yaml", grid.back());
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "", apply);
}
