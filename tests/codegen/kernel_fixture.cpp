// Test support: YAML in, kernels compiled and run in scratch directories, counts compared.
#include "codegen/kernel_fixture.hpp"

#include "dse/codegen/kernel_runner.hpp"
#include "dse/config/mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"

#include <algorithm>

namespace dse::codegen_test {

std::string vector_hardware(std::int64_t gb_words, int cores) {
  return "name: test-vector\nclock_ghz: 2.0\nword_bytes: 4\ncores: " + std::to_string(cores) +
         "\nvector: {lanes: 8, fma_units: 2, fma_energy_pj: 1.0}\nlevels:\n"
         "  - {name: DRAM, bandwidth_gbps: 20, read_energy_pj: 100, write_energy_pj: 100}\n"
         "  - {name: GlobalBuffer, capacity_words: " +
         std::to_string(gb_words) +
         ", read_energy_pj: 2, write_energy_pj: 2}\n"
         "  - {name: RegFile, capacity_words: 128, read_energy_pj: 0.1, write_energy_pj: 0.1}\n";
}

Schedule::Schedule(const std::string &workload_yaml, const std::string &mapping_yaml)
    : workload_(std::make_unique<Workload>(
          with_sibling_stacks(parse_workload(workload_yaml, "test-workload.yaml")))),
      resolved_(resolve_mapping(*workload_, parse_mapping(mapping_yaml, "test-mapping.yaml"))) {}

std::vector<KernelSegment> Schedule::segments() const {
  std::vector<KernelSegment> out;
  for (const ResolvedSegment &s : resolved_)
    out.push_back({&s.problem, s.candidate, s.tiling});
  return out;
}

Front::Front(const std::string &workload_yaml, const Hardware &hw, Stacking stacking)
    : workload_(std::make_unique<Workload>(
          stacking == Stacking::Siblings
              ? with_sibling_stacks(parse_workload(workload_yaml, "test-workload.yaml"))
              : parse_workload(workload_yaml, "test-workload.yaml"))),
      result_(explore(*workload_, hw, SearchOptions{})) {}

std::vector<KernelSegment> Front::point(size_t index) const {
  std::vector<KernelSegment> out;
  for (const MappingPart &part : result_.front.at(index).parts)
    out.push_back({&result_.problems[part.problem], part.candidate, part.tiling});
  return out;
}

std::string segment(const std::string &ops, const std::string &prefix, const std::string &loops,
                    const std::string &retention, const std::string &tiles) {
  std::string spatial;
  const std::string names = ops.substr(1, ops.size() - 2);
  for (size_t at = 0; at <= names.size();) {
    const size_t comma = std::min(names.find(',', at), names.size());
    std::string op = names.substr(at, comma - at);
    op.erase(0, op.find_first_not_of(' '));
    spatial += (spatial.empty() ? "" : ", ") + op + ": ['-', '-']";
    at = comma + 1;
  }
  return "  - ops: " + ops + "\n" + (prefix.empty() ? "" : "    prefix: " + prefix + "\n") +
         "    loops: {" + loops + "}\n    retention: {" + retention + "}\n    spatial: {" +
         spatial + "}\n    tiles: {" + tiles + "}\n";
}

std::string mapping(const std::string &workload, const std::vector<std::string> &segments) {
  std::string out = "workload: " + workload + "\nsegments:\n";
  for (const std::string &s : segments)
    out += s;
  return out;
}

KernelOutcome build_and_run(const std::vector<KernelSegment> &segments, const Hardware &hw,
                            const std::string &title,
                            const std::vector<KernelSegmentCounts> *predicted) {
  EmitOptions options;
  options.title = title;
  const std::string source = emit_kernel(segments, hw, options);
  const ScratchDir dir("dse-codegen-test");
  KernelOutcome k;
  const ProcessResult compiled =
      compile_kernel(source, dir.path(), host_compiler(""), "-Wall -Wextra -Werror", "kernel");
  k.compile_exit = compiled.exit_code;
  k.compile_errors = compiled.err;
  if (k.compile_exit != 0)
    return k;
  const ProcessResult ran = run_captured(shell_quote((dir.path() / "kernel").string()), dir.path());
  k.run_exit = ran.exit_code;
  k.run = parse_kernel_run(ran.out);
  k.counts = compare_counts(predicted ? *predicted : predicted_counts(segments, hw), k.run);
  return k;
}

KernelOutcome expect_matches_model(const std::string &title,
                                   const std::vector<KernelSegment> &segments, const Hardware &hw,
                                   const std::vector<KernelSegmentCounts> *predicted) {
  const KernelOutcome k = build_and_run(segments, hw, title, predicted);
  EXPECT_EQ(k.compile_exit, 0) << title << ": " << k.compile_errors.substr(0, 4000);
  if (k.compile_exit != 0)
    return k;
  EXPECT_EQ(k.run_exit, 0) << title;
  EXPECT_TRUE(k.run.checked);
  EXPECT_TRUE(k.run.check_passed) << title << ": max relative error " << k.run.max_relative_error;
  EXPECT_FALSE(k.counts.empty());
  for (const CountComparison &c : k.counts)
    EXPECT_EQ(c.measured, c.predicted)
        << title << ": " << c.segment << " " << c.name << " " << c.quantity;
  return k;
}

double measured(const KernelOutcome &k, const std::string &name, const std::string &quantity) {
  double sum = 0;
  for (const CountComparison &c : k.counts)
    if (c.name == name && c.quantity == quantity)
      sum += c.measured;
  return sum;
}

} // namespace dse::codegen_test
