// `dse eval` on a hierarchy of any depth, as text and JSON (docs/HIERARCHY.md §4.6). Text
// numbers are exact (exact_number), as in the JSON.
#include "dse/cli/hier_eval_report.hpp"

#include <iomanip>
#include <sstream>

#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {

namespace {

std::string bound_name(const Hardware &hw, const HierCost &c) {
  return c.bound_level < 0 ? "compute"
                           : hw.hierarchy.levels[static_cast<size_t>(c.bound_level)].name;
}

std::string capacity_text(const StorageLevel &level) {
  return level.capacity_words ? std::to_string(*level.capacity_words) : "unbounded";
}

std::string segment_name(const HierSegmentReport &s) {
  std::string name;
  for (const Operator *op : s.ops)
    name += (name.empty() ? "" : " + ") + op->name;
  return name;
}

void write_tensor_rows(std::ostringstream &out, const std::vector<std::string> &tensors,
                       const HierLevelCost &level) {
  out << "    " << std::left << std::setw(15) << "tensor" << std::right;
  for (const char *column : {"tile_words", "reads", "fills", "updates", "energy_pj"})
    out << " " << std::setw(16) << column;
  out << "\n";
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (!level.tensors[t])
      continue;
    const HierTensorCounts &c = *level.tensors[t];
    out << "    " << std::left << std::setw(15) << escape_control(tensors[t]) << std::right;
    for (double v : {c.tile_words, c.reads, c.fills, c.updates, c.energy_pj})
      out << " " << std::setw(16) << exact_number(v);
    out << "\n";
  }
}

void write_pass_text(std::ostringstream &out, const Operator &op, const HierVectorPass &p) {
  out << "segment: " << escape_control(op.name) << " (vector pass)\n";
  out << "  vector_ops " << exact_number(p.vector_ops) << ", dram_reads "
      << exact_number(p.dram_reads) << ", dram_updates " << exact_number(p.dram_updates)
      << ", compute_cycles " << exact_number(p.compute_cycles) << ", transfer_cycles "
      << exact_number(p.transfer_cycles) << "\n";
  out << "  latency_cycles " << exact_number(p.latency_cycles) << ", energy_pj "
      << exact_number(p.energy_pj) << "\n";
}

void write_segment_text(std::ostringstream &out, const Hardware &hw, const HierSegmentReport &s) {
  if (s.pass)
    return write_pass_text(out, *s.ops.front(), *s.pass);
  const HierCost &c = s.cost;
  out << "segment: " << escape_control(segment_name(s)) << (s.ops.size() > 1 ? " (fused)" : "")
      << "\n";
  for (const Operator *op : s.ops)
    if (!op->einsum.residual.empty())
      out << "  residual: " << escape_control(op->einsum.output.tensor) << " starts from "
          << escape_control(op->einsum.residual) << " (the first read of each of its elements, "
          << "never elided, reads the residual)\n";
  for (size_t l = 0; l < c.levels.size(); ++l) {
    const StorageLevel &storage = hw.hierarchy.levels[l];
    const HierLevelCost &level = c.levels[l];
    out << "  level " << escape_control(storage.name) << ": instances " << level.instances
        << ", capacity_words " << capacity_text(storage) << ", buffer_words "
        << exact_number(level.buffer_words) << ", cycles " << exact_number(level.cycles)
        << " (transfer " << exact_number(level.transfer_cycles) << "), energy_pj "
        << exact_number(level.energy_pj) << "\n";
    write_tensor_rows(out, s.tensors, level);
  }
  out << "  compute: macs " << exact_number(c.macs) << ", cycles " << exact_number(c.compute_cycles)
      << ", utilised_units " << c.utilised_units << ", utilisation " << exact_number(c.utilisation)
      << (s.ops.size() > 1 ? ", vector_ops " + exact_number(s.fused_vector_ops) : "")
      << ", energy_pj " << exact_number(c.compute_energy_pj) << "\n";
  out << "  latency_cycles " << exact_number(c.latency_cycles)
      << " (bound: " << escape_control(bound_name(hw, c)) << "), energy_pj "
      << exact_number(c.energy_pj) << "\n";
}

