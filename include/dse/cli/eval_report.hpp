// The report layer of `dse eval`: one evaluated mapping segment as text (every quantity exact)
// or JSON, and the totals over the segments.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "dse/model/mapping_evaluation.hpp"

namespace dse {

nlohmann::ordered_json eval_segment_json(const Problem &p, const Candidate &c,
                                         const MappingReport &r);
std::string eval_segment_text(const Problem &p, const Candidate &c, const MappingReport &r);

/// Latency, energy and DRAM words add over segments run one after another; the buffer need is
/// the largest.
struct EvalTotals {
  double latency_s = 0, energy_pj = 0, dram_words = 0, buffer_words = 0;
};
nlohmann::ordered_json eval_totals_json(const EvalTotals &t);
std::string eval_totals_text(const EvalTotals &t);

} // namespace dse
