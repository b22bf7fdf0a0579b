// `dse eval`: the full breakdown of one user-specified mapping, as text or JSON.
#include <nlohmann/json.hpp>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

nlohmann::ordered_json report_json(const Problem &p, const Candidate &c, const MappingReport &r) {
  nlohmann::ordered_json j;
  j["dataflow"] = describe(p, c);
  for (const TensorReport &t : r.tensors)
    j["tensors"].push_back({{"name", t.name},
                            {"role", t.role},
                            {"retention_depth", t.retention_depth},
                            {"footprint_words", t.footprint_words},
                            {"dram_reads", t.dram_reads},
                            {"dram_writes", t.dram_writes}});
  for (const OperatorReport &o : r.operators)
    j["operators"].push_back({{"name", o.name},
                              {"macs", o.macs},
                              {"cycles", o.cycles},
                              {"utilisation", o.utilisation},
                              {"gb_words", o.buffer_words}});
  j["softmax_pass_words"] = r.softmax_pass_words;
  j["gb_reads"] = r.totals.gb_reads;
  j["gb_writes"] = r.totals.gb_writes;
  j["vector_ops"] = r.totals.vector_ops;
  j["energy_pj"] = {{"mac", r.energy.mac_pj},
                    {"vector", r.energy.vector_pj},
                    {"dram", r.energy.dram_pj},
                    {"global_buffer", r.energy.global_buffer_pj},
                    {"register_file", r.energy.register_file_pj},
                    {"total", r.objectives.energy_pj}};
  j["latency_cycles"] = {{"compute", r.latency_cycles.compute_cycles},
                         {"dram", r.latency_cycles.dram_cycles},
                         {"global_buffer", r.latency_cycles.gb_cycles},
                         {"bound", r.bound}};
  for (const DmaUnitLoad &u : r.dma_units)
    j["dma_units"].push_back({{"name", u.name},
                              {"read_words", u.read_words},
                              {"write_words", u.write_words},
                              {"cycles", u.cycles}});
  j["latency_s"] = r.objectives.latency_s;
  return j;
}

void report_text(std::ostringstream &out, const Problem &p, const Candidate &c,
                 const MappingReport &r) {
  // Names come from input files: control bytes are escaped on their way to a terminal.
  out << "segment: " << escape_control(describe(p, c)) << "\n";
  out << "  tensor          role          depth    footprint     dram_reads    dram_writes\n";
  for (const TensorReport &t : r.tensors)
    out << "  " << std::left << std::setw(15) << escape_control(t.name) << " " << std::setw(13)
        << t.role << std::right << std::setw(5) << t.retention_depth << std::setw(13)
        << t.footprint_words << std::setw(15) << t.dram_reads << std::setw(15) << t.dram_writes
        << "\n";
  if (r.softmax_pass_words > 0)
    out << "  softmax pass: reads and writes " << r.softmax_pass_words << " words\n";
  out << "  operator        macs             cycles           utilisation  gb_words\n";
  for (const OperatorReport &o : r.operators)
    out << "  " << std::left << std::setw(15) << escape_control(o.name) << " " << std::setw(16)
        << o.macs << " " << std::setw(16) << o.cycles << " " << std::setw(12) << o.utilisation
        << " " << o.buffer_words << std::right << "\n";
  out << "  gb<->pe words: reads " << r.totals.gb_reads << ", writes " << r.totals.gb_writes
      << "; vector ops " << r.totals.vector_ops << "\n";
  out << "  energy (pJ): mac " << r.energy.mac_pj << ", vector " << r.energy.vector_pj << ", dram "
      << r.energy.dram_pj << ", global buffer " << r.energy.global_buffer_pj << ", register file "
      << r.energy.register_file_pj << "; total " << r.objectives.energy_pj << "\n";
  out << "  latency (cycles): compute " << r.latency_cycles.compute_cycles << ", dram "
      << r.latency_cycles.dram_cycles << ", global buffer " << r.latency_cycles.gb_cycles
      << "; bound by " << r.bound << "; " << r.objectives.latency_s << " s\n";
  // The DRAM cycles above are the balanced time over the units; each unit's share of it:
  for (const DmaUnitLoad &u : r.dma_units)
    out << "  dma unit " << escape_control(u.name) << ": reads " << u.read_words << ", writes "
        << u.write_words << " words; busy " << u.cycles << " cycles\n";
}

} // namespace

int run_eval(const EvalArgs &args) {
  const LatencyModel model = parse_latency_model(args.latency_model);
  const Hardware hw = load_hardware(args.hw_path, args.max_input_mib);
  const Workload workload = load_workload(args.workload_path, args.max_input_mib);
  const MappingSpec spec = load_mapping(args.mapping_path, args.max_input_mib);
  const std::vector<ResolvedSegment> segments = resolve_mapping(workload, spec);

  double latency = 0, energy = 0, dram = 0, buffer = 0;
  std::ostringstream text;
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
    latency += r.objectives.latency_s;
    energy += r.objectives.energy_pj;
    dram += r.objectives.dram_words;
    buffer = std::max(buffer, r.totals.buffer_words);
    report_text(text, s.problem, s.candidate, r);
    doc["segments"].push_back(report_json(s.problem, s.candidate, r));
  }
  doc["total"] = {{"latency_s", latency},
                  {"energy_pj", energy},
                  {"edp_pj_s", latency * energy},
                  {"dram_words", dram},
                  {"gb_words", buffer}};
  text << "total: latency " << latency << " s, energy " << energy << " pJ, EDP " << latency * energy
       << " pJ*s, DRAM " << dram << " words, GB need " << buffer << " words\n";
  write_output(args.output_path, args.json ? doc.dump(2) + "\n" : text.str());
  return 0;
}

} // namespace dse
