// Kernel counts: the JSON a kernel prints parsed, the model's predictions through
// evaluate_mapping, and the two side by side.
#include "dse/codegen/kernel_counts.hpp"

#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>

#include "dse/model/mapping_evaluation.hpp"
#include "dse/model/metrics.hpp"

namespace dse {

namespace {

KernelSegmentCounts parse_segment(const nlohmann::json &j) {
  KernelSegmentCounts s;
  s.label = j.at("label").get<std::string>();
  for (const nlohmann::json &w : j.at("words")) {
    const std::string tensor = w.at("tensor").get<std::string>();
    s.counts.push_back({tensor, "reads", w.at("reads").get<double>()});
    s.counts.push_back({tensor, "writes", w.at("writes").get<double>()});
  }
  for (const nlohmann::json &m : j.at("macs"))
    s.counts.push_back({m.at("op").get<std::string>(), "macs", m.at("macs").get<double>()});
  return s;
}

double measured_value(const KernelRun &run, const std::string &segment, const KernelCount &want) {
  for (const KernelSegmentCounts &s : run.segments)
    if (s.label == segment)
      for (const KernelCount &c : s.counts)
        if (c.name == want.name && c.quantity == want.quantity)
          return c.value;
  return 0;
}

} // namespace

std::string kernel_segment_label(const Problem &p) {
  std::string label;
  for (size_t o = 0; o < p.ops.size(); ++o)
    label += (o ? "+" : "") + p.op(static_cast<int>(o)).name;
  return p.fused() ? label + " fused" : label;
}

KernelRun parse_kernel_run(const std::string &json) {
  try {
    const nlohmann::json j = nlohmann::json::parse(json);
    KernelRun r;
    r.kernel = j.at("kernel").get<std::string>();
    r.seconds = j.at("seconds").get<double>();
    const nlohmann::json &check = j.at("check");
    r.checked = check.at("performed").get<bool>();
    r.check_passed = check.at("passed").get<bool>();
    r.max_relative_error = check.at("max_relative_error").get<double>();
    r.tolerance = check.at("tolerance").get<double>();
    for (const nlohmann::json &s : j.at("segments"))
      r.segments.push_back(parse_segment(s));
    return r;
  } catch (const nlohmann::json::exception &e) {
    throw UserError("the kernel printed no valid report (" + std::string(e.what()) +
                    "): " + json.substr(0, 200));
  }
}

std::vector<KernelSegmentCounts> predicted_counts(const std::vector<KernelSegment> &segments,
                                                  const Hardware &hw) {
  std::vector<KernelSegmentCounts> out;
  for (const KernelSegment &s : execution_order(segments)) {
    const Problem &p = *s.problem;
    const MappingReport r = evaluate_mapping(p, s.candidate, s.tiling, hw, LatencyModel::Roofline);
    KernelSegmentCounts c;
    c.label = kernel_segment_label(p);
    for (const TensorReport &t : r.tensors) {
      const std::string name = t.role == "residual" ? residual_counter(t.name) : t.name;
      c.counts.push_back({name, "reads", t.dram_reads});
      c.counts.push_back({name, "writes", t.dram_writes});
    }
    if (r.softmax_pass_words > 0) {
      c.counts.push_back({kSoftmaxPassCounter, "reads", r.softmax_pass_words});
      c.counts.push_back({kSoftmaxPassCounter, "writes", r.softmax_pass_words});
    }
    for (const OperatorReport &o : r.operators)
      c.counts.push_back({o.name, "macs", o.macs});
    out.push_back(c);
  }
  return out;
}

double predicted_latency_s(const std::vector<KernelSegment> &segments, const Hardware &hw,
                           LatencyModel model) {
  double total = 0;
  for (const KernelSegment &s : segments)
    total += evaluate_mapping(*s.problem, s.candidate, s.tiling, hw, model).objectives.latency_s;
  return total;
}

std::vector<CountComparison> compare_counts(const std::vector<KernelSegmentCounts> &predicted,
                                            const KernelRun &measured) {
  std::vector<CountComparison> rows;
  for (const KernelSegmentCounts &s : predicted)
    for (const KernelCount &c : s.counts)
      rows.push_back({s.label, c.name, c.quantity, c.value, measured_value(measured, s.label, c)});
  for (const KernelSegmentCounts &s : measured.segments)
    for (const KernelCount &c : s.counts) {
      bool known = false;
      for (const CountComparison &r : rows)
        known = known || (r.segment == s.label && r.name == c.name && r.quantity == c.quantity);
      if (!known)
        rows.push_back({s.label, c.name, c.quantity, 0, c.value});
    }
  return rows;
}

} // namespace dse
