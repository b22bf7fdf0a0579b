// The symbolic rows of the hierarchical search (docs/HIERARCHY.md §5) against the model: on
// random hierarchies, einsums (GEMMs, windowed convolutions, batched matmuls) and mappings, every
// row of the mapping's support, evaluated as Q x b at the mapping's tiling, delivers into every
// on-chip level and tensor it keeps exactly the words that evaluate_hier_mapping fills there with
// the row's loop orders (first-read elision off, so that an output's fills are its deliveries).
#include <gtest/gtest.h>
#include <span>
#include <sstream>
#include <string>

#include "common/suite_scale.hpp"
#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/search/hier_rows.hpp"
#include "dse/search/hier_space.hpp"
#include "model/hier_random.hpp"

namespace dse {
namespace {

/// Whether every dimension's factors multiply to its size (the search's divisor tilings; the
/// rows count the padded extents of padded mappings as the model does, but the case is drawn
/// to match the search's space).
bool unpadded(const hier_random::Case &c, const Operator &op) {
  for (int d : op.dims())
    if (c.mapping.levels[0].factor[static_cast<size_t>(d)] *
            hier_random::inner_product(c.mapping, d) !=
        c.workload.dim_size(d))
      return false;
  return true;
}

/// Per gap and workload dimension, the product of the gap's spatial factors.
std::vector<std::vector<double>> spatial_products(const OpMapping &m, size_t workload_dims) {
  std::vector<std::vector<double>> spatial(m.fanouts.size(),
                                           std::vector<double>(workload_dims, 1.0));
  for (size_t gap = 0; gap < m.fanouts.size(); ++gap)
    for (const FanoutMapping &f : m.fanouts[gap])
      for (size_t d = 0; d < workload_dims; ++d)
        spatial[gap][d] *= static_cast<double>(f.factor(static_cast<int>(d)));
  return spatial;
}

/// The differences between every row of the case's support and the model with the row's orders.
std::string row_differences(const hier_random::Case &c) {
  const Operator &op = c.workload.ops[0];
  const std::vector<int> dims = op.dims();
  const size_t levels = c.mapping.levels.size();
  std::vector<std::uint64_t> present(levels, 0);
  std::vector<std::vector<std::vector<int>>> orders(levels);
  std::vector<std::span<const std::vector<int>>> row_orders;
  for (size_t l = 0; l < levels; ++l) {
    std::vector<int> loops;
    for (size_t i = 0; i < dims.size(); ++i)
      if (c.mapping.levels[l].factor[static_cast<size_t>(dims[i])] > 1) {
        present[l] |= std::uint64_t{1} << i;
        loops.push_back(dims[i]);
      }
    orders[l] = level_orders(op, loops, false);
    row_orders.emplace_back(orders[l]);
  }
  const HierRowBlock rows(op, dims, present, row_orders);
  std::vector<double> scratch, b;
  std::vector<std::uint32_t> keep;
  for (const LevelMapping &level : c.mapping.levels)
    keep.push_back(level.keep);
  const std::uint32_t kept = HierRowBlock::kept_counts(keep, operator_tensors(op).size());
  rows.evaluate_basis({c.mapping.levels, spatial_products(c.mapping, c.workload.dims.size())}, kept,
                      scratch, b);
  std::ostringstream text;
  for (size_t row = 0; row < rows.rows(); ++row) {
    OpMapping m = c.mapping;
    for (size_t l = 0; l < levels; ++l)
      m.levels[l].order = orders[l][rows.order_of(row, l)];
    HierDeliveries delta{};
    rows.deliveries(row, b, kept, delta);
    const HierCost cost =
        evaluate_hier_mapping(c.hardware, c.workload, op, m, false, LatencyModel::Roofline);
    for (size_t l = 1; l < levels; ++l)
      for (size_t t = 0; t < cost.levels[l].tensors.size(); ++t)
        if (const std::optional<HierTensorCounts> &counts = cost.levels[l].tensors[t];
            counts && counts->fills != delta[l][t])
          text << "row " << row << " level " << l << " tensor " << t << ": rows " << delta[l][t]
               << ", model " << counts->fills << "\n";
  }
  return text.str();
}

void expect_rows_equal_the_model(hier_random::EinsumKind kind, int cases) {
  int checked = 0;
  for (std::uint64_t seed = 0; checked < cases; ++seed) {
    const hier_random::Case c = hier_random::random_case(seed, kind);
    if (!unpadded(c, c.workload.ops[0]))
      continue;
    ASSERT_EQ(hier_mapping_violation(c.hardware, c.workload, c.workload.ops[0], c.mapping),
              std::nullopt);
    EXPECT_EQ(row_differences(c), "") << "seed " << seed << "\n" << hier_random::describe(c);
    ++checked;
  }
}

TEST(HierRows, GemmRowsDeliverWhatTheModelFills) {
  expect_rows_equal_the_model(hier_random::EinsumKind::Gemm, test_common::per_suite(150, 40));
}

TEST(HierRows, ConvolutionRowsDeliverWhatTheModelFillsThroughWindows) {
  expect_rows_equal_the_model(hier_random::EinsumKind::Conv1d, test_common::per_suite(150, 40));
}

TEST(HierRows, BatchedMatmulRowsDeliverWhatTheModelFills) {
  expect_rows_equal_the_model(hier_random::EinsumKind::BatchedMatmul,
                              test_common::per_suite(150, 40));
}

TEST(HierRows, RowsCombineEveryLevelsOrdersAndShareTheirMonomials) {
  const Workload w = parse_workload(test_common::gemm_workload("gemm", 4, 4, 4), "gemm.yaml");
  const Operator &op = w.ops[0];
  const std::vector<int> dims = op.dims();
  const std::vector<std::vector<int>> orders = level_orders(op, dims, false);
  ASSERT_EQ(orders.size(), 6U);
  const HierRowBlock rows(op, dims, {0b111, 0b111}, {orders, orders});
  ASSERT_EQ(rows.rows(), 36U);
  for (size_t row = 0; row < rows.rows(); ++row) {
    EXPECT_EQ(rows.order_of(row, 0), row / 6);
    EXPECT_EQ(rows.order_of(row, 1), row % 6);
  }
  // Level 1's deliveries read level 0's order only, through each tensor's innermost loop: per
  // tensor, the two loops over it outermost (the third loop innermost) or all three loops.
  EXPECT_EQ(rows.basis_size(), 6U);
}

} // namespace
} // namespace dse