nlohmann::ordered_json level_json(const StorageLevel &storage,
                                  const std::vector<std::string> &tensors,
                                  const HierLevelCost &level) {
  nlohmann::ordered_json j;
  j["name"] = storage.name;
  j["instances"] = level.instances;
  j["capacity_words"] =
      storage.capacity_words ? nlohmann::ordered_json(*storage.capacity_words) : nullptr;
  j["buffer_words"] = level.buffer_words;
  j["cycles"] = level.cycles;
  j["transfer_cycles"] = level.transfer_cycles;
  j["energy_pj"] = level.energy_pj;
  j["tensors"] = nlohmann::ordered_json::object();
  for (size_t t = 0; t < tensors.size(); ++t)
    if (const std::optional<HierTensorCounts> &c = level.tensors[t])
      j["tensors"][tensors[t]] = {{"tile_words", c->tile_words},
                                  {"reads", c->reads},
                                  {"fills", c->fills},
                                  {"updates", c->updates},
                                  {"energy_pj", c->energy_pj}};
  return j;
}

nlohmann::ordered_json pass_json(const Operator &op, const HierVectorPass &p) {
  return {{"operator", op.name},
          {"vector_pass",
           {{"vector_ops", p.vector_ops},
            {"dram_reads", p.dram_reads},
            {"dram_updates", p.dram_updates},
            {"compute_cycles", p.compute_cycles},
            {"transfer_cycles", p.transfer_cycles}}},
          {"latency_cycles", p.latency_cycles},
          {"energy_pj", p.energy_pj}};
}

nlohmann::ordered_json segment_json(const Hardware &hw, const HierSegmentReport &s) {
  if (s.pass)
    return pass_json(*s.ops.front(), *s.pass);
  const HierCost &c = s.cost;
  nlohmann::ordered_json j;
  if (s.ops.size() == 1)
    j["operator"] = s.ops.front()->name;
  else
    for (const Operator *op : s.ops)
      j["operators"].push_back(op->name);
  for (const Operator *op : s.ops)
    if (!op->einsum.residual.empty())
      j["residuals"][op->einsum.output.tensor] = op->einsum.residual;
  j["levels"] = nlohmann::ordered_json::array();
  for (size_t l = 0; l < c.levels.size(); ++l)
    j["levels"].push_back(level_json(hw.hierarchy.levels[l], s.tensors, c.levels[l]));
  j["compute"] = {{"macs", c.macs},
                  {"cycles", c.compute_cycles},
                  {"utilised_units", c.utilised_units},
                  {"utilisation", c.utilisation},
                  {"energy_pj", c.compute_energy_pj}};
  if (s.ops.size() > 1)
    j["compute"]["vector_ops"] = s.fused_vector_ops;
  j["latency_cycles"] = c.latency_cycles;
  j["bound"] = bound_name(hw, c);
  j["energy_pj"] = c.energy_pj;
  return j;
}

} // namespace

HierSegmentReport einsum_report(const Operator &op, HierCost cost) {
  HierSegmentReport r;
  r.ops = {&op};
  for (const TensorAccess *t : operator_tensors(op))
    r.tensors.push_back(t->tensor);
  r.cost = std::move(cost);
  return r;
}

HierEvalTotals hier_eval_totals(const std::vector<HierSegmentReport> &segments) {
  HierEvalTotals t;
  for (const HierSegmentReport &s : segments) {
    t.latency_cycles += s.pass ? s.pass->latency_cycles : s.cost.latency_cycles;
    t.energy_pj += s.pass ? s.pass->energy_pj : s.cost.energy_pj;
  }
  return t;
}

std::string hier_eval_text(const Hardware &hw, const std::vector<HierSegmentReport> &segments,
                           bool first_read_elision) {
  std::ostringstream out;
  out << "first_read_elision: " << (first_read_elision ? "on" : "off") << "\n";
  for (const HierSegmentReport &s : segments)
    write_segment_text(out, hw, s);
  const HierEvalTotals t = hier_eval_totals(segments);
  out << "total: latency_cycles " << exact_number(t.latency_cycles) << ", latency "
      << exact_number(t.latency_cycles / (hw.clock_ghz * 1e9)) << " s, energy_pj "
      << exact_number(t.energy_pj) << "\n";
  return out.str();
}

nlohmann::ordered_json hier_eval_json(const Hardware &hw, const Workload &workload,
                                      const std::vector<HierSegmentReport> &segments,
                                      bool first_read_elision) {
  nlohmann::ordered_json doc;
  doc["workload"] = workload.name;
  doc["hardware"] = hw.name;
  doc["first_read_elision"] = first_read_elision;
  doc["segments"] = nlohmann::ordered_json::array();
  for (const HierSegmentReport &s : segments)
    doc["segments"].push_back(segment_json(hw, s));
  const HierEvalTotals t = hier_eval_totals(segments);
  doc["total"] = {{"latency_cycles", t.latency_cycles},
                  {"latency_s", t.latency_cycles / (hw.clock_ghz * 1e9)},
                  {"energy_pj", t.energy_pj}};
  return doc;
}

} // namespace dse
