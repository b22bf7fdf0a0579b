// The simulator-vs-model comparison: dataflow enumeration and sampling, tiling menus, and the
// exact comparison of every counted metric with the model's posynomials.
#include "model/trace_check.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <sstream>

#include "dse/model/metrics.hpp"
#include "model/trace_simulator.hpp"

namespace dse::trace {

namespace {

constexpr double kValueTolerance = 1e-9;
constexpr size_t kMaxExamples = 5;
constexpr std::int64_t kArraySide = 4; // the array only matters for cycles, not checked here

std::vector<std::int64_t> dim_sizes(const Problem &p) {
  std::vector<std::int64_t> out;
  for (const Dimension &d : p.workload->dims)
    out.push_back(d.size);
  return out;
}

std::vector<int> tiled_dims(const Problem &p) {
  std::vector<int> out;
  for (int d : p.dims)
    if (!p.is_window[static_cast<size_t>(d)])
      out.push_back(d);
  return out;
}

bool divides_all(const Problem &p, const Tiling &tiling) {
  for (int d : tiled_dims(p))
    if (p.workload->dim_size(d) % tiling.tile[static_cast<size_t>(d)] != 0)
      return false;
  return true;
}

/// Whether the model counts every tile of the tiling exactly (Problem::counts_tile_exactly).
bool countable(const Problem &p, const Tiling &tiling) {
  const std::vector<int> dims = tiled_dims(p);
  return std::all_of(dims.begin(), dims.end(), [&](int d) {
    return p.counts_tile_exactly(d, tiling.tile[static_cast<size_t>(d)]);
  });
}

/// A tiling with a uniformly random tile in 1..X per tiled dim, not dividing at least one dim,
/// that the model counts exactly. The caller makes sure such a tiling exists.
Tiling random_non_divisor(const Problem &p, std::mt19937 &rng) {
  Tiling tiling{dim_sizes(p)};
  do {
    for (int d : tiled_dims(p)) {
      std::uniform_int_distribution<std::int64_t> tile(1, p.workload->dim_size(d));
      tiling.tile[static_cast<size_t>(d)] = tile(rng);
    }
  } while (divides_all(p, tiling) || !countable(p, tiling));
  return tiling;
}

/// `count` distinct indices below `n` (all of them when count >= n), ascending.
std::vector<std::uint64_t> pick_indices(std::uint64_t n, std::uint64_t count, std::mt19937 &rng) {
  if (count >= n) {
    std::vector<std::uint64_t> all(n);
    std::iota(all.begin(), all.end(), std::uint64_t{0});
    return all;
  }
  std::set<std::uint64_t> picked;
  std::uniform_int_distribution<std::uint64_t> index(0, n - 1);
  while (picked.size() < count)
    picked.insert(index(rng));
  return {picked.begin(), picked.end()};
}

std::string describe_tiling(const Problem &p, const Tiling &tiling) {
  std::ostringstream out;
  for (int d : tiled_dims(p))
    out << " T_" << p.dim_name(d) << "=" << tiling.tile[static_cast<size_t>(d)];
  return out.str();
}

/// The model's symbolic metrics of one dataflow.
struct ModelMetrics {
  DataflowMetrics dataflow;
  ComputeMetrics compute;
  std::string text; // human-readable candidate
};

ModelMetrics model_metrics(const Problem &p, const Dataflow &df) {
  const std::vector<SpatialMapping> spatial = spatial_combinations(p).front();
  return {dataflow_metrics(p, df, false),
          compute_metrics(p, df.recompute_dims(p), df.cached, spatial),
          describe(p, Candidate{df, spatial})};
}

/// Compares one simulated pair with the model and records any mismatch in `summary`.
void compare(const Problem &p, const ModelMetrics &model, const Tiling &tiling,
             const TraceCounts &sim, CheckSummary &summary) {
  const AtomTable atoms = atom_table(dim_sizes(p), tiling, kArraySide, kArraySide);
  std::vector<std::string> wrong;
  auto check = [&](const std::string &metric, std::int64_t simulated, const Posynomial &predicted) {
    const double value = evaluate(predicted, atoms);
    if (static_cast<double>(simulated) == value)
      return;
    ++summary.mismatches_by_metric[metric];
    std::ostringstream out;
    out << metric << ": simulated " << simulated << ", model " << value;
    wrong.push_back(out.str());
  };
  if (!sim.schedule_error.empty()) {
    ++summary.mismatches_by_metric["schedule"];
    wrong.push_back("schedule error: " + sim.schedule_error);
  } else {
    check("dram_reads", sim.dram_reads, model.dataflow.dram_reads);
    check("dram_writes", sim.dram_writes, model.dataflow.dram_writes);
    for (size_t o = 0; o < p.ops.size(); ++o) {
      const std::string op = p.op(static_cast<int>(o)).name;
      check("macs[" + op + "]", sim.macs[o], model.compute.macs[o]);
      check("buffer_words[" + op + "]", sim.peak_words[o], model.dataflow.buffer_words[o]);
    }
    if (!(sim.output_error <= kValueTolerance)) {
      ++summary.mismatches_by_metric["values"];
      wrong.push_back("output differs from the reference einsum (relative error " +
                      std::to_string(sim.output_error) + ")");
    }
  }
  if (wrong.empty())
    return;
  ++summary.mismatching_pairs;
  if (summary.examples.size() >= kMaxExamples)
    return;
  std::string text = model.text + " |" + describe_tiling(p, tiling) + ":";
  for (const std::string &w : wrong)
    text += "\n    " + w;
  summary.examples.push_back(text);
}

} // namespace

DataflowSpace::DataflowSpace(const Problem &problem) : problem_(&problem) {
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    Block block{choice, {}, 1};
    for (size_t o = 0; o < problem.ops.size(); ++o) {
      block.plans.push_back(enumerate_local_plans(problem, choice, static_cast<int>(o)));
      block.count *= block.plans.back().size();
    }
    size_ += block.count;
    blocks_.push_back(std::move(block));
  }
}

