// The adaptive split search: hotspot by hotspot, windows around it, smallest fitting divisor
// with a positive benefit; each candidate is judged by simulating the whole plan with it.
#include "dse/graph/adaptive_split.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>

#include "dse/graph/node_work.hpp"

namespace dse {

double objective_value(const SimulationResult &s, PlanObjective objective) {
  return objective == PlanObjective::Latency ? s.latency_s : s.energy_pj;
}

bool region_fits(const ExecPlan &plan, const SimulationResult &simulation, int region,
                 double capacity_words) {
  for (size_t i = 0; i < plan.steps.size(); ++i)
    if (plan.steps[i].region == region && simulation.steps[i].demand_words > capacity_words)
      return false;
  return true;
}

namespace {

std::vector<int> divisors(std::int64_t extent, int max_parts) {
  std::vector<int> out;
  for (int n = 2; n <= max_parts && n <= extent; ++n)
    if (extent % n == 0)
      out.push_back(n);
  return out;
}

std::string number_text(double v) {
  std::ostringstream out;
  out.precision(4);
  out << v;
  return out.str();
}

class SplitSearch {
public:
  SplitSearch(const Graph &graph, const Hardware &hw, const SplitOptions &options)
      : graph_(graph), hw_(hw), options_(options),
        capacity_(static_cast<double>(hw.gb_capacity_words())) {}

  SplitResult run() {
    result_.plan_before = split_plan(graph_, {});
    result_.before = simulate_plan(result_.plan_before, hw_, capacity_);
    plan_ = result_.plan_before;
    sim_ = result_.before;
    for (int step = hottest_untried(); step >= 0; step = hottest_untried()) {
      const int node = plan_.steps[static_cast<size_t>(step)].node;
      tried_.insert(node);
      result_.decisions.push_back(decide(node, sim_.steps[static_cast<size_t>(step)].demand_words));
    }
    result_.plan_after = std::move(plan_);
    result_.after = std::move(sim_);
    return std::move(result_);
  }

private:
  struct Candidate {
    SplitRegion region;
    ExecPlan plan;
    SimulationResult sim;
    double benefit = 0;
  };

  int hottest_untried() const {
    int best = -1;
    for (size_t i = 0; i < plan_.steps.size(); ++i) {
      const PlanStep &s = plan_.steps[i];
      const double demand = sim_.steps[i].demand_words;
      if (s.region >= 0 || demand <= capacity_ || tried_.count(s.node))
        continue;
      if (best < 0 || demand > sim_.steps[static_cast<size_t>(best)].demand_words)
        best = static_cast<int>(i);
    }
    return best;
  }

  bool overlaps_regions(int first, int last) const {
    for (const SplitRegion &r : result_.regions)
      for (int v = first; v <= last; ++v)
        if (r.contains(v))
          return true;
    return false;
  }

  /// The smallest divisor that fits with a positive benefit for this window, if any.
  std::optional<Candidate> try_window(int first, int last, SplitAxis axis, int offset) {
    SplitRegion probe;
    probe.axis = axis;
    probe.offset = offset;
    const Shape &out = graph_.tensor(graph_.node(last).outputs[0]).shape;
    if (axis == SplitAxis::Rows && offset + 1 > static_cast<int>(out.size()))
      return std::nullopt;
    const int ref = axis == SplitAxis::Rows ? last : first; // channels: the head's extent
    const Shape &ref_out = graph_.tensor(graph_.node(ref).outputs[0]).shape;
    for (int n : divisors(ref_out[probe.dim(graph_, ref)], options_.max_parts)) {
      std::optional<SplitRegion> region = make_region(graph_, first, last, axis, n, offset);
      if (!region)
        continue;
      std::vector<SplitRegion> regions = result_.regions;
      regions.push_back(*region);
      Candidate c{*region, split_plan(graph_, regions), {}, 0};
      c.sim = simulate_plan(c.plan, hw_, capacity_);
      if (!region_fits(c.plan, c.sim, static_cast<int>(regions.size()) - 1, capacity_))
        continue;
      any_fit_ = true;
      const double now = objective_value(sim_, options_.objective);
      c.benefit = now - objective_value(c.sim, options_.objective);
      best_seen_ = std::max(best_seen_, c.benefit);
      if (c.benefit > kMinRelativeBenefit * now)
        return c;
    }
    return std::nullopt;
  }

  SplitDecision decide(int node, double peak) {
    SplitDecision d;
    d.node = node;
    d.peak_words = peak;
    any_fit_ = false;
    best_seen_ = -std::numeric_limits<double>::infinity();
    std::optional<Candidate> best;
    const int last_node = static_cast<int>(graph_.nodes.size()) - 1;
    const std::pair<SplitAxis, int> axes[] = {
        {SplitAxis::Rows, 1}, {SplitAxis::Rows, 2}, {SplitAxis::Rows, 3}, {SplitAxis::Channels, 0}};
    for (const auto &[axis, offset] : axes)
      for (int len = 1; len <= options_.max_region_nodes; ++len)
        for (int first = std::max(0, node - len + 1); first <= node; ++first) {
          const int last = first + len - 1;
          if (last > last_node || overlaps_regions(first, last))
            continue;
          std::optional<Candidate> c = try_window(first, last, axis, offset);
          if (c && (!best || c->benefit > best->benefit))
            best = std::move(c);
        }
    if (!best) {
      d.reason = !any_fit_ ? "no region of up to " + std::to_string(options_.max_region_nodes) +
                                 " nodes around it splits into at most " +
                                 std::to_string(options_.max_parts) + " parts that fit"
                           : "no fitting split has a positive benefit (best " +
                                 number_text(best_seen_) + ")";
      return d;
    }
    d.split = true;
    d.region = best->region;
    d.benefit = best->benefit;
    d.halo_macs = halo_macs(graph_, best->region);
    if (best->region.axis == SplitAxis::Rows)
      for (int v : best->region.nodes)
        d.extra_weight_words += node_weight_words(graph_, v) * (best->region.parts - 1);
    result_.regions.push_back(std::move(best->region));
    plan_ = std::move(best->plan);
    sim_ = std::move(best->sim);
    return d;
  }

  const Graph &graph_;
  const Hardware &hw_;
  SplitOptions options_;
  double capacity_;
  SplitResult result_;
  ExecPlan plan_;
  SimulationResult sim_;
  std::set<int> tried_;
  bool any_fit_ = false;
  double best_seen_ = 0;
};

} // namespace

SplitResult plan_splits(const Graph &graph, const Hardware &hw, const SplitOptions &options) {
  return SplitSearch(graph, hw, options).run();
}

std::vector<ScheduleUnit> super_node_schedule(const SplitResult &result) {
  std::vector<ScheduleUnit> units;
  const ExecPlan &plan = result.plan_after;
  for (size_t i = 0; i < plan.steps.size(); ++i) {
    const PlanStep &s = plan.steps[i];
    const double live = result.after.steps[i].demand_words;
    if (s.region < 0 || units.empty() || units.back().region != s.region) {
      units.push_back({{s.node}, s.region, live});
      continue;
    }
    ScheduleUnit &u = units.back();
    if (std::find(u.nodes.begin(), u.nodes.end(), s.node) == u.nodes.end())
      u.nodes.push_back(s.node);
    u.peak_words = std::max(u.peak_words, live);
  }
  return units;
}

} // namespace dse
