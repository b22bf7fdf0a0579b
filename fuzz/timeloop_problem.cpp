// Fuzz target: a Timeloop problem through timeloop_sections (how `dse eval` recognises it) and
// parse_timeloop_problem.
#include "dse/config/timeloop_loader.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-problem.yaml", [](const std::string &text) {
    dse::timeloop_sections(text, "fuzz-problem.yaml");
    dse::parse_timeloop_problem(text, "fuzz-problem.yaml");
  });
}
