// Live words per step, and the hotspot runs above capacity with their largest tensors.
#include "dse/graph/hotspots.hpp"

#include <algorithm>

namespace dse {

namespace {

using Contributions = std::vector<std::pair<std::string, double>>;

/// Buffers live at `step` (first access <= step <= last access), with the step's weights.
Contributions global_contributions(const ExecPlan &plan, int step) {
  const std::vector<BufferSpan> spans = buffer_spans(plan);
  Contributions out;
  for (size_t b = 0; b < plan.buffers.size(); ++b)
    if (spans[b].live_at(step) && !plan.buffers[b].dram_only)
      out.emplace_back(plan.buffers[b].name, plan.buffers[b].words);
  const PlanStep &s = plan.steps[static_cast<size_t>(step)];
  if (s.weight_words > 0)
    out.emplace_back("(weights)", s.weight_words);
  return out;
}

/// The largest contributions until they exceed `excess`.
Contributions setting_the_peak(Contributions all, double excess) {
  std::stable_sort(all.begin(), all.end(),
                   [](const auto &a, const auto &b) { return a.second > b.second; });
  Contributions out;
  double sum = 0;
  for (const auto &c : all) {
    if (sum > excess)
      break;
    out.push_back(c);
    sum += c.second;
  }
  return out;
}

void find_hotspots(const ExecPlan &plan, MemoryReport &report) {
  const std::vector<double> &live = report.live_words;
  const double capacity = report.capacity_words;
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i] <= capacity || (i > 0 && live[i - 1] > capacity))
      continue;
    Hotspot h;
    h.first_step = static_cast<int>(i);
    for (size_t j = i; j < live.size() && live[j] > capacity; ++j) {
      h.last_step = static_cast<int>(j);
      if (live[j] > h.peak_words) {
        h.peak_words = live[j];
        h.peak_step = static_cast<int>(j);
      }
    }
    h.tensors = setting_the_peak(global_contributions(plan, h.peak_step), h.peak_words - capacity);
    report.hotspots.push_back(std::move(h));
  }
}

} // namespace

MemoryReport memory_report(const ExecPlan &plan, const SimulationResult &simulation,
                           const Hardware &hw) {
  MemoryReport report;
  report.level = hw.global_buffer().name;
  report.capacity_words = static_cast<double>(hw.gb_capacity_words());
  for (const StepMemory &s : simulation.steps)
    report.live_words.push_back(s.demand_words);
  const auto peak = std::max_element(report.live_words.begin(), report.live_words.end());
  if (peak != report.live_words.end()) {
    report.peak_words = *peak;
    report.peak_step = static_cast<int>(peak - report.live_words.begin());
  }
  find_hotspots(plan, report);
  return report;
}

} // namespace dse
