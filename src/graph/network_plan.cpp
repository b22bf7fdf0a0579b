// The `dse network` pipeline as a script: each pass reads the graph and earlier results.
#include "dse/graph/network_plan.hpp"

#include "dse/graph/parted_segment.hpp"

#include <chrono>
#include <exception>
#include <tbb/parallel_invoke.h>

#include "dse/support/thread_arena.hpp"

namespace dse {

double NetworkPlan::compression() const {
  const double before = memory_before.peak_words;
  return before > 0 ? 1 - memory_after.peak_words / before : 0;
}

namespace {

/// The rest of the pipeline on a general hierarchy: the segments searched by explore_hier, each
/// compute node alone with its attached operators and, with hier_fusion, each linked pair fused,
/// and their schedule through DRAM. The passes that plan the global buffer as a store of whole
/// tensors (splitting, residency, layout) belong to today's model.
NetworkPlan plan_on_hierarchy(const Graph &graph, const Hardware &hw, const NetworkOptions &options,
                              NetworkPlan plan, std::chrono::steady_clock::time_point start) {
  if (options.search_segments) {
    FusionOptions fusion{options.objective, options.search, &plan.movement, options.progress};
    fusion.search.fusion = options.hier_fusion;
    fusion.search.max_fused = 2;
    plan.fusion = plan_fusion(graph, hw, fusion);
    plan.schedule = through_dram_schedule(graph, plan.fusion);
  }
  plan.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

} // namespace

NetworkPlan plan_network(const Graph &graph, const Hardware &hw, const NetworkOptions &options) {
  const auto start = std::chrono::steady_clock::now();
  NetworkPlan plan;
  plan.movement = eliminate_movement(graph);
  plan.banks = map_banks(graph);
  if (!hw.is_legacy())
    return plan_on_hierarchy(graph, hw, options, std::move(plan), start);
  // The whole-node memory plan and the segment searches read only the graph, so the first runs
  // beside the second (on one thread of the searches' arena; in order with --threads 1). Their
  // errors are raised in the order of the passes, whichever thread met its error first. The
  // schedule, which may run the memory plan's split regions part by part, follows both.
  std::exception_ptr split_error, fusion_error;
  const auto split_pass = [&] {
    try {
      SplitOptions split = options.split;
      split.objective = options.objective;
      plan.split = plan_splits(graph, hw, split);
      plan.memory_before = memory_report(plan.split.plan_before, plan.split.before, hw);
      plan.memory_after = memory_report(plan.split.plan_after, plan.split.after, hw);
    } catch (...) {
      split_error = std::current_exception();
    }
  };
  const FusionOptions fusion{options.objective, options.search, &plan.movement, options.progress};
  const auto fusion_pass = [&] {
    if (!options.search_segments)
      return;
    try {
      plan.fusion = plan_fusion(graph, hw, fusion);
    } catch (...) {
      fusion_error = std::current_exception();
    }
  };
  thread_arena(options.search.threads).execute([&] {
    tbb::parallel_invoke(split_pass, fusion_pass);
    for (const std::exception_ptr &error : {split_error, fusion_error})
      if (error)
        std::rethrow_exception(error);
    if (!options.search_segments)
      return;
    // The split regions join the schedule as segments run part by part.
    const std::vector<Segment> regions =
        parted_segments(graph, hw, plan.split.regions, plan.fusion.unfused, fusion);
    plan.schedule = schedule_network(graph, hw, plan.fusion, regions, options.search.latency_model,
                                     options.objective);
  });
  if (!options.search_segments) // the schedule lays out its own passes
    plan.layout = plan_layout(graph, hw);
  plan.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return plan;
}

} // namespace dse
