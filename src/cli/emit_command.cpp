// `dse emit` and `dse run`: a front point (explored like `dse explore`) or a mapping file turned
// into kernel source; `run` also compiles and runs it and compares its counts with the model.
#include <algorithm>
#include <sstream>

#include "dse/cli/commands.hpp"
#include "dse/cli/kernel_report.hpp"
#include "dse/cli/output_file.hpp"
#include "dse/cli/progress_bar.hpp"
#include "dse/codegen/kernel_counts.hpp"
#include "dse/codegen/kernel_emitter.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "dse/model/mapping_resolution.hpp"
#include "dse/search/explore.hpp"

namespace dse {

namespace {

/// The schedule to emit: resolved segments (problems point into `workload`).
struct Schedule {
  Workload workload;
  Hardware hw;
  std::vector<ResolvedSegment> resolved;
  std::string title;

  std::vector<KernelSegment> segments() const {
    std::vector<KernelSegment> out;
    for (const ResolvedSegment &s : resolved)
      out.push_back({&s.problem, s.candidate, s.tiling});
    return out;
  }
};

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
  if (static_cast<size_t>(args.point) >= result.front.size())
    throw UserError("--point " + std::to_string(args.point) + ": the front has " +
                    std::to_string(result.front.size()) + " points");
  std::vector<ResolvedSegment> segments;
  for (const MappingPart &part : result.front[static_cast<size_t>(args.point)].parts)
    segments.push_back({result.problems[part.problem], part.candidate, part.tiling});
  return segments;
}

/// Loads the inputs and resolves the schedule; refuses mappings that overflow the buffer.
void load_schedule(const EmitArgs &args, Schedule &s) {
  if ((args.point >= 0) == !args.mapping_path.empty())
    throw UserError("give exactly one of --point N and --mapping FILE");
  s.hw = load_hardware(args.hw_path, args.max_input_mib);
  require_legacy_hardware(s.hw, "emit/run");
  s.workload =
      args.point >= 0
          ? load_searched_workload(args.workload_path, args.search, s.hw, args.max_input_mib)
          : with_sibling_stacks(load_workload(args.workload_path, args.max_input_mib));
  if (args.point >= 0) {
    const std::string name = "front point " + std::to_string(args.point);
    s.resolved = front_point_segments(args, s.workload, s.hw);
    s.title = "workload '" + s.workload.name + "', " + name + " (objectives " +
              args.search.objectives + ", tiles " + args.search.tiles + ")";
  } else {
    s.resolved = resolve_mapping(s.workload, load_mapping(args.mapping_path, args.max_input_mib));
    s.title = "workload '" + s.workload.name + "', mapping " + args.mapping_path;
  }
  if (const std::string why = arena_overflow(s.segments(), s.hw); !why.empty())
    throw UserError(why);
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
  const std::vector<KernelSegment> segments = s.segments();
  bool ok = false;
  write_stdout(s.title + "\n" +
               comparison_text(compare_counts(predicted_counts(segments, s.hw), run), run,
                               predicted_latency_s(segments, s.hw,
                                                   parse_latency_model(args.search.latency_model)),
                               ok));
  return ok ? 0 : 2;
}

} // namespace dse
