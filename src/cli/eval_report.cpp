// `dse eval` as text and JSON: per segment its tensors, operators, energy and latency parts,
// then the totals. Text numbers are exact (exact_number), as in the JSON.
#include "dse/cli/eval_report.hpp"

#include <iomanip>
#include <sstream>

#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

nlohmann::ordered_json eval_segment_json(const Problem &p, const Candidate &c,
                                         const MappingReport &r) {
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
  j["overlap_store_words"] = r.overlap_store_words;
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

std::string eval_segment_text(const Problem &p, const Candidate &c, const MappingReport &r) {
  std::ostringstream out;
  // Names come from input files: control bytes are escaped on their way to a terminal.
  out << "segment: " << escape_control(describe(p, c)) << "\n";
  out << "  tensor          role          depth    footprint     dram_reads    dram_writes\n";
  for (const TensorReport &t : r.tensors)
    out << "  " << std::left << std::setw(15) << escape_control(t.name) << " " << std::setw(13)
        << t.role << std::right << std::setw(5) << t.retention_depth << std::setw(13)
        << exact_number(t.footprint_words) << std::setw(15) << exact_number(t.dram_reads)
        << std::setw(15) << exact_number(t.dram_writes) << "\n";
  if (r.softmax_pass_words > 0)
    out << "  softmax pass: reads and writes " << exact_number(r.softmax_pass_words) << " words\n";
  if (r.overlap_store_words > 0)
    out << "  overlap stores of the cached halos: " << exact_number(r.overlap_store_words)
        << " words (in every operator's gb_words)\n";
  out << "  operator        macs             cycles           utilisation  gb_words\n";
  for (const OperatorReport &o : r.operators)
    out << "  " << std::left << std::setw(15) << escape_control(o.name) << " " << std::setw(16)
        << exact_number(o.macs) << " " << std::setw(16) << exact_number(o.cycles) << " "
        << std::setw(12) << exact_number(o.utilisation) << " " << exact_number(o.buffer_words)
        << std::right << "\n";
  out << "  gb<->pe words: reads " << exact_number(r.totals.gb_reads) << ", writes "
      << exact_number(r.totals.gb_writes) << "; vector ops " << exact_number(r.totals.vector_ops)
      << "\n";
  out << "  energy (pJ): mac " << exact_number(r.energy.mac_pj) << ", vector "
      << exact_number(r.energy.vector_pj) << ", dram " << exact_number(r.energy.dram_pj)
      << ", global buffer " << exact_number(r.energy.global_buffer_pj) << ", register file "
      << exact_number(r.energy.register_file_pj) << "; total "
      << exact_number(r.objectives.energy_pj) << "\n";
  out << "  latency (cycles): compute " << exact_number(r.latency_cycles.compute_cycles)
      << ", dram " << exact_number(r.latency_cycles.dram_cycles) << ", global buffer "
      << exact_number(r.latency_cycles.gb_cycles) << "; bound by " << r.bound << "; "
      << exact_number(r.objectives.latency_s) << " s\n";
  // The DRAM cycles above are the balanced time over the units; each unit's share of it:
  for (const DmaUnitLoad &u : r.dma_units)
    out << "  dma unit " << escape_control(u.name) << ": reads " << exact_number(u.read_words)
        << ", writes " << exact_number(u.write_words) << " words; busy " << exact_number(u.cycles)
        << " cycles\n";
  return out.str();
}

nlohmann::ordered_json eval_totals_json(const EvalTotals &t) {
  return {{"latency_s", t.latency_s},
          {"energy_pj", t.energy_pj},
          {"edp_pj_s", t.latency_s * t.energy_pj},
          {"dram_words", t.dram_words},
          {"gb_words", t.buffer_words}};
}

std::string eval_totals_text(const EvalTotals &t) {
  return "total: latency " + exact_number(t.latency_s) + " s, energy " + exact_number(t.energy_pj) +
         " pJ, EDP " + exact_number(t.latency_s * t.energy_pj) + " pJ*s, DRAM " +
         exact_number(t.dram_words) + " words, GB need " + exact_number(t.buffer_words) +
         " words\n";
}

} // namespace dse