Dataflow DataflowSpace::at(std::uint64_t index) const {
  for (const Block &block : blocks_) {
    if (index >= block.count) {
      index -= block.count;
      continue;
    }
    std::vector<const LocalPlan *> parts; // op 0's plan varies fastest, as in the search
    for (const std::vector<LocalPlan> &plans : block.plans) {
      parts.push_back(&plans[index % plans.size()]);
      index /= plans.size();
    }
    return assemble_dataflow(*problem_, block.choice, parts);
  }
  return {};
}

std::vector<Tiling> menu_tilings(const Problem &problem, TileMenu menu) {
  std::vector<Tiling> out{Tiling{dim_sizes(problem)}};
  for (int d : tiled_dims(problem)) {
    std::vector<Tiling> next;
    for (const Tiling &partial : out)
      for (std::int64_t t :
           tile_menu(problem.workload->dim_size(d), menu, kArraySide, TileSizes::Every,
                     [&](std::int64_t tile) { return problem.counts_tile_exactly(d, tile); })) {
        next.push_back(partial);
        next.back().tile[static_cast<size_t>(d)] = t;
      }
    out = std::move(next);
  }
  return out;
}

CheckSummary check_against_model(const Problem &problem, const CheckPlan &plan,
                                 std::uint32_t seed) {
  std::mt19937 rng(seed);
  const TraceSimulator simulator(problem, seed);
  const DataflowSpace space(problem);
  const std::vector<Tiling> all = menu_tilings(problem, TileMenu::All);
  const std::vector<Tiling> divisors = menu_tilings(problem, TileMenu::Divisors);
  const bool exhaustive = all.size() <= plan.max_all_tilings || all.size() == divisors.size();

  CheckSummary summary;
  summary.dataflows_in_space = space.size();
  for (std::uint64_t index : pick_indices(space.size(), plan.max_dataflows, rng)) {
    const Dataflow df = space.at(index);
    const ModelMetrics model = model_metrics(problem, df);
    std::vector<Tiling> tilings = exhaustive ? all : divisors;
    for (std::uint64_t i = 0; !exhaustive && i < plan.non_divisor_samples; ++i)
      tilings.push_back(random_non_divisor(problem, rng));
    for (const Tiling &tiling : tilings)
      compare(problem, model, tiling, simulator.run(df, tiling), summary);
    ++summary.dataflows_checked;
    summary.pairs += tilings.size();
  }
  return summary;
}

} // namespace dse::trace
