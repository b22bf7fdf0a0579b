// Rung 1 of docs/HIERARCHY.md §10 for fused pairs: the literal fused walk of
// fused_hier_trace_simulator counts two small schedules as counted by hand, its level-0 traffic
// is the one-level trace simulator's, with an empty prefix its inner counts are the two
// single-operator walks', and on seeded random fused chains, hierarchies and mappings every count
// of evaluate_fused_hier_mapping (reads, fills and updates per level and problem tensor, MACs per
// operator) equals the walk's, first-read elision on and off.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "model/fused_hier_random.hpp"
#include "model/fused_hier_trace_simulator.hpp"
#include "model/hier_trace_simulator.hpp"
#include "model/trace_simulator.hpp"

namespace dse {
namespace {

using fused_hier_trace::TraceCounts;
using hier_trace::TensorCounts;

// Problem tensors of the chain H[m,n] += A[m,k] * B[k,n]; Z[m,l] += H[m,n] * C[n,l].
constexpr size_t kA = 0, kB = 1, kH = 2, kC = 3, kZ = 4;
constexpr int kM = 0, kK = 1, kN = 2, kL = 3; // its dimensions

StorageLevel level(const char *name, std::optional<std::int64_t> capacity) {
  return StorageLevel{name, capacity, std::nullopt, std::nullopt, std::nullopt, 1,
                      1,    1,        false,        role::kAll};
}

/// The chain with m = k = n = l = 2 on DRAM, a global buffer GB (level 1) and a register file RF
/// (level 2), no fan-outs; every factor 1 and the outer loop tree empty until a test sets them.
fused_hier_random::Case small_chain() {
  fused_hier_random::Case c;
  Hierarchy &h = c.hardware.hierarchy;
  h.levels = {level("DRAM", std::nullopt), level("GB", 1024), level("RF", 64)};
  h.fanouts = {{}, {}, {}};
  c.workload = parse_workload(test_common::workload_header("chain", "m: 2, k: 2, n: 2, l: 2") +
                                  "  - {name: mm1, einsum: \"H[m,n] += A[m,k] * B[k,n]\"}\n"
                                  "  - {name: mm2, einsum: \"Z[m,l] += H[m,n] * C[n,l]\"}\n",
                              "chain.yaml");
  const std::vector<std::int64_t> ones(4, 1);
  for (int o = 0; o < 2; ++o)
    c.mapping.ops.push_back(OpMapping{
        {LevelMapping{{}, ones, 0b111}, LevelMapping{{}, ones, 0b111}, LevelMapping{{}, ones, 0}},
        {{}, {}, {}}});
  return c;
}

/// Op `op`'s block at `level` loops `dim` `factor` times (the only loop of that block).
void set_loop(fused_hier_random::Case &c, int op, size_t level, int dim, std::int64_t factor) {
  LevelMapping &block = c.mapping.ops[static_cast<size_t>(op)].levels[level];
  block.factor[static_cast<size_t>(dim)] = factor;
  block.order.push_back(dim);
}

/// The producer: level 0 loops m2 k2 (as the outer path says), GB loops n2, RF keeps H only.
/// The consumer: level 0 loops the outer path with l2 m2, RF loops n2 and keeps H and Z.
fused_hier_random::Case hand_case(const std::vector<int> &prefix,
                                  const std::vector<std::vector<int>> &subnests,
                                  const std::vector<int> &retention) {
  fused_hier_random::Case c = small_chain();
  c.mapping.outer = Dataflow{prefix, subnests, retention, {{}}};
  for (int o = 0; o < 2; ++o)
    for (int dim : c.mapping.outer.path(o))
      if (dim != (o == 0 ? kL : kK))
        set_loop(c, o, 0, dim, dim == kN ? 1 : 2);
  set_loop(c, 0, 1, kN, 2);
  c.mapping.ops[0].levels[2].keep = 1u << 2;
  set_loop(c, 1, 2, kN, 2);
  c.mapping.ops[1].levels[2].keep = 1u << 0 | 1u << 2;
  return c;
}

TraceCounts simulate(const fused_hier_random::Case &c, bool elision) {
  const Problem problem = fused_hier_random::fused_problem(c);
  EXPECT_EQ(legality_problem(problem, c.mapping.outer), "");
  return fused_hier_trace::simulate(c.hardware, problem, c.mapping, elision);
}

const TensorCounts &kept(const TraceCounts &counts, size_t level, size_t tensor) {
  const std::optional<TensorCounts> &kept = counts.levels.at(level).at(tensor);
  EXPECT_TRUE(kept.has_value()) << "level " << level << " tensor " << tensor;
  static const TensorCounts kNone{-1, -1, -1};
  return kept ? *kept : kNone;
}

// Prefix [m] (2 trips), producer sub-nest [k n] (k 2 trips, n 1), consumer sub-nest [l n] (l 2,
// n 1); A@2 (A[m,k], 1 word per (m,k)), B@0 (all 4 words once), H@1, C@2 (C[:,l], 2 words per
// (m,l)), Z@1 (Z[m,:], 2 words per m).
// - Level 0 and GB fills: A 4 x 1, B 4, C 4 x 2 = 8; Z's two tiles are distinct (no read back,
//   4 without elision) and written back: 2 x 2 = 4 updates.
// - Producer, per m: its GB block runs n0 n1 at k0 then at k1; the RF's 1-word H tile changes at
//   every step: 4 fills, of which the two at k0 are first arrivals (elided); 4 drains to the GB
//   (the last at the end of the run); 4 MACs, each an RF update of H and a read but for the two
//   first ones; A and B bypass the RF: 4 GB reads each.
// - Consumer, per m: one walk per l; the RF's H tile H[m,:] (2 words) is filled once, its Z tile
//   Z[m,l] (a first arrival) once per l and drained once per l; per MAC a GB read of C, an RF
//   read of H, an RF update of Z and its read but at n0.
// Over m: producer RF H {4, 4, 8} and GB H {4, -, 8}; consumer RF H {8, 4, 0}, RF Z {4, 0, 8},
// GB H reads 4, GB Z updates 4, GB C reads 8; 8 MACs each.
TEST(FusedHierTrace, CountsMatchHandCount) {
  const fused_hier_random::Case c = hand_case({kM}, {{kK, kN}, {kL, kN}}, {2, 0, 1, 2, 1});
  const TraceCounts counts = simulate(c, true);
  EXPECT_EQ(counts.macs, (std::vector<std::int64_t>{8, 8}));
  EXPECT_EQ(kept(counts, 0, kA), (TensorCounts{4, 0, 0}));
  EXPECT_EQ(kept(counts, 0, kB), (TensorCounts{4, 0, 0}));
  EXPECT_FALSE(counts.levels[0][kH].has_value());
  EXPECT_EQ(kept(counts, 0, kC), (TensorCounts{8, 0, 0}));
  EXPECT_EQ(kept(counts, 0, kZ), (TensorCounts{0, 0, 4}));
  EXPECT_EQ(kept(counts, 1, kA), (TensorCounts{8, 4, 0}));
  EXPECT_EQ(kept(counts, 1, kB), (TensorCounts{8, 4, 0}));
  EXPECT_EQ(kept(counts, 1, kH), (TensorCounts{8, 0, 8}));
  EXPECT_EQ(kept(counts, 1, kC), (TensorCounts{8, 8, 0}));
  EXPECT_EQ(kept(counts, 1, kZ), (TensorCounts{0, 0, 4}));
  EXPECT_FALSE(counts.levels[2][kA].has_value());
  EXPECT_FALSE(counts.levels[2][kB].has_value());
  EXPECT_EQ(kept(counts, 2, kH), (TensorCounts{12, 8, 8}));
  EXPECT_FALSE(counts.levels[2][kC].has_value());
  EXPECT_EQ(kept(counts, 2, kZ), (TensorCounts{4, 0, 8}));
}

// The same without elision: Z's tiles are read from level 0 (4), every RF fill of H and Z reads
// the GB, every MAC reads its partial sum.
TEST(FusedHierTrace, HandCountWithoutElisionReadsTheFirstZeros) {
  const fused_hier_random::Case c = hand_case({kM}, {{kK, kN}, {kL, kN}}, {2, 0, 1, 2, 1});
  const TraceCounts counts = simulate(c, false);
  EXPECT_EQ(kept(counts, 0, kZ), (TensorCounts{4, 0, 4}));
  EXPECT_EQ(kept(counts, 1, kH), (TensorCounts{12, 0, 8}));
  EXPECT_EQ(kept(counts, 1, kZ), (TensorCounts{4, 4, 4}));
  EXPECT_EQ(kept(counts, 2, kH), (TensorCounts{16, 12, 8}));
  EXPECT_EQ(kept(counts, 2, kZ), (TensorCounts{8, 4, 8}));
  EXPECT_EQ(kept(counts, 1, kA), (TensorCounts{8, 4, 0}));
}

// Prefix [l m] with l consumer-only: the producer runs in each of the 4 prefix iterations (16
// MACs) and H starts from zero in each, so its per-m counts above come 4 times instead of 2.
// A@3 (1 word per (l,m,k): 8), B@0 (4), H@2, C@1 (C[:,l]: 2 words per l: 4), Z@2 (1 word per
// (l,m), all distinct: 4 updates). Consumer, per (l,m): one walk; RF H filled (2), Z a first
// arrival drained once; 2 MACs.
TEST(FusedHierTrace, RecomputeRunsTheProducerInEveryPrefixIteration) {
  const fused_hier_random::Case c = hand_case({kL, kM}, {{kK, kN}, {kN}}, {3, 0, 2, 1, 2});
  const TraceCounts on = simulate(c, true);
  EXPECT_EQ(on.macs, (std::vector<std::int64_t>{16, 8}));
  EXPECT_EQ(kept(on, 0, kA), (TensorCounts{8, 0, 0}));
  EXPECT_EQ(kept(on, 0, kB), (TensorCounts{4, 0, 0}));
  EXPECT_EQ(kept(on, 0, kC), (TensorCounts{4, 0, 0}));
  EXPECT_EQ(kept(on, 0, kZ), (TensorCounts{0, 0, 4}));
  EXPECT_EQ(kept(on, 1, kA), (TensorCounts{16, 8, 0}));
  EXPECT_EQ(kept(on, 1, kB), (TensorCounts{16, 4, 0}));
  EXPECT_EQ(kept(on, 1, kH), (TensorCounts{16, 0, 16}));
  EXPECT_EQ(kept(on, 1, kC), (TensorCounts{8, 4, 0}));
  EXPECT_EQ(kept(on, 1, kZ), (TensorCounts{0, 0, 4}));
  EXPECT_EQ(kept(on, 2, kH), (TensorCounts{16, 16, 16}));
  EXPECT_EQ(kept(on, 2, kZ), (TensorCounts{4, 0, 8}));
  const TraceCounts off = simulate(c, false);
  EXPECT_EQ(kept(off, 0, kZ), (TensorCounts{4, 0, 4}));
  EXPECT_EQ(kept(off, 1, kH), (TensorCounts{24, 0, 16}));
  EXPECT_EQ(kept(off, 1, kZ), (TensorCounts{4, 4, 4}));
  EXPECT_EQ(kept(off, 2, kH), (TensorCounts{24, 24, 16}));
  EXPECT_EQ(kept(off, 2, kZ), (TensorCounts{8, 4, 8}));
}

std::int64_t sum_at_level_0(const TraceCounts &counts, std::int64_t TensorCounts::*action) {
  std::int64_t sum = 0;
  for (const std::optional<TensorCounts> &tensor : counts.levels[0])
    sum += tensor ? *tensor.*action : 0;
  return sum;
}

/// The level-1 extent of every dimension: the tile sizes of the one-level model.
Tiling level1_tiling(const fused_hier_random::Case &c, const Problem &problem) {
  Tiling tiling;
  const std::vector<int> &producer_dims = problem.ops[0].dims;
  for (int dim = 0; dim < static_cast<int>(c.workload.dims.size()); ++dim) {
    const bool produced =
        std::find(producer_dims.begin(), producer_dims.end(), dim) != producer_dims.end();
    tiling.tile.push_back(hier_random::inner_product(c.mapping.ops[produced ? 0 : 1], dim));
  }
  return tiling;
}

// Levels 0 and 1 are the one-level model's: the one-level trace simulator, run on the outer loop
// tree with the level-1 extents as tiles, moves as many words to and from DRAM, does as many
// MACs, and computes the right values (the random outer loop trees are legal).
TEST(FusedHierTrace, LevelZeroTrafficIsTheOneLevelTrace) {
  for (std::uint64_t seed = 1; seed <= 150; ++seed)
    for (auto kind :
         {fused_hier_random::ChainKind::Gemm, fused_hier_random::ChainKind::BatchedGemm}) {
      const fused_hier_random::Case c = fused_hier_random::random_case(seed, kind);
      const Problem problem = fused_hier_random::fused_problem(c);
      ASSERT_EQ(legality_problem(problem, c.mapping.outer), "") << fused_hier_random::describe(c);
      const TraceCounts walk = fused_hier_trace::simulate(c.hardware, problem, c.mapping, true);
      const trace::TraceCounts one_level =
          trace::TraceSimulator(problem, 7).run(c.mapping.outer, level1_tiling(c, problem));
      EXPECT_EQ(one_level.schedule_error, "");
      EXPECT_LE(one_level.output_error, 1e-9);
      EXPECT_EQ(sum_at_level_0(walk, &TensorCounts::reads), one_level.dram_reads)
          << "seed " << seed << "\n"
          << fused_hier_random::describe(c);
      EXPECT_EQ(sum_at_level_0(walk, &TensorCounts::updates), one_level.dram_writes)
          << "seed " << seed << "\n"
          << fused_hier_random::describe(c);
      EXPECT_EQ(walk.macs, one_level.macs) << "seed " << seed << "\n"
                                           << fused_hier_random::describe(c);
    }
}

/// Adds the counts of one operator's walk at levels >= 1 (reads and updates only at level 1,
/// where the fused walk's fills are its own) to `sum`, by problem tensor.
void add_inner_counts(const hier_trace::TraceCounts &walk, const ProblemOp &op, TraceCounts &sum) {
  for (size_t l = 1; l < walk.levels.size(); ++l)
    for (size_t i = 0; i < op.tensors.size(); ++i)
      if (const std::optional<TensorCounts> &c = walk.levels[l][i]) {
        std::optional<TensorCounts> &s = sum.levels[l][static_cast<size_t>(op.tensors[i])];
        s = s.value_or(TensorCounts{});
        s->reads += c->reads;
        s->fills += l > 1 ? c->fills : 0;
        s->updates += c->updates;
      }
  sum.macs.push_back(walk.macs);
}

// Without a prefix each operator runs once, so below level 1 the fused walk is the two
// single-operator walks of the operators' mappings (whose level 0 loops the sub-nest).
TEST(FusedHierTrace, WithoutPrefixInnerCountsAreTheSingleOperatorWalks) {
  int cases = 0;
  for (std::uint64_t seed = 1; cases < 40; ++seed) {
    const fused_hier_random::Case c =
        fused_hier_random::random_case(seed, fused_hier_random::ChainKind::Gemm);
    if (!c.mapping.outer.prefix.empty())
      continue;
    ++cases;
    const Problem problem = fused_hier_random::fused_problem(c);
    for (bool elision : {true, false}) {
      TraceCounts fused = fused_hier_trace::simulate(c.hardware, problem, c.mapping, elision);
      TraceCounts single;
      single.levels.assign(fused.levels.size(), {});
      single.levels[0] = fused.levels[0];
      single.levels[1] = std::vector<std::optional<TensorCounts>>(problem.tensors.size());
      for (size_t t = 0; t < problem.tensors.size(); ++t)
        single.levels[1][t] = TensorCounts{0, fused.levels[1][t]->fills, 0};
      for (size_t l = 2; l < fused.levels.size(); ++l)
        single.levels[l].resize(problem.tensors.size());
      for (int o = 0; o < 2; ++o)
        add_inner_counts(hier_trace::simulate(c.hardware, c.workload, problem.op(o),
                                              c.mapping.ops[static_cast<size_t>(o)], elision),
                         problem.ops[static_cast<size_t>(o)], single);
      EXPECT_EQ(fused.levels, single.levels)
          << "seed " << seed << (elision ? ", elision on\n" : ", elision off\n")
          << fused_hier_random::describe(c);
      EXPECT_EQ(fused.macs, single.macs);
    }
  }
}

/// Every difference between the walk and the model, one line each; empty when they agree.
std::string differences(const fused_hier_trace::TraceCounts &walk, const FusedHierCost &model) {
  std::ostringstream text;
  const std::vector<HierLevelCost> &levels = model.totals.levels;
  if (walk.levels.size() != levels.size())
    return "the walk has " + std::to_string(walk.levels.size()) + " levels, the model " +
           std::to_string(levels.size());
  for (size_t l = 0; l < walk.levels.size(); ++l)
    for (size_t t = 0; t < walk.levels[l].size(); ++t) {
      const std::optional<TensorCounts> &w = walk.levels[l][t];
      const std::optional<HierTensorCounts> &m = levels[l].tensors.at(t);
      if (w.has_value() != m.has_value()) {
        text << "level " << l << " tensor " << t << ": kept in " << (w ? "the walk" : "the model")
             << " only\n";
        continue;
      }
      if (!w)
        continue;
      const auto compare = [&](const char *action, std::int64_t walked, double modelled) {
        if (static_cast<double>(walked) != modelled)
          text << "level " << l << " tensor " << t << " " << action << ": walk " << walked
               << ", model " << modelled << "\n";
      };
      compare("reads", w->reads, m->reads);
      compare("fills", w->fills, m->fills);
      compare("updates", w->updates, m->updates);
    }
  for (size_t o = 0; o < walk.macs.size(); ++o)
    if (static_cast<double>(walk.macs[o]) != model.macs.at(o))
      text << "op " << o << " macs: walk " << walk.macs[o] << ", model " << model.macs[o] << "\n";
  return text.str();
}

/// With `residual`, the consumer starts its output from a residual `R` (read at its indices).
void expect_model_equals_walk(fused_hier_random::ChainKind kind, std::uint64_t first_seed,
                              int cases, bool residual = false) {
  for (std::uint64_t seed = first_seed; seed < first_seed + static_cast<std::uint64_t>(cases);
       ++seed) {
    fused_hier_random::Case c = fused_hier_random::random_case(seed, kind);
    if (residual)
      c.workload.ops[1].einsum.residual = "R";
    const Problem problem = fused_hier_random::fused_problem(c);
    ASSERT_EQ(fused_hier_mapping_problem(c.hardware, problem, c.mapping), "")
        << "seed " << seed << "\n"
        << fused_hier_random::describe(c);
    for (bool elision : {true, false})
      EXPECT_EQ(differences(fused_hier_trace::simulate(c.hardware, problem, c.mapping, elision),
                            evaluate_fused_hier_mapping(c.hardware, problem, c.mapping, elision,
                                                        LatencyModel::Roofline)),
                "")
          << "seed " << seed << (elision ? ", elision on\n" : ", elision off\n")
          << fused_hier_random::describe(c);
  }
}

TEST(FusedHierTrace, ModelEqualsTraceOnRandomFusedPairs) {
  expect_model_equals_walk(fused_hier_random::ChainKind::Gemm, 1, 200);
}

TEST(FusedHierTrace, ModelEqualsTraceOnRandomBatchedFusedPairs) {
  expect_model_equals_walk(fused_hier_random::ChainKind::BatchedGemm, 1001, 100);
}

// The walk loads the residual into each level-1 tile of the output at its first allocation and
// down every nest at each element's first arrival; the model counts those arrivals unelided.
TEST(FusedHierTrace, ModelEqualsTraceOnRandomFusedPairsEndingInAResidual) {
  expect_model_equals_walk(fused_hier_random::ChainKind::Gemm, 2001, 100, true);
}

} // namespace
} // namespace dse
