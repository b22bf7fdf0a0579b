// Step-by-step simulation of the global memory under an execution plan, with greedy spilling.
#include "dse/graph/memory_simulation.hpp"

#include <algorithm>

#include "dse/model/cost.hpp"

namespace dse {

double SimulationResult::peak_demand() const {
  double peak = 0;
  for (const StepMemory &s : steps)
    peak = std::max(peak, s.demand_words);
  return peak;
}

namespace {

class Simulator {
public:
  Simulator(const ExecPlan &plan, const Hardware &hw, double capacity)
      : plan_(plan), capacity_(capacity), weights_(cost_weights(hw, LatencyModel::Roofline)),
        array_(static_cast<double>(hw.effective_rows() * hw.effective_cols())),
        spans_(buffer_spans(plan)) {
    const size_t n = plan.buffers.size();
    result_.spilled.assign(n, false);
    live_at_.resize(plan.steps.size());
    for (size_t b = 0; b < n; ++b) {
      result_.spilled[b] = plan.buffers[b].dram_only;
      for (int i = spans_[b].first; i >= 0 && i <= spans_[b].last; ++i)
        live_at_[static_cast<size_t>(i)].push_back(b);
    }
  }

  SimulationResult run() {
    for (size_t i = 0; i < plan_.steps.size(); ++i)
      run_step(static_cast<int>(i));
    result_.latency_s *= weights_.seconds_per_cycle;
    return std::move(result_);
  }

private:
  bool touches(const PlanStep &s, size_t b) const {
    return std::any_of(s.accesses.begin(), s.accesses.end(),
                       [b](const BufferAccess &a) { return static_cast<size_t>(a.buffer) == b; });
  }

  void read(double words) {
    result_.dram_reads += words;
    step_reads_ += words;
  }

  void write(double words) {
    result_.dram_writes += words;
    step_writes_ += words;
  }

  /// Spills live buffers until the resident words fit.
  void spill_until_fits(int step, double &resident) {
    const PlanStep &s = plan_.steps[static_cast<size_t>(step)];
    std::vector<size_t> candidates;
    for (size_t b : live_at_[static_cast<size_t>(step)])
      if (!result_.spilled[b])
        candidates.push_back(b);
    std::sort(candidates.begin(), candidates.end(), [&](size_t a, size_t b) {
      const bool ta = touches(s, a), tb = touches(s, b);
      if (ta != tb)
        return !ta;
      if (plan_.buffers[a].words != plan_.buffers[b].words)
        return plan_.buffers[a].words > plan_.buffers[b].words;
      return a < b;
    });
    for (size_t b : candidates) {
      if (resident <= capacity_)
        break;
      result_.spilled[b] = true;
      resident -= plan_.buffers[b].words;
      // Already on chip (produced or loaded at an earlier step): write it out once.
      if (spans_[b].first < step && !plan_.buffers[b].graph_input) {
        write(plan_.buffers[b].words);
        result_.spill_words += plan_.buffers[b].words;
      }
    }
  }

  void run_step(int step) {
    const PlanStep &s = plan_.steps[static_cast<size_t>(step)];
    StepMemory m;
    step_reads_ = step_writes_ = 0;
    double resident = s.weight_words + s.working_words;
    m.demand_words = resident;
    for (size_t b : live_at_[static_cast<size_t>(step)]) {
      if (plan_.buffers[b].dram_only)
        continue;
      m.demand_words += plan_.buffers[b].words;
      if (!result_.spilled[b])
        resident += plan_.buffers[b].words;
    }
    if (resident > capacity_)
      spill_until_fits(step, resident);
    for (const BufferAccess &a : s.accesses) {
      const auto b = static_cast<size_t>(a.buffer);
      const PlanBuffer &buffer = plan_.buffers[b];
      if (result_.spilled[b]) {
        if (a.write)
          write(a.words);
        else
          read(a.words);
        if (!buffer.dram_only)
          result_.spill_words += a.words;
      } else if (buffer.graph_input && spans_[b].first == step) {
        read(buffer.words);
      }
    }
    for (size_t b : live_at_[static_cast<size_t>(step)])
      if (plan_.buffers[b].graph_output && spans_[b].last == step && !result_.spilled[b])
        write(plan_.buffers[b].words);
    read(s.weight_words);
    m.resident_words = resident;
    m.dram_words = step_reads_ + step_writes_;
    const double compute = (s.macs + s.vector_ops) / array_;
    m.cycles = std::max(compute, dram_transfer_cycles(step_reads_, step_writes_, weights_));
    result_.macs += s.macs;
    result_.vector_ops += s.vector_ops;
    result_.latency_s += m.cycles;
    result_.energy_pj += weights_.mac_pj * s.macs + weights_.vector_op_pj * s.vector_ops;
    result_.steps.push_back(m);
  }

  const ExecPlan &plan_;
  double capacity_;
  CostWeights weights_;
  double array_;
  std::vector<BufferSpan> spans_;
  std::vector<std::vector<size_t>> live_at_; // buffers live at each step, ascending
  SimulationResult result_;
  double step_reads_ = 0; // DRAM words read and written during the current step
  double step_writes_ = 0;
};

} // namespace

SimulationResult simulate_plan(const ExecPlan &plan, const Hardware &hw, double capacity_words) {
  SimulationResult r = Simulator(plan, hw, capacity_words).run();
  const CostWeights w = cost_weights(hw, LatencyModel::Roofline);
  r.energy_pj += w.dram_read_pj * r.dram_reads + w.dram_write_pj * r.dram_writes;
  return r;
}

} // namespace dse
