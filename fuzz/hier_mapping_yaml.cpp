// Fuzz target: mapping YAML for a hierarchy of any depth through parse_hier_mapping on the
// shipped a16-timeloop accelerator with the gemm-256 workload (one einsum) and the FFN (a chain
// that fuses), then, as `dse eval` does, each segment's legality check and evaluation: a fused
// segment resolved into its pair, evaluated and checked against the capacities.
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "dse/model/fused_hier_resolution.hpp"
#include "fuzz_input.hpp"
#include "hier_evaluation.hpp"
#include "shipped_files.hpp"

namespace {

void evaluate_fused(const dse::Hardware &hw, const dse::Workload &workload,
                    const dse::HierSegmentMapping &s) {
  const dse::FusedHierSegment fused = dse::resolve_fused_hier_segment(hw, workload, s);
  for (const bool elision : {true, false})
    dse::hier_capacity_violation(hw, dse::evaluate_fused_hier_mapping(hw, fused.problem,
                                                                      fused.mapping, elision,
                                                                      dse::LatencyModel::Roofline)
                                         .totals);
}

void evaluate_on(const std::string &text, const dse::Hardware &hw, const dse::Workload &workload) {
  for (const dse::HierSegmentMapping &s :
       dse::parse_hier_mapping(text, "fuzz-hier-mapping.yaml", hw, workload)) {
    if (s.fused)
      evaluate_fused(hw, workload, s);
    else
      dse::fuzz::check_and_evaluate(hw, workload, workload.ops[static_cast<size_t>(s.op)],
                                    s.mapping);
  }
}

void evaluate(const std::string &text) {
  static const dse::Hardware hw =
      dse::load_hardware(dse::fuzz::shipped_path("hw_configs/a16-timeloop.yaml").string());
  static const dse::Workload gemm =
      dse::load_workload(dse::fuzz::shipped_path("workloads/gemm-256.yaml").string());
  static const dse::Workload ffn =
      dse::load_workload(dse::fuzz::shipped_path("workloads/ffn-2048x768x3072x768.yaml").string());
  // A UserError for one workload (most files name one of them) must not hide the other.
  try {
    evaluate_on(text, hw, gemm);
  } catch (const dse::UserError &) {
  }
  evaluate_on(text, hw, ffn);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-hier-mapping.yaml", evaluate);
}
