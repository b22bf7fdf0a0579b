// Rung 4 against Timeloop: every reference mapping of tests/data/timeloop-a16 whose global buffer
// keeps every tensor (64 of the 80; the others bypass it for a tensor) runs as a kernel, level 0's
// loops and the global buffer's tiles, read from its Timeloop files. The DRAM words the kernel
// counts per tensor are Timeloop's own DRAM reads and updates, its MACs Timeloop's, and its
// output the reference's (first-read elision on: a kernel reads no partial sum before its first
// write).
#include <gtest/gtest.h>

#include "codegen/kernel_fixture.hpp"
#include "common/suite_scale.hpp"
#include "common/timeloop_reference.hpp"
#include "dse/codegen/hier_kernel.hpp"
#include "dse/config/timeloop_loader.hpp"

namespace dse {
namespace {

using test_common::timeloop_input_path;

/// Timeloop's DRAM reads and updates per tensor and its MACs, as a kernel labels them.
KernelSegmentCounts timeloop_counts(const std::string &label, const Operator &op,
                                    const YAML::Node &stats) {
  KernelSegmentCounts c{label, {}};
  for (const TensorAccess *t : operator_tensors(op)) {
    const YAML::Node dram = stats["levels"]["DRAM"]["tensors"][t->tensor];
    c.counts.push_back({t->tensor, "reads", dram["reads_total"].as<double>()});
    c.counts.push_back({t->tensor, "writes", dram["updates_total"].as<double>()});
  }
  c.counts.push_back({op.name, "macs", stats["macs"].as<double>()});
  return c;
}

TEST(TimeloopKernel, ReferenceMappingsCountTimeloopsDramWords) {
  const size_t stride = test_common::per_suite<size_t>(1, 4);
  size_t keeping_all = 0, run = 0;
  for (const YAML::Node &record : test_common::timeloop_reference_records()) {
    const Hardware hw = load_timeloop_architecture(timeloop_input_path(record, "arch"),
                                                   timeloop_input_path(record, "ert"));
    const Workload workload = load_timeloop_problem(timeloop_input_path(record, "problem"));
    const OpMapping mapping =
        load_timeloop_mapping(timeloop_input_path(record, "map"), hw, workload);
    const Operator &op = workload.ops.front();
    if (mapping.levels[1].keep != (1U << operator_tensors(op).size()) - 1)
      continue; // the global buffer bypasses a tensor: no kernel (level 1 holds every tile)
    if (keeping_all++ % stride != 0)
      continue;
    const HierKernelSegment k =
        hier_einsum_kernel_segment(hw, workload, 0, mapping, LatencyModel::Roofline);
    const std::vector<KernelSegmentCounts> timeloop = {
        timeloop_counts(k.predicted.label, op, record["stats"])};
    codegen_test::expect_matches_model(
        record["id"].as<std::string>(),
        {{&k.segment.problem, k.segment.candidate, k.segment.tiling}}, hw, &timeloop);
    ++run;
  }
  EXPECT_EQ(keeping_all, 64u);
  EXPECT_EQ(run, (keeping_all + stride - 1) / stride);
}

} // namespace
} // namespace dse
