// Fuzz target: mapping YAML through parse_mapping, then, as `dse eval` does, resolved against
// the shipped workload it names (the first one otherwise) and evaluated on a shipped accelerator.
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "fuzz_input.hpp"
#include "shipped_files.hpp"

namespace {

const dse::Workload &bound_workload(const dse::MappingSpec &spec) {
  const auto &workloads = dse::fuzz::shipped_workloads();
  const auto named = workloads.find(spec.workload);
  return named != workloads.end() ? named->second : workloads.begin()->second;
}

void evaluate(const std::string &text) {
  static const dse::Hardware hw =
      dse::load_hardware(dse::fuzz::shipped_path("hw_configs/sim-1g-1mb-60gbps.yaml").string());
  const dse::MappingSpec spec = dse::parse_mapping(text, "fuzz-mapping.yaml");
  for (const dse::ResolvedSegment &s : dse::resolve_mapping(bound_workload(spec), spec))
    dse::evaluate_mapping(s.problem, s.candidate, s.tiling, hw, dse::LatencyModel::Roofline);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-mapping.yaml", evaluate);
}
