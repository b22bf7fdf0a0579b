// Hand-computed metrics of a GEMM mapping: footprints, re-reads, partial-sum spills, cycles.
#include <gtest/gtest.h>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/model/metrics.hpp"
#include "dse/model/tiling.hpp"

namespace dse {
namespace {

class GemmMetricsTest : public ::testing::Test {
protected:
  // C[m,n] += A[m,k] * B[k,n] with M=8, K=6, N=4; tiles 4, 3, 2 (trips 2, 2, 2).
  Workload w_ = parse_workload("name: g\ndims: {m: 8, k: 6, n: 4}\n"
                               "ops: [{name: g, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}]\n",
                               "g.yaml");
  Problem p_ = make_single_problem(w_, chain_splits(w_).front()[0].links[0]);
  const int m_ = 0, k_ = 1, n_ = 2;
  AtomTable atoms_ = atom_table({8, 6, 4}, Tiling{{4, 3, 2}}, 2, 2);

  double value(const Posynomial &p) const { return evaluate(p, atoms_); }
};

TEST_F(GemmMetricsTest, OutputStationaryInnermostReduction) {
  // Loops m, n, k; A and B reloaded inside k, C kept across k (depth 2, inside n).
  const Dataflow df{{}, {{m_, n_, k_}}, {3, 3, 2}};
  const DataflowMetrics dm = dataflow_metrics(p_, df, false);
  // A tile 4x3 loaded t_m*t_n*t_k = 8 times; B tile 3x2 loaded 8 times; C written once.
  EXPECT_EQ(value(dm.dram_reads), 8 * 12 + 8 * 6);
  EXPECT_EQ(value(dm.dram_writes), 32);
  EXPECT_EQ(value(dm.buffer_words[0]), 12 + 6 + 8);
}

TEST_F(GemmMetricsTest, ReductionOutsideOutputSpillsPartialSums) {
  // Loops k, m, n; C tile inside n is written t_k*t_m*t_n = 8 times and read back 8 - |C|/tile.
  const Dataflow df{{}, {{k_, m_, n_}}, {2, 3, 3}};
  const DataflowMetrics dm = dataflow_metrics(p_, df, false);
  const double c_writes = 8 * 8; // 8 tiles of 4x2
  EXPECT_EQ(value(dm.dram_writes), c_writes);
  EXPECT_EQ(value(dm.dram_reads), 4 * 12 + 8 * 6 + (c_writes - 32));
}

TEST_F(GemmMetricsTest, CyclesUseTheArrayOnTheSpatialDims) {
  const Dataflow df{{}, {{m_, n_, k_}}, {3, 3, 2}};
  const ComputeMetrics cm = compute_metrics(p_, df.recompute_dims(p_), {}, {{m_, n_}});
  EXPECT_EQ(value(cm.macs[0]), 8 * 6 * 4);
  // Per tile ceil(4/2)*ceil(2/2)*3 = 6 cycles, 8 tiles.
  EXPECT_EQ(value(cm.cycles[0]), 48);
  // Per tile: A re-read ceil(T_n/cols)=1 time, B ceil(T_m/rows)=2 times, C written once.
  EXPECT_EQ(value(cm.gb_reads), 8 * (12 * 1 + 6 * 2));
  EXPECT_EQ(value(cm.gb_writes), 8 * 8);
}

} // namespace
} // namespace dse
