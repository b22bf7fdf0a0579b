// `dse eval`: the full breakdown of one user-specified mapping, as text or JSON. Hardware in
// today's form is evaluated by the legacy model; a general hierarchy (or a Timeloop architecture,
// problem and mapping) by the per-level model of docs/HIERARCHY.md §4, each softmax or
// elementwise operator as a vector pass after its einsum, a fused pair as one segment (§8).
#include <algorithm>

#include "dse/cli/commands.hpp"
#include "dse/cli/eval_report.hpp"
#include "dse/cli/hier_eval_report.hpp"
#include "dse/cli/input_files.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "dse/model/fused_hier_resolution.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/mapping_resolution.hpp"

namespace dse {

namespace {

/// The report of a fused segment, after its legality and capacity checks.
HierSegmentReport fused_report(const Hardware &hw, const Workload &workload,
                               const HierSegmentMapping &s, bool elision, LatencyModel model) {
  const FusedHierSegment fused = resolve_fused_hier_segment(hw, workload, s);
  const FusedHierCost cost =
      evaluate_fused_hier_mapping(hw, fused.problem, fused.mapping, elision, model);
  if (const std::optional<std::string> why = hier_capacity_violation(hw, cost.totals))
    throw UserError(s.where, *why);
  HierSegmentReport r;
  r.ops = {&workload.ops[static_cast<size_t>(s.op)],
           &workload.ops[static_cast<size_t>(s.fused->consumer)]};
  for (const ProblemTensor &t : fused.problem.tensors)
    r.tensors.push_back(t.name);
  r.cost = cost.totals;
  r.fused_vector_ops = cost.vector_ops;
  return r;
}

/// The report of a single einsum's segment, after its legality and capacity checks.
HierSegmentReport einsum_segment_report(const Hardware &hw, const Workload &workload,
                                        const HierSegmentMapping &s, bool elision,
                                        LatencyModel model) {
  const Operator &op = workload.ops[static_cast<size_t>(s.op)];
  if (const std::optional<std::string> why = hier_mapping_violation(hw, workload, op, s.mapping))
    throw UserError(s.where, *why);
  return einsum_report(op, evaluate_hier_mapping(hw, workload, op, s.mapping, elision, model));
}

/// The vector passes of the operators attached to `einsum`.
void add_vector_passes(const Hardware &hw, const Workload &workload, int einsum, LatencyModel model,
                       std::vector<HierSegmentReport> &reports) {
  const std::vector<double> attached_words = attached_input_words(workload);
  for (int attached : einsum_link(workload, einsum).attached_ops) {
    HierSegmentReport r;
    r.ops = {&workload.ops[static_cast<size_t>(attached)]};
    r.pass = evaluate_hier_vector_pass(hw, *r.ops.front(),
                                       attached_words[static_cast<size_t>(attached)], model);
    reports.push_back(std::move(r));
  }
}

int run_hier_eval(const EvalArgs &args, const Hardware &hw, const LatencyModel model) {
  const Workload workload = load_workload_input(args.workload_path, args.max_input_mib);
  const std::vector<HierSegmentMapping> segments =
      load_hier_mapping_input(args.mapping_path, hw, workload, args.max_input_mib);
  const bool elision = hw.hierarchy.first_read_elision && !args.no_first_read_elision;
  std::vector<HierSegmentReport> reports;
  for (const HierSegmentMapping &s : segments) {
    if (s.fused) { // the pair's attached operators are in its cost
      reports.push_back(fused_report(hw, workload, s, elision, model));
      continue;
    }
    reports.push_back(einsum_segment_report(hw, workload, s, elision, model));
    add_vector_passes(hw, workload, s.op, model, reports);
  }
  write_output(args.output_path, args.json
                                     ? hier_eval_json(hw, workload, reports, elision).dump(2) + "\n"
                                     : hier_eval_text(hw, reports, elision));
  return 0;
}

int run_legacy_eval(const EvalArgs &args, const Hardware &hw, const LatencyModel model) {
  if (args.no_first_read_elision)
    throw UserError("--no-first-read-elision applies to general hierarchies (counting: "
                    "timeloop); '" +
                    hw.name + "' uses the legacy model");
  const Workload workload =
      with_sibling_stacks(load_workload(args.workload_path, args.max_input_mib));
  const MappingSpec spec = load_mapping(args.mapping_path, args.max_input_mib);
  const std::vector<ResolvedSegment> segments = resolve_mapping(workload, spec);

  EvalTotals total;
  std::string text;
  nlohmann::ordered_json doc;
  doc["workload"] = workload.name;
  doc["hardware"] = hw.name;
  for (const ResolvedSegment &s : segments) {
    const MappingReport r = evaluate_mapping(s.problem, s.candidate, s.tiling, hw, model);
    if (r.totals.buffer_words > static_cast<double>(hw.gb_capacity_words()))
      throw UserError(SourceLocation{spec.source_file, 0, 0},
                      "mapping needs " +
                          std::to_string(static_cast<long long>(r.totals.buffer_words)) +
                          " global-buffer words, more than '" + hw.global_buffer().name +
                          "' holds (" + std::to_string(hw.gb_capacity_words()) + ")");
    total.latency_s += r.objectives.latency_s;
    total.energy_pj += r.objectives.energy_pj;
    total.dram_words += r.objectives.dram_words;
    total.buffer_words = std::max(total.buffer_words, r.totals.buffer_words);
    text += eval_segment_text(s.problem, s.candidate, r);
    doc["segments"].push_back(eval_segment_json(s.problem, s.candidate, r));
  }
  doc["total"] = eval_totals_json(total);
  text += eval_totals_text(total);
  write_output(args.output_path, args.json ? doc.dump(2) + "\n" : text);
  return 0;
}

} // namespace

int run_eval(const EvalArgs &args) {
  const LatencyModel model = parse_latency_model(args.latency_model);
  const Hardware hw = load_hardware_input(args.hw_path, args.ert_path, args.max_input_mib);
  return hw.is_legacy() ? run_legacy_eval(args, hw, model) : run_hier_eval(args, hw, model);
}

} // namespace dse
