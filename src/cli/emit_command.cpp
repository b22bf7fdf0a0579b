// `dse emit` and `dse run`: a front point (explored like `dse explore`) or a mapping file turned
// into kernel source; `run` also compiles and runs it and compares its counts with the model (on
// a general hierarchy, the hierarchical model's level 0; Timeloop's files are read as by eval).
#include <algorithm>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/input_files.hpp"
#include "dse/cli/kernel_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/codegen/hier_kernel.hpp"
#include "dse/codegen/kernel_counts.hpp"
#include "dse/codegen/kernel_emitter.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/model/fused_hier_resolution.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/search/explore.hpp"
#include "dse/search/hier_explore.hpp"

namespace dse {

namespace {

/// The schedule to emit: resolved segments (problems point into `workload`). On a general
/// hierarchy, the hierarchical model's counts and latency of the segments beside them.
struct Schedule {
  Workload workload;
  Hardware hw;
  std::vector<ResolvedSegment> resolved;
  std::string title;
  std::vector<KernelSegmentCounts> hier_predicted;
  double hier_latency_s = 0;

  std::vector<KernelSegment> segments() const {
    std::vector<KernelSegment> out;
    for (const ResolvedSegment &s : resolved)
      out.push_back({&s.problem, s.candidate, s.tiling});
    return out;
  }
};

/// Throws UserError unless the front has a point `point`.
void require_front_point(int point, size_t points) {
  if (static_cast<size_t>(point) >= points)
    throw UserError("--point " + std::to_string(point) + ": the front has " +
                    std::to_string(points) + " points");
}

/// The segments of front point `args.point`, found by the same search as explore's.
std::vector<ResolvedSegment> front_point_segments(const EmitArgs &args, const Workload &workload,
                                                  const Hardware &hw) {
  const SearchOptions options = search_options(args.search);
  ExploreResult result;
  {
    ProgressBar bar(args.progress || ProgressBar::stderr_is_terminal());
    result = explore(workload, hw, options,
                     [&bar](const std::string &label, std::uint64_t done, std::uint64_t total) {
                       bar.update(label, done, total);
                     });
  }
  require_front_point(args.point, result.front.size());
  std::vector<ResolvedSegment> segments;
  for (const MappingPart &part : result.front[static_cast<size_t>(args.point)].parts)
    segments.push_back({result.problems[part.problem], part.candidate, part.tiling});
  return segments;
}

/// The kernel segments of front point `args.point` on a general hierarchy, found by the same
/// search as explore's over the mappings a kernel runs: level 1 keeps every operand and result
/// (fused pairs, with --hier-fusion, keep them all there anyway; an attached operator's pass
/// runs with its einsum's segment).
std::vector<HierKernelSegment> hier_front_point_segments(const EmitArgs &args,
                                                         const Workload &workload,
                                                         const Hardware &hw, LatencyModel model) {
  HierSearchOptions options = hier_search_options(args.search, hw);
  options.level1_keeps_all = true;
  const HierExploreResult result = explore_hier(hw, workload, options);
  require_front_point(args.point, result.front.size());
  return hier_plan_kernel_segments(hw, workload, result,
                                   result.front[static_cast<size_t>(args.point)], model);
}

/// The kernel segment of one segment of a mapping file on a general hierarchy, after the
/// legality and capacity checks that dse eval makes.
HierKernelSegment hier_file_segment(const Hardware &hw, const Workload &workload,
                                    const HierSegmentMapping &s, LatencyModel model) {
  if (!s.fused) {
    const Operator &op = workload.ops[static_cast<size_t>(s.op)];
    if (const std::optional<std::string> why = hier_mapping_violation(hw, workload, op, s.mapping))
      throw UserError(s.where, *why);
    try {
      return hier_einsum_kernel_segment(hw, workload, s.op, s.mapping, model);
    } catch (const UserError &e) { // what the kernel cannot run, at the segment that asks for it
      throw UserError(s.where, e.message());
    }
  }
  const FusedHierSegment fused = resolve_fused_hier_segment(hw, workload, s);
  try {
    return hier_fused_kernel_segment(hw, fused.problem, fused.mapping, model);
  } catch (const UserError &e) { // capacities, and what the kernel cannot run, at the segment
    throw UserError(s.where, e.message());
  }
}

/// The schedule on a general hierarchy: level 0's loops and level 1's tiles as the kernel's,
/// with the hierarchical model's prediction.
void load_hier_schedule(const EmitArgs &args, Schedule &s) {
  require_kernel_hardware(s.hw);
  const LatencyModel model = parse_latency_model(args.search.latency_model);
  std::vector<HierKernelSegment> segments;
  if (args.point >= 0) {
    s.workload = load_searched_workload(args.workload_path, args.search, s.hw, args.max_input_mib);
    segments = hier_front_point_segments(args, s.workload, s.hw, model);
  } else {
    s.workload = load_workload_input(args.workload_path, args.max_input_mib);
    for (const HierSegmentMapping &m :
         load_hier_mapping_input(args.mapping_path, s.hw, s.workload, args.max_input_mib))
      segments.push_back(hier_file_segment(s.hw, s.workload, m, model));
  }
  for (HierKernelSegment &k : segments) {
    s.resolved.push_back(std::move(k.segment));
    s.hier_predicted.push_back(std::move(k.predicted));
    s.hier_latency_s += k.latency_s;
  }
}

/// The schedule on hardware of today's form.
void load_legacy_schedule(const EmitArgs &args, Schedule &s) {
  if (args.point >= 0) {
    s.workload = load_searched_workload(args.workload_path, args.search, s.hw, args.max_input_mib);
    s.resolved = front_point_segments(args, s.workload, s.hw);
  } else {
    s.workload = with_sibling_stacks(load_workload(args.workload_path, args.max_input_mib));
    s.resolved = resolve_mapping(s.workload, load_mapping(args.mapping_path, args.max_input_mib));
  }
}

/// Loads the inputs and resolves the schedule; refuses mappings that overflow the buffer.
void load_schedule(const EmitArgs &args, Schedule &s) {
  if ((args.point >= 0) == !args.mapping_path.empty())
    throw UserError("give exactly one of --point N and --mapping FILE");
  s.hw = load_hardware_input(args.hw_path, args.ert_path, args.max_input_mib);
  if (s.hw.is_legacy())
    load_legacy_schedule(args, s);
  else
    load_hier_schedule(args, s);
  const std::string space = s.hw.is_legacy() ? "" : ", level 1 keeping every tile";
  s.title =
      "workload '" + s.workload.name + "', " +
      (args.point >= 0 ? "front point " + std::to_string(args.point) + " (objectives " +
                             args.search.objectives + ", tiles " + args.search.tiles + space + ")"
                       : "mapping " + args.mapping_path);
  if (const std::string why = arena_overflow(s.segments(), s.hw); !why.empty())
    throw UserError(why);
}

/// The model's counts and latency of the schedule: the hierarchical model's on a general
/// hierarchy, else the legacy model's.
std::vector<KernelSegmentCounts> schedule_prediction(const Schedule &s) {
  return s.hw.is_legacy() ? predicted_counts(s.segments(), s.hw) : s.hier_predicted;
}

double schedule_latency_s(const Schedule &s, LatencyModel model) {
  return s.hw.is_legacy() ? predicted_latency_s(s.segments(), s.hw, model) : s.hier_latency_s;
}

std::string emit_source(const Schedule &s) {
  EmitOptions options;
  options.title = s.title;
  return emit_kernel(s.segments(), s.hw, options);
}

} // namespace

int run_emit(const EmitArgs &args) {
  Schedule s;
  load_schedule(args, s);
  write_output(args.output_path, emit_source(s));
  return 0;
}

int run_kernel(const EmitArgs &args) {
  Schedule s;
  load_schedule(args, s);
  const std::string source = emit_source(s);
  if (!args.output_path.empty())
    write_output(args.output_path, source);
  const ScratchDir dir("dse-run");
  const std::string compiler = host_compiler(args.cxx);
  const ProcessResult compiled = compile_kernel(source, dir.path(), compiler, "", "kernel");
  if (compiled.exit_code != 0)
    throw UserError("compiling the kernel with '" + compiler + "' failed (exit " +
                    std::to_string(compiled.exit_code) + "):\n" + compiled.err.substr(0, 4000));
  std::string command =
      shell_quote((dir.path() / "kernel").string()) + " --repeat " + std::to_string(args.repeat);
  if (args.no_check)
    command += " --no-check";
  const ProcessResult ran = run_captured(command, dir.path());
  if (ran.exit_code != 0 && ran.exit_code != 1)
    throw UserError("the kernel stopped with exit code " + std::to_string(ran.exit_code) + ":\n" +
                    ran.err.substr(0, 4000));
  const KernelRun run = parse_kernel_run(ran.out);
  bool ok = false;
  write_stdout(
      s.title + "\n" +
      comparison_text(compare_counts(schedule_prediction(s), run), run,
                      schedule_latency_s(s, parse_latency_model(args.search.latency_model)), ok));
  return ok ? 0 : 2;
}

} // namespace dse
