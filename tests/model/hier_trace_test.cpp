// Rung 1 of docs/HIERARCHY.md §10 for the hierarchical model: the literal walk of
// hier_trace_simulator counts the worked example of §4.5 as the document does, and gives every
// count of evaluate_hier_mapping on seeded random hierarchies and mappings.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "model/hier_random.hpp"
#include "model/hier_trace_simulator.hpp"
#include "model/hier_worked_example.hpp"

namespace dse {
namespace {

using hier_trace::TensorCounts;
using hier_trace::TraceCounts;

constexpr size_t kA = 0, kB = 1, kZ = 2; // operator_tensors of C[m,n] += A[m,k] * B[k,n]

/// The worked example of §4.5 (model/hier_worked_example.hpp) as a case.
hier_random::Case worked_example_case() {
  return {worked_example::hardware(), worked_example::workload(), worked_example::mapping()};
}

TraceCounts simulate(const hier_random::Case &c, bool elision) {
  return hier_trace::simulate(c.hardware, c.workload, c.workload.ops[0], c.mapping, elision);
}

const TensorCounts &kept(const TraceCounts &counts, size_t level, size_t tensor) {
  const std::optional<TensorCounts> &kept = counts.levels.at(level).at(tensor);
  EXPECT_TRUE(kept.has_value()) << "level " << level << " tensor " << tensor;
  static const TensorCounts kNone{-1, -1, -1};
  return kept ? *kept : kNone;
}

double energy_pj(const StorageLevel &level, const TensorCounts &counts) {
  return static_cast<double>(counts.reads) * level.read_pj +
         static_cast<double>(counts.fills) * level.fill_pj +
         static_cast<double>(counts.updates) * level.update_pj;
}

TEST(HierTraceWorkedExample, WalkGivesTheTableOfTheDocument) {
  const hier_random::Case c = worked_example_case();
  const TraceCounts counts = simulate(c, true);
  EXPECT_EQ(counts.macs, 262144);
  EXPECT_EQ(kept(counts, 0, kA), (TensorCounts{4096, 0, 0}));
  EXPECT_EQ(kept(counts, 0, kB), (TensorCounts{8192, 0, 0}));
  EXPECT_EQ(kept(counts, 0, kZ), (TensorCounts{4096, 0, 8192}));
  EXPECT_EQ(kept(counts, 1, kA), (TensorCounts{65536, 4096, 0}));
  EXPECT_EQ(kept(counts, 1, kB), (TensorCounts{65536, 8192, 0}));
  EXPECT_EQ(kept(counts, 1, kZ), (TensorCounts{28672, 4096, 32768}));
  EXPECT_FALSE(counts.levels[2][kA].has_value());
  EXPECT_FALSE(counts.levels[2][kB].has_value());
  EXPECT_EQ(kept(counts, 2, kZ), (TensorCounts{258048, 28672, 262144}));
}

TEST(HierTraceWorkedExample, WalkCountsGiveTheEnergiesOfTheTable) {
  const hier_random::Case c = worked_example_case();
  const TraceCounts counts = simulate(c, true);
  const std::vector<StorageLevel> &levels = c.hardware.hierarchy.levels;
  EXPECT_EQ(energy_pj(levels[0], kept(counts, 0, kA)) + energy_pj(levels[0], kept(counts, 0, kB)) +
                energy_pj(levels[0], kept(counts, 0, kZ)),
            2457600);
  EXPECT_EQ(energy_pj(levels[1], kept(counts, 1, kA)), 348160);
  EXPECT_EQ(energy_pj(levels[1], kept(counts, 1, kB)), 368640);
  EXPECT_EQ(energy_pj(levels[1], kept(counts, 1, kZ)), 327680);
  EXPECT_EQ(energy_pj(levels[2], kept(counts, 2, kZ)), 274432);
}

TEST(HierTraceWorkedExample, WalkWithoutElisionReadsAndFillsTheFirstZeros) {
  const TraceCounts counts = simulate(worked_example_case(), false);
  EXPECT_EQ(kept(counts, 0, kZ), (TensorCounts{8192, 0, 8192}));
  EXPECT_EQ(kept(counts, 1, kZ), (TensorCounts{32768, 8192, 32768}));
  EXPECT_EQ(kept(counts, 2, kZ), (TensorCounts{262144, 32768, 262144}));
  EXPECT_EQ(kept(counts, 1, kA), (TensorCounts{65536, 4096, 0}));
  EXPECT_EQ(kept(counts, 1, kB), (TensorCounts{65536, 8192, 0}));
}

/// Whether `tensor` of `op` has an index that is not a bare dimension (`p+r`).
bool has_windows(const Operator &op, size_t tensor) {
  const std::vector<IndexExpr> &indices = operator_tensors(op)[tensor]->indices;
  return std::any_of(indices.begin(), indices.end(),
                     [](const IndexExpr &index) { return !index.is_plain(); });
}

/// Every difference between the walk and the closed forms, one line each; empty when they agree.
/// For tensors with windows the closed forms are an upper bound: they fetch a whole tile per
/// iteration of a relevant loop and count overlapping windows of sibling instances apart, while
/// the walk fetches nothing for a window that did not move and multicasts a word that several
/// windows share (HierTraceWindows below).
std::string differences(const TraceCounts &walk, const HierCost &model, const Operator &op) {
  std::ostringstream text;
  if (walk.levels.size() != model.levels.size())
    return "the walk has " + std::to_string(walk.levels.size()) + " levels, the model " +
           std::to_string(model.levels.size());
  for (size_t l = 0; l < walk.levels.size(); ++l)
    for (size_t t = 0; t < walk.levels[l].size(); ++t) {
      const std::optional<TensorCounts> &w = walk.levels[l][t];
      const std::optional<HierTensorCounts> &m = model.levels[l].tensors.at(t);
      if (w.has_value() != m.has_value()) {
        text << "level " << l << " tensor " << t << ": kept in one only\n";
        continue;
      }
      if (!w)
        continue;
      const auto compare = [&](const char *action, std::int64_t walked, double modelled) {
        const auto value = static_cast<double>(walked);
        if (has_windows(op, t) ? value > modelled : value != modelled)
          text << "level " << l << " tensor " << t << " " << action << ": walk " << walked
               << ", model " << modelled << "\n";
      };
      compare("reads", w->reads, m->reads);
      compare("fills", w->fills, m->fills);
      compare("updates", w->updates, m->updates);
    }
  if (static_cast<double>(walk.macs) != model.macs)
    text << "macs: walk " << walk.macs << ", model " << model.macs << "\n";
  return text.str();
}

HierCost model(const hier_random::Case &c, bool elision) {
  return evaluate_hier_mapping(c.hardware, c.workload, c.workload.ops[0], c.mapping, elision,
                               LatencyModel::Roofline);
}

/// With `residual`, the einsum starts its output from a residual `R` (read at its indices).
void expect_walk_equals_model(hier_random::EinsumKind kind, std::uint64_t first_seed, int cases,
                              bool residual = false) {
  for (std::uint64_t seed = first_seed; seed < first_seed + static_cast<std::uint64_t>(cases);
       ++seed) {
    hier_random::Case c = hier_random::random_case(seed, kind);
    if (residual)
      c.workload.ops[0].einsum.residual = "R";
    const Operator &op = c.workload.ops[0];
    ASSERT_EQ(hier_mapping_violation(c.hardware, c.workload, op, c.mapping), std::nullopt)
        << "seed " << seed << "\n"
        << hier_random::describe(c);
    for (bool elision : {true, false})
      EXPECT_EQ(differences(simulate(c, elision), model(c, elision), op), "")
          << "seed " << seed << (elision ? ", elision on\n" : ", elision off\n")
          << hier_random::describe(c);
  }
}

TEST(HierTraceRandom, GemmWalkEqualsTheClosedForms) {
  expect_walk_equals_model(hier_random::EinsumKind::Gemm, 1000, 1000);
}

TEST(HierTraceRandom, BatchedMatmulWalkEqualsTheClosedForms) {
  expect_walk_equals_model(hier_random::EinsumKind::BatchedMatmul, 3000, 600);
}

TEST(HierTraceRandom, ConvolutionWalkEqualsTheClosedFormsButForWindows) {
  expect_walk_equals_model(hier_random::EinsumKind::Conv1d, 5000, 600);
}

// The walk reads the residual's word wherever an output element first arrives (nothing to
// elide); the closed forms count those arrivals as they do without elision.
TEST(HierTraceRandom, ResidualWalkEqualsTheClosedForms) {
  expect_walk_equals_model(hier_random::EinsumKind::Gemm, 7000, 400, true);
  expect_walk_equals_model(hier_random::EinsumKind::Conv1d, 7500, 200, true);
}

/// `O[p] += I[p+r] * W[r]` with p = r = 2 on DRAM -> L1, and a 2x2 fan-out (multicast and
/// reduction) above the compute units; every factor 1 until a test sets it.
hier_random::Case small_convolution() {
  hier_random::Case c;
  Hierarchy &h = c.hardware.hierarchy;
  h.levels = {
      StorageLevel{"DRAM", std::nullopt, std::nullopt, std::nullopt, std::nullopt, 1, 1, 1, false,
                   role::kAll},
      StorageLevel{"L1", 64, std::nullopt, std::nullopt, std::nullopt, 1, 1, 1, false, role::kAll}};
  h.fanouts = {{}, {Fanout{"pe", 2, 2, true, true}}};
  c.workload = parse_workload(test_common::workload_header("conv", "p: 2, r: 2") +
                                  "  - {name: conv, einsum: \"O[p] += I[p+r] * W[r]\"}\n",
                              "conv.yaml");
  const std::vector<std::int64_t> ones(2, 1);
  c.mapping.levels = {LevelMapping{{}, ones, 0b111}, LevelMapping{{}, ones, 0}};
  c.mapping.fanouts = {{}, {FanoutMapping{ones, ones}}};
  return c;
}

constexpr size_t kI = 0; // operator_tensors of O[p] += I[p+r] * W[r]: I, W, then O

// DRAM[p2 r2], L1 keeps I: its one-word tile is I[p+r] = I[0], I[1], I[1], I[2] over the four
// steps, so it changes three times. The closed forms fetch it at every step (E = 4: every
// iteration of a relevant loop moves the tile), four fills and four DRAM reads.
TEST(HierTraceWindows, AWindowThatDoesNotMoveIsNotFetchedAgain) {
  hier_random::Case c = small_convolution();
  const int p = c.workload.dim_index("p"), r = c.workload.dim_index("r");
  c.mapping.levels[0] = LevelMapping{{p, r}, {2, 2}, 0b111};
  c.mapping.levels[1].keep = 1u << kI;
  ASSERT_EQ(hier_mapping_violation(c.hardware, c.workload, c.workload.ops[0], c.mapping),
            std::nullopt);
  const TraceCounts walk = simulate(c, true);
  EXPECT_EQ(kept(walk, 1, kI), (TensorCounts{4, 3, 0}));
  EXPECT_EQ(kept(walk, 0, kI).reads, 3);
  EXPECT_GE(model(c, true).levels[1].tensors[kI]->fills, 3);
}

// The fan-out spreads p on x and r on y: in the one step the four units need I[0], I[1], I[1]
// and I[2], and DRAM (the only keeper of I) multicasts I[1] to two of them: three reads. The
// closed forms divide the MACs by the replication over dimensions I does not use (none): four.
TEST(HierTraceWindows, OverlappingWindowsOfSiblingsShareAMulticastRead) {
  hier_random::Case c = small_convolution();
  const int p = c.workload.dim_index("p"), r = c.workload.dim_index("r");
  c.mapping.fanouts[1][0].x[static_cast<size_t>(p)] = 2;
  c.mapping.fanouts[1][0].y[static_cast<size_t>(r)] = 2;
  ASSERT_EQ(hier_mapping_violation(c.hardware, c.workload, c.workload.ops[0], c.mapping),
            std::nullopt);
  EXPECT_EQ(kept(simulate(c, true), 0, kI).reads, 3);
  EXPECT_GE(model(c, true).levels[0].tensors[kI]->reads, 3);
}

} // namespace
} // namespace dse
