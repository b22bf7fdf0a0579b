// Fuzz target: a Timeloop mapping through timeloop_sections and parse_timeloop_mapping against
// the architecture, energy table and problem of the reference input a16_M256_N256_K256_00, then,
// as `dse eval` does, the legality check and evaluation.
#include "dse/config/timeloop_loader.hpp"
#include "fuzz_input.hpp"
#include "hier_evaluation.hpp"
#include "shipped_files.hpp"

namespace {

std::string reference_file(const std::string &name) {
  return dse::fuzz::shipped_path("tests/data/timeloop-a16/inputs/a16_M256_N256_K256_00/" + name)
      .string();
}

void evaluate(const std::string &text) {
  static const dse::Hardware hw =
      dse::load_timeloop_architecture(reference_file("arch.yaml"), reference_file("ert.yaml"));
  static const dse::Workload workload = dse::load_timeloop_problem(reference_file("problem.yaml"));
  dse::timeloop_sections(text, "fuzz-map.yaml");
  const dse::OpMapping mapping = dse::parse_timeloop_mapping(text, "fuzz-map.yaml", hw, workload);
  dse::fuzz::check_and_evaluate(hw, workload, workload.ops.front(), mapping);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-map.yaml", evaluate);
}
