// Rung 4 of the validation ladder on general hierarchies (docs/HIERARCHY.md §10): a mapping whose
// level 1 keeps every tile runs as a kernel whose output equals the unfused reference and whose
// counted DRAM words and MACs equal the hierarchical model's level 0 (reads, updates, MACs). On
// seeded random hierarchies (one to three on-chip levels, fan-outs below level 1) with random
// legal mappings of GEMMs, 1-D convolutions and batched GEMMs, on random fused pairs, and on the
// front points of a shipped hierarchy; and what a kernel cannot run is refused by name.
#include <gtest/gtest.h>

#include "codegen/kernel_fixture.hpp"
#include "common/repo_files.hpp"
#include "common/suite_scale.hpp"
#include "common/user_error.hpp"
#include "common/workloads.hpp"
#include "dse/codegen/hier_kernel.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/fused_hier_resolution.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_explore.hpp"
#include "model/fused_hier_random.hpp"
#include "model/hier_random.hpp"

namespace dse {
namespace {

using codegen_test::expect_matches_model;
using test_common::error_of;

/// Runs the kernel of `segments` and expects it to count what their predictions say.
void expect_kernel_counts_the_prediction(const std::string &title, const Hardware &hw,
                                         const std::vector<HierKernelSegment> &segments) {
  std::vector<KernelSegment> kernel;
  std::vector<KernelSegmentCounts> predicted;
  for (const HierKernelSegment &s : segments) {
    kernel.push_back({&s.segment.problem, s.segment.candidate, s.segment.tiling});
    predicted.push_back(s.predicted);
  }
  expect_matches_model(title, kernel, hw, &predicted);
}

/// A hierarchy a kernel runs on: no fan-out above level 1, which may hold every tensor, and
/// first-read elision.
void make_kernel_hierarchy(Hardware &hw) {
  hw.hierarchy.fanouts[0].clear();
  hw.hierarchy.levels[1].holds = role::kAll;
  hw.hierarchy.first_read_elision = true;
}

/// A random legal mapping of the case's einsum that keeps every tensor at level 1 and loops over
/// no window dimension at level 0 (its level-0 factor moved into level 1 where that leaves the
/// padding unchanged), drawn again until one is.
OpMapping kernel_mapping(std::mt19937_64 &rng, const hier_random::Case &c) {
  const Operator &op = c.workload.ops[0];
  const Problem problem = make_single_problem(c.workload, {0, {}});
  for (;;) {
    OpMapping m = hier_random::random_mapping(rng, c.hardware.hierarchy, c.workload, op);
    m.levels[1].keep = (1U << operator_tensors(op).size()) - 1;
    bool padded_window = false;
    for (int d : problem.ops[0].dims) {
      const auto at = static_cast<size_t>(d);
      if (std::find(problem.ops[0].tiled_dims.begin(), problem.ops[0].tiled_dims.end(), d) !=
          problem.ops[0].tiled_dims.end())
        continue;
      padded_window = padded_window || hier_random::inner_product(m, d) * m.levels[0].factor[at] !=
                                           c.workload.dim_size(d);
      m.levels[1].factor[at] *= m.levels[0].factor[at];
      m.levels[0].factor[at] = 1;
    }
    if (!padded_window && !hier_mapping_violation(c.hardware, c.workload, op, m))
      return m;
  }
}

TEST(HierKernel, RandomMappingsCountWhatTheHierarchicalModelPredicts) {
  const int cases = test_common::per_suite(12, 6);
  for (int seed = 0; seed < cases; ++seed) {
    const auto kind = static_cast<hier_random::EinsumKind>(seed % 3);
    hier_random::Case c = hier_random::random_case(static_cast<std::uint64_t>(seed), kind);
    make_kernel_hierarchy(c.hardware);
    std::mt19937_64 rng(static_cast<std::uint64_t>(seed) + 1000);
    c.mapping = kernel_mapping(rng, c);
    const std::string title = "seed " + std::to_string(seed) + ": " + hier_random::describe(c);
    expect_kernel_counts_the_prediction(
        title, c.hardware,
        {hier_einsum_kernel_segment(c.hardware, c.workload, 0, c.mapping, LatencyModel::Roofline)});
  }
}

TEST(HierKernel, RandomFusedPairsCountWhatTheHierarchicalModelPredicts) {
  const int cases = test_common::per_suite(8, 4);
  for (int seed = 0; seed < cases; ++seed) {
    const auto kind = static_cast<fused_hier_random::ChainKind>(seed % 2);
    fused_hier_random::Case c =
        fused_hier_random::random_case(static_cast<std::uint64_t>(seed), kind);
    c.hardware.hierarchy.first_read_elision = true;
    const Problem problem = fused_hier_random::fused_problem(c);
    const std::string title =
        "seed " + std::to_string(seed) + ": " + fused_hier_random::describe(c);
    expect_kernel_counts_the_prediction(
        title, c.hardware,
        {hier_fused_kernel_segment(c.hardware, problem, c.mapping, LatencyModel::Roofline)});
  }
}

/// Every point of the front of `workload` on `hw_path` among the mappings a kernel runs, searched
/// with `options`: each einsum alone or fused pair runs as a kernel segment.
void expect_front_points_count_the_prediction(const std::string &hw_path, const Workload &workload,
                                              HierSearchOptions options) {
  const Hardware hw = load_hardware(test_common::repo_file(hw_path));
  options.level1_keeps_all = true;
  const HierExploreResult result = explore_hier(hw, workload, options);
  ASSERT_FALSE(result.front.empty());
  for (size_t p = 0; p < result.front.size(); ++p) {
    std::vector<HierKernelSegment> segments;
    for (const HierPlanPart &part : result.front[p].parts) {
      const HierSegmentFront &s = result.segments[part.segment];
      if (s.pair)
        segments.push_back(hier_fused_kernel_segment(hw, *s.pair, s.fused.front[part.point].mapping,
                                                     LatencyModel::Roofline));
      else if (!s.pass)
        segments.push_back(hier_einsum_kernel_segment(hw, workload, s.ops.front(),
                                                      s.search.front[part.point].mapping,
                                                      LatencyModel::Roofline));
    }
    expect_kernel_counts_the_prediction(workload.name + " point " + std::to_string(p), hw,
                                        segments);
  }
}

TEST(HierKernel, FrontPointsWithResidualsAndSoftmaxCountWhatTheModelPredicts) {
  // Two 3x3 convolutions, the second starting from the block's input; attention's softmax as a
  // pass through DRAM between its einsums.
  expect_front_points_count_the_prediction(
      "hw_configs/a16-timeloop.yaml",
      load_workload(test_common::repo_file("workloads/resnet-basic-block-56.yaml")), {});
  expect_front_points_count_the_prediction(
      "hw_configs/quad-core-4level.yaml",
      load_workload(test_common::repo_file("workloads/bert-base-attention-s512.yaml")), {});
}

TEST(HierKernel, FrontPointsOfFusedPairsCountWhatTheModelPredicts) {
  // Two GEMMs, searched fused and alone over latency and level-1 words: the front has both.
  const Workload ffn = parse_workload("name: ffn8\ndims: {m: 8, k: 4, n: 8, l: 4}\nops:\n"
                                      "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                                      "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n",
                                      "ffn8.yaml");
  HierSearchOptions options;
  options.objectives = {Objective::Latency, Objective::Buffer};
  options.fusion = true;
  expect_front_points_count_the_prediction("hw_configs/a16-timeloop.yaml", ffn, options);
}

/// The reads of `name` that segment `k` predicts, -1 when it predicts none.
double predicted_reads(const HierKernelSegment &k, const std::string &name) {
  for (const KernelCount &c : k.predicted.counts)
    if (c.name == name && c.quantity == "reads")
      return c.value;
  return -1;
}

TEST(HierKernel, AFusedConsumerStartingFromAResidualCountsItApart) {
  // The consumer's output starts from A, read at the first arrival of each of its padded
  // elements: m = 7 in two tiles of 4.
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/a16-timeloop.yaml"));
  const Workload w =
      parse_workload("name: ffnr\ndims: {m: 7, k: 4, n: 8}\nops:\n"
                     "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                     "  - {name: down, einsum: \"O[m,k] += H[m,n] * W2[n,k]\", residual: A}\n",
                     "ffnr.yaml");
  const std::string mapping = R"(workload: ffnr
segments:
  - ops: [up, down]
    prefix: []
    retention: {A: 2, W1: 3, H: 0, W2: 3, O: 2}
    levels:
      up:
        - {level: DRAM, order: [m, k, n], factors: {m: 2, n: 4, k: 4}}
        - {level: GlobalBuffer, keep: [A, W1, H]}
        - {fanout: PE, y: {m: 4, n: 2}}
        - {level: RegisterFile, keep: [A]}
      down:
        - {level: DRAM, order: [m, k, n], factors: {m: 2, k: 4, n: 4}}
        - {level: GlobalBuffer, keep: [H, W2, O]}
        - {fanout: PE, y: {m: 4, n: 2}}
        - {level: RegisterFile, keep: [O]}
)";
  const FusedHierSegment fused =
      resolve_fused_hier_segment(hw, w, parse_hier_mapping(mapping, "m.yaml", hw, w).front());
  const HierKernelSegment k =
      hier_fused_kernel_segment(hw, fused.problem, fused.mapping, LatencyModel::Roofline);
  EXPECT_EQ(predicted_reads(k, "A (residual)"), 32); // 8 x 4 padded
  EXPECT_EQ(predicted_reads(k, "O"), 0);             // no partial sum leaves the arena
  expect_kernel_counts_the_prediction("residual pair", hw, {k});
}

TEST(HierKernel, AnEinsumStartingFromAResidualCountsItApart) {
  // Z starts from R, read at the first arrival of each of its padded elements: m = 7 in two
  // tiles of 4; k split between DRAM and the global buffer, so partial sums do not spill.
  const Hardware hw = load_hardware(test_common::repo_file("hw_configs/a16-timeloop.yaml"));
  const Workload w =
      parse_workload("name: gr\ndims: {m: 7, k: 4, n: 8}\nops:\n"
                     "  - {name: mm, einsum: \"Z[m,n] += A[m,k] * B[k,n]\", residual: R}\n",
                     "gr.yaml");
  const std::string mapping = R"(workload: gr
segments:
  - ops: [mm]
    levels:
      - {level: DRAM, order: [m, n, k], factors: {m: 2, n: 2, k: 2}}
      - {level: GlobalBuffer, order: [k], factors: {k: 2}, keep: [A, B, Z]}
      - {fanout: PE, y: {m: 4, n: 4}}
      - {level: RegisterFile, keep: [Z]}
)";
  const HierSegmentMapping segment = parse_hier_mapping(mapping, "m.yaml", hw, w).front();
  const HierKernelSegment k =
      hier_einsum_kernel_segment(hw, w, segment.op, segment.mapping, LatencyModel::Roofline);
  EXPECT_EQ(predicted_reads(k, "R (residual)"), 64); // 8 x 8 padded
  EXPECT_EQ(predicted_reads(k, "Z"), 0);
  expect_kernel_counts_the_prediction("residual einsum", hw, {k});
}

TEST(HierKernel, WhatAKernelCannotRunIsRefusedByName) {
  hier_random::Case c = hier_random::random_case(3, hier_random::EinsumKind::Gemm);
  make_kernel_hierarchy(c.hardware);
  std::mt19937_64 rng(7);
  c.mapping = kernel_mapping(rng, c);
  const auto segment = [&] {
    hier_einsum_kernel_segment(c.hardware, c.workload, 0, c.mapping, LatencyModel::Roofline);
  };
  ASSERT_EQ(error_of(segment), "");

  OpMapping kept = c.mapping;
  c.mapping.levels[1].keep &= ~2U; // the second operand, B
  EXPECT_NE(error_of(segment).find("op 'mm' bypasses level 1 '" +
                                   c.hardware.hierarchy.levels[1].name +
                                   "' for 'B'; a kernel holds every tile at level 1"),
            std::string::npos)
      << error_of(segment);
  c.mapping = kept;

  c.hardware.hierarchy.first_read_elision = false;
  EXPECT_NE(error_of(segment).find("first_read_elision: false"), std::string::npos);
  c.hardware.hierarchy.first_read_elision = true;

  c.hardware.hierarchy.fanouts[0].push_back(Fanout{"cores", 2, 1});
  EXPECT_NE(error_of(segment).find("has 2 instances; a kernel runs level 1 as one arena"),
            std::string::npos)
      << error_of(segment);
  EXPECT_NE(error_of([&] { require_kernel_hardware(c.hardware); }).find("has 2 instances"),
            std::string::npos);
  c.hardware.hierarchy.fanouts[0].clear();

  c.hardware.hierarchy.levels[1].holds = role::kOperand0 | role::kOutput;
  EXPECT_NE(error_of(segment).find("may not hold every operand and result"), std::string::npos)
      << error_of(segment);
}

TEST(HierKernel, AWindowDimensionLoopedAtLevelZeroIsRefused) {
  const Workload w = parse_workload("name: c\ndims: {p: 4, r: 3}\nops:\n"
                                    "  - {name: conv, einsum: \"O[p] += I[p+r] * W[r]\"}\n",
                                    "w.yaml");
  Hardware hw = hier_random::random_case(0, hier_random::EinsumKind::Gemm).hardware;
  make_kernel_hierarchy(hw);
  OpMapping m = hier_random::unit_mapping(hw.hierarchy, w.dims.size());
  m.levels[0].factor = {4, 3};
  m.levels[0].order = {0, 1};
  m.levels[1].keep = 7;
  EXPECT_NE(error_of([&] { hier_einsum_kernel_segment(hw, w, 0, m, LatencyModel::Roofline); })
                .find("op 'conv' loops over window dimension 'r' at level 0; a kernel holds the "
                      "whole window at level 1"),
            std::string::npos);
}

} // namespace
} // namespace dse
