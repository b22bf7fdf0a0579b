// Fuzz target: mapping YAML for a hierarchy of any depth through parse_hier_mapping on the
// shipped a16-timeloop accelerator and gemm-256 workload, then, as `dse eval` does, each
// segment's legality check and evaluation.
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "fuzz_input.hpp"
#include "hier_evaluation.hpp"
#include "shipped_files.hpp"

namespace {

void evaluate(const std::string &text) {
  static const dse::Hardware hw =
      dse::load_hardware(dse::fuzz::shipped_path("hw_configs/a16-timeloop.yaml").string());
  static const dse::Workload workload =
      dse::load_workload(dse::fuzz::shipped_path("workloads/gemm-256.yaml").string());
  for (const dse::HierSegmentMapping &s :
       dse::parse_hier_mapping(text, "fuzz-hier-mapping.yaml", hw, workload))
    dse::fuzz::check_and_evaluate(hw, workload, workload.ops[static_cast<size_t>(s.op)], s.mapping);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-hier-mapping.yaml", evaluate);
}
