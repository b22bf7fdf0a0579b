// Fuzz target: hardware YAML through parse_hardware.
#include "dse/config/hardware_loader.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-hw.yaml", [](const std::string &text) {
    dse::parse_hardware(text, "fuzz-hw.yaml");
  });
}
