// Live words per level and step, and the hotspot runs above capacity with their largest tensors.
#include "dse/graph/hotspots.hpp"

#include <algorithm>

namespace dse {

std::vector<PlannedLevel> planned_levels(const Hardware &hw) {
  std::vector<PlannedLevel> levels;
  levels.push_back({hw.global_buffer().name, static_cast<double>(hw.gb_capacity_words()), true});
  for (size_t l = 2; l < hw.levels.size(); ++l)
    if (hw.levels[l].capacity_words)
      levels.push_back(
          {hw.levels[l].name, static_cast<double>(*hw.levels[l].capacity_words), false});
  return levels;
}

namespace {

using Contributions = std::vector<std::pair<std::string, double>>;

/// Buffers live at `step` (first access <= step <= last access), with the step's weights.
Contributions global_contributions(const ExecPlan &plan, int step) {
  std::vector<int> first(plan.buffers.size(), -1), last(plan.buffers.size(), -1);
  for (size_t i = 0; i < plan.steps.size(); ++i)
    for (const BufferAccess &a : plan.steps[i].accesses) {
      const auto b = static_cast<size_t>(a.buffer);
      first[b] = first[b] < 0 ? static_cast<int>(i) : first[b];
      last[b] = static_cast<int>(i);
    }
  Contributions out;
  for (size_t b = 0; b < plan.buffers.size(); ++b)
    if (first[b] >= 0 && first[b] <= step && step <= last[b] && !plan.buffers[b].dram_only)
      out.emplace_back(plan.buffers[b].name, plan.buffers[b].words);
  const PlanStep &s = plan.steps[static_cast<size_t>(step)];
  if (s.weight_words > 0)
    out.emplace_back("(weights)", s.weight_words);
  return out;
}

/// The step's own operands per core.
Contributions inner_contributions(const ExecPlan &plan, int step, double cores) {
  const PlanStep &s = plan.steps[static_cast<size_t>(step)];
  Contributions out;
  for (const BufferAccess &a : s.accesses)
    out.emplace_back(plan.buffers[static_cast<size_t>(a.buffer)].name, a.words / cores);
  if (s.weight_words > 0)
    out.emplace_back("(weights)", s.weight_words / cores);
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

void find_hotspots(const ExecPlan &plan, const Hardware &hw, size_t level, MemoryReport &report) {
  const std::vector<double> &live = report.live_words[level];
  const double capacity = report.levels[level].capacity_words;
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i] <= capacity || (i > 0 && live[i - 1] > capacity))
      continue;
    Hotspot h;
    h.level = level;
    h.first_step = static_cast<int>(i);
    for (size_t j = i; j < live.size() && live[j] > capacity; ++j) {
      h.last_step = static_cast<int>(j);
      if (live[j] > h.peak_words) {
        h.peak_words = live[j];
        h.peak_step = static_cast<int>(j);
      }
    }
    const Contributions all =
        report.levels[level].shared
            ? global_contributions(plan, h.peak_step)
            : inner_contributions(plan, h.peak_step, static_cast<double>(hw.cores));
    h.tensors = setting_the_peak(all, h.peak_words - capacity);
    report.hotspots.push_back(std::move(h));
  }
}

} // namespace

MemoryReport memory_report(const ExecPlan &plan, const SimulationResult &simulation,
                           const Hardware &hw) {
  MemoryReport report;
  report.levels = planned_levels(hw);
  const auto cores = static_cast<double>(hw.cores);
  for (const PlannedLevel &level : report.levels) {
    std::vector<double> live;
    for (const StepMemory &s : simulation.steps)
      live.push_back(level.shared ? s.demand_words : s.operand_words / cores);
    const auto peak = std::max_element(live.begin(), live.end());
    report.peak_words.push_back(peak == live.end() ? 0 : *peak);
    report.peak_step.push_back(peak == live.end() ? -1 : static_cast<int>(peak - live.begin()));
    report.live_words.push_back(std::move(live));
  }
  for (size_t l = 0; l < report.levels.size(); ++l)
    find_hotspots(plan, hw, l, report);
  return report;
}

} // namespace dse
