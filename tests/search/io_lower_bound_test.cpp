// Rung 3 of the validation ladder (docs/DESIGN.md §7): no GEMM mapping moves fewer DRAM words
// than the I/O lower bound for S words of buffer (Smith et al. 2019), and the best mapping comes
// close.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "dse/model/metrics.hpp"
#include "dse/search/candidate_space.hpp"
#include "dse/search/problem_search.hpp"
#include "dse/search/tiling_space.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

struct Shape {
  std::int64_t m, k, n;
};

double compulsory_words(const Shape &s) {
  return static_cast<double>(s.m * s.k + s.k * s.n + s.m * s.n);
}

/// max(MK + KN + MN, 2MNK / sqrt(S) - 2S): words any schedule with S words of fast memory moves.
double io_lower_bound(const Shape &s, double capacity_words) {
  const double mnk = static_cast<double>(s.m) * static_cast<double>(s.n) * static_cast<double>(s.k);
  return std::max(compulsory_words(s),
                  2.0 * mnk / std::sqrt(capacity_words) - 2.0 * capacity_words);
}

test::TestProblem gemm(const Shape &s) {
  return test::single_problem("gemm", test::gemm_yaml(s.m, s.k, s.n));
}

struct Extremes {
  double min_traffic = std::numeric_limits<double>::infinity(); // over mappings that fit
  std::uint64_t feasible = 0;
  std::uint64_t below_bound = 0;
};

/// Every dataflow of the unpruned space at every tiling of `menu`: the fewest DRAM words moved
/// by a mapping that fits in `capacity` words, and how many fitting mappings beat the bound.
Extremes enumerate(const test::TestProblem &tp, TileMenu menu, double capacity) {
  const CandidateSpace space = build_candidate_space(tp.problem, false, Pruning::None);
  const TilingSpace tilings(tp.problem, menu, 4, TileSizes::Every);
  const Shape shape{tp.workload->dim_size(0), tp.workload->dim_size(1), tp.workload->dim_size(2)};
  const double bound = io_lower_bound(shape, capacity);
  Extremes out;
  for (std::uint64_t t = 0; t < tilings.size(); ++t) {
    const AtomTable atoms = atom_table(tilings.sizes(), tilings.tiling(t), 4, 4);
    for (const DataflowMetrics &m : space.metrics) {
      if (evaluate(m.buffer_words.at(0), atoms) > capacity)
        continue;
      const double traffic = evaluate(m.dram_reads, atoms) + evaluate(m.dram_writes, atoms);
      ++out.feasible;
      out.min_traffic = std::min(out.min_traffic, traffic);
      if (traffic < bound)
        ++out.below_bound;
    }
  }
  return out;
}

TEST(IoLowerBound, WorkloadDimensionOrderIsMKN) {
  const test::TestProblem tp = gemm({3, 5, 7});
  EXPECT_EQ(tp.workload->dims.at(0).name, "m");
  EXPECT_EQ(tp.workload->dims.at(1).name, "k");
  EXPECT_EQ(tp.workload->dims.at(2).name, "n");
}

TEST(IoLowerBound, NoMappingBeatsTheBoundAnyTileSize) {
  for (const Shape &s : {Shape{16, 16, 16}, Shape{12, 20, 9}, Shape{24, 6, 10}})
    for (double capacity : {8.0, 24.0, 64.0, 200.0, 1000.0}) {
      SCOPED_TRACE("gemm " + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                   std::to_string(s.n) + ", S = " + std::to_string(capacity));
      const Extremes e = enumerate(gemm(s), TileMenu::All, capacity);
      ASSERT_GT(e.feasible, 0U);
      EXPECT_EQ(e.below_bound, 0U)
          << "fewest words moved: " << e.min_traffic << ", bound " << io_lower_bound(s, capacity);
    }
}

TEST(IoLowerBound, NoMappingBeatsTheBoundLargerShapes) {
  for (const Shape &s : {Shape{128, 64, 96}, Shape{60, 240, 36}, Shape{256, 32, 128}})
    for (double capacity : {64.0, 512.0, 4096.0}) {
      SCOPED_TRACE("gemm " + std::to_string(s.m) + "x" + std::to_string(s.k) + "x" +
                   std::to_string(s.n) + ", S = " + std::to_string(capacity));
      const Extremes e = enumerate(gemm(s), TileMenu::Divisors, capacity);
      ASSERT_GT(e.feasible, 0U);
      EXPECT_EQ(e.below_bound, 0U)
          << "fewest words moved: " << e.min_traffic << ", bound " << io_lower_bound(s, capacity);
    }
}

/// The fewest DRAM words of the pruned matrix search's front with S words of buffer.
double best_searched_traffic(const Shape &s, std::int64_t capacity) {
  test::HardwareSpec spec;
  spec.gb_words = capacity;
  SearchOptions options;
  options.objectives = {Objective::Dram, Objective::Buffer};
  const ProblemFront f = search_problem(gemm(s).problem, test::tiny_hardware(spec), options);
  return f.front.points().at(0).objectives.dram_words;
}

TEST(IoLowerBound, BestMappingIsCloseToTheBound) {
  // Output-stationary 64x32-ish tiles reach about 1.5-1.7x the bound; allow 2x.
  const Shape s{512, 512, 512};
  for (std::int64_t capacity : {1024, 4096, 16384}) {
    const double bound = io_lower_bound(s, static_cast<double>(capacity));
    const double best = best_searched_traffic(s, capacity);
    EXPECT_GE(best, bound) << "S = " << capacity;
    EXPECT_LE(best, 2.0 * bound) << "S = " << capacity;
  }
}

TEST(IoLowerBound, CompulsoryTrafficWhenEverythingFits) {
  const Shape s{24, 16, 20};
  const auto all = static_cast<std::int64_t>(compulsory_words(s));
  EXPECT_EQ(best_searched_traffic(s, all), compulsory_words(s));
  EXPECT_GT(best_searched_traffic(s, all / 4), compulsory_words(s));
}

TEST(IoLowerBound, SearchAgreesWithEnumeration) {
  const Shape s{24, 16, 20};
  for (std::int64_t capacity : {40, 150, 600})
    EXPECT_EQ(best_searched_traffic(s, capacity),
              enumerate(gemm(s), TileMenu::Divisors, static_cast<double>(capacity)).min_traffic)
        << "S = " << capacity;
}

} // namespace
} // namespace dse
