// `dse eval`: the full breakdown of one user-specified mapping, as text or JSON.
#include <algorithm>

#include "dse/cli/commands.hpp"
#include "dse/cli/eval_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/mapping_resolution.hpp"

namespace dse {

int run_eval(const EvalArgs &args) {
  const LatencyModel model = parse_latency_model(args.latency_model);
  const Hardware hw = load_hardware(args.hw_path, args.max_input_mib);
  const Workload workload = load_workload(args.workload_path, args.max_input_mib);
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

} // namespace dse
