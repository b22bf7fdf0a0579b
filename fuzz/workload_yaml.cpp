// Fuzz target: workload YAML through parse_workload (einsum parser and binder included).
#include "dse/config/workload_loader.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-workload.yaml", [](const std::string &text) {
    dse::parse_workload(text, "fuzz-workload.yaml");
  });
}
