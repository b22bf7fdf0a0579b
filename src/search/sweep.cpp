// Sweep execution with a shared candidate cache (or, on general hierarchies, one exact search
// per case), and buffer-curve points read off fronts.
#include "dse/search/sweep.hpp"

#include <cassert>
#include <chrono>
#include <cmath>
#include <limits>
#include <tuple>

namespace dse {

SweepOutcome run_sweep(const std::vector<SweepCase> &cases, const SearchOptions &options,
                       const ProgressReporter &progress) {
  const auto start = std::chrono::steady_clock::now();
  SearchOptions shared = options;
  if (!shared.cache)
    shared.cache = std::make_shared<CandidateCache>();
  SweepOutcome out;
  for (size_t i = 0; i < cases.size(); ++i) {
    const std::string prefix =
        "case " + std::to_string(i + 1) + "/" + std::to_string(cases.size()) + ": ";
    ProgressReporter report;
    if (progress)
      report = [&](const std::string &label, std::uint64_t done, std::uint64_t total) {
        progress(prefix + label, done, total);
      };
    try {
      out.results.push_back(explore(*cases[i].workload, *cases[i].hw, shared, report));
      out.no_fit.emplace_back();
    } catch (const NoMappingFits &e) {
      out.results.emplace_back();
      out.no_fit.emplace_back(e);
    }
  }
  out.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::vector<HierExploreResult> run_hier_sweep(const std::vector<SweepCase> &cases,
                                              const HierSearchOptions &options,
                                              const ProgressReporter &progress) {
  std::vector<HierExploreResult> results;
  HierSearchOptions own = options;
  for (const SweepCase &c : cases) {
    own.first_read_elision = c.hw->hierarchy.first_read_elision;
    results.push_back(explore_hier(*c.hw, *c.workload, own));
    assert(!results.back().front.empty() && "a mapping bypassing every on-chip level fits");
    if (progress)
      progress("case " + std::to_string(results.size()) + "/" + std::to_string(cases.size()) +
                   ": " + c.workload->name + " on " + c.hw->name,
               results.size(), cases.size());
  }
  return results;
}

namespace {

/// A curve point at `capacity_words` before any front point is seen.
BufferCurvePoint empty_curve_point(double capacity_words) {
  BufferCurvePoint p;
  p.capacity_words = capacity_words;
  p.min_dram_words = std::numeric_limits<double>::infinity();
  p.best_latency_s = p.best_energy_pj = p.best_edp = std::numeric_limits<double>::infinity();
  return p;
}

void add_to_curve_point(BufferCurvePoint &p, const Objectives &o) {
  if (std::tie(o.dram_words, o.latency_s, o.energy_pj) <
      std::tie(p.min_dram_words, p.latency_s, p.energy_pj)) {
    p.min_dram_words = o.dram_words;
    p.latency_s = o.latency_s;
    p.energy_pj = o.energy_pj;
  }
  p.best_latency_s = std::min(p.best_latency_s, o.latency_s);
  p.best_energy_pj = std::min(p.best_energy_pj, o.energy_pj);
  p.best_edp = std::min(p.best_edp, o.edp);
}

} // namespace

BufferCurvePoint buffer_curve_point(const ExploreResult &result, const Workload &workload,
                                    double capacity_words) {
  BufferCurvePoint p = empty_curve_point(capacity_words);
  for (const FrontPoint &f : result.front)
    add_to_curve_point(p, f.objectives);
  p.io_lower_bound = gemm_io_lower_bound(workload, capacity_words);
  return p;
}

BufferCurvePoint buffer_curve_point(const HierExploreResult &result, const Workload &workload,
                                    const Hierarchy &hierarchy) {
  BufferCurvePoint p = empty_curve_point(static_cast<double>(*hierarchy.levels[1].capacity_words));
  for (const HierPlan &plan : result.front)
    add_to_curve_point(p, plan.objectives);
  p.io_lower_bound = gemm_io_lower_bound(workload, hier_on_chip_words(hierarchy));
  return p;
}

double hier_on_chip_words(const Hierarchy &hierarchy) {
  double words = 3 * static_cast<double>(hierarchy.compute_units());
  for (size_t l = 1; l < hierarchy.levels.size(); ++l)
    words += static_cast<double>(*hierarchy.levels[l].capacity_words) *
             static_cast<double>(hierarchy.instances(static_cast<int>(l)));
  return words;
}

namespace {

/// Sizes (M, K, N) if the einsum is `C[i,j] += A[i,k] * B[k,j]` up to naming and operand order.
std::optional<std::array<double, 3>> gemm_shape(const Workload &w) {
  if (w.ops.size() != 1 || w.ops[0].kind != OpKind::Einsum)
    return std::nullopt;
  const Einsum &e = w.ops[0].einsum;
  if (e.inputs.size() != 2 || e.output.indices.size() != 2 || e.inputs[0].indices.size() != 2 ||
      e.inputs[1].indices.size() != 2 || w.ops[0].dims().size() != 3)
    return std::nullopt;
  for (const TensorAccess *a : {&e.output, &e.inputs[0], &e.inputs[1]})
    for (const IndexExpr &ix : a->indices)
      if (!ix.is_plain())
        return std::nullopt;
  const std::vector<int> reduction = w.ops[0].reduction_dims();
  if (reduction.size() != 1)
    return std::nullopt;
  const int i = e.output.indices[0].terms[0].dim;
  const int j = e.output.indices[1].terms[0].dim;
  if (!e.inputs[0].uses(reduction[0]) || !e.inputs[1].uses(reduction[0]) ||
      e.inputs[0].uses(i) == e.inputs[1].uses(i) || e.inputs[0].uses(j) == e.inputs[1].uses(j))
    return std::nullopt;
  return std::array<double, 3>{static_cast<double>(w.dim_size(i)),
                               static_cast<double>(w.dim_size(reduction[0])),
                               static_cast<double>(w.dim_size(j))};
}

} // namespace

std::optional<double> gemm_io_lower_bound(const Workload &workload, double capacity_words) {
  const auto shape = gemm_shape(workload);
  if (!shape)
    return std::nullopt;
  const auto [m, k, n] = *shape;
  const double compulsory = m * k + k * n + m * n;
  const double communication = 2 * m * n * k / std::sqrt(capacity_words) - 2 * capacity_words;
  return std::max(compulsory, communication);
}

} // namespace dse
