// Boxes of tilings (docs/DESIGN.md §4.3): the search that drops whole boxes of tilings whose
// bound the front rejects finds exactly the front of the column-by-column search, ids included,
// for any number of threads, and does skip columns; with every tile size it equals the brute
// force.
#include <gtest/gtest.h>

#include <string>

#include "common/suite_scale.hpp"
#include "dse/search/problem_search.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using test::TestProblem;

struct Case {
  TestProblem problem;
  test::HardwareSpec hardware;
  TileMenu menu;
  std::vector<Objective> objectives;
  LatencyModel latency = LatencyModel::Roofline;
};

test::HardwareSpec spec(std::int64_t gb_words, bool double_buffering = false,
                        double gb_words_per_cycle = 8.0) {
  test::HardwareSpec s;
  s.gb_words = gb_words;
  s.double_buffering = double_buffering;
  s.gb_words_per_cycle = gb_words_per_cycle;
  return s;
}

std::vector<Case> cases() {
  const std::vector<Objective> latency_energy{Objective::Latency, Objective::Energy};
  const std::vector<Objective> edp_buffer{Objective::Edp, Objective::Buffer};
  const std::vector<Objective> three{Objective::Latency, Objective::Energy, Objective::Dram};
  std::vector<Case> out;
  out.push_back({test::single_problem("gemm 48x32x40", test::gemm_yaml(48, 32, 40)), spec(512),
                 TileMenu::Divisors, latency_energy});
  out.push_back({test::single_problem("gemm 30x17x23 all", test::gemm_yaml(30, 17, 23)), spec(256),
                 TileMenu::All, three});
  out.push_back({test::fused_problem("gemm pair all", test::gemm_pair_yaml(12, 5, 10, 9)),
                 spec(96, true), TileMenu::All, latency_energy, LatencyModel::Sequential});
  out.push_back({test::fused_problem("conv pair", test::conv_pair_yaml()), spec(400),
                 TileMenu::Divisors, edp_buffer});
  out.push_back({test::fused_problem("window conv pair all", test::window_conv_pair_yaml()),
                 spec(60), TileMenu::All, edp_buffer});
  out.push_back({test::single_problem("strided conv pow2", test::strided_conv_yaml()), spec(128),
                 TileMenu::PowersOfTwo, latency_energy});
  out.push_back({test::fused_problem("attention", test::attention_yaml(2, 16, 8)),
                 spec(300, false, 2.0), TileMenu::Divisors, three});
  return out;
}

SearchOptions options_of(const Case &c, bool boxes, int threads) {
  SearchOptions o;
  o.menu = c.menu;
  o.objectives = c.objectives;
  o.latency_model = c.latency;
  o.prune_boxes = boxes;
  o.threads = threads;
  o.block_tilings = 4; // leaves of a few tilings: deep trees even on small spaces
  return o;
}

void expect_same_points(const ProblemFront &a, const ProblemFront &b) {
  ASSERT_EQ(a.front.size(), b.front.size());
  for (size_t i = 0; i < a.front.size(); ++i) {
    const ParetoPoint &p = a.front.points()[i];
    const ParetoPoint &q = b.front.points()[i];
    EXPECT_EQ(p.key, q.key) << "point " << i;
    EXPECT_EQ(p.candidate, q.candidate) << "point " << i;
    EXPECT_EQ(p.tiling, q.tiling) << "point " << i;
  }
}

TEST(TilingBoxes, FrontIsTheColumnByColumnFrontForAnyThreadCount) {
  std::uint64_t tilings = 0, columns = 0;
  for (const Case &c : cases()) {
    SCOPED_TRACE(c.problem.name);
    const Hardware hw = test::tiny_hardware(c.hardware);
    const ProblemFront every_column =
        search_problem(c.problem.problem, hw, options_of(c, false, 1));
    EXPECT_EQ(every_column.stats.columns, every_column.stats.tilings);
    ASSERT_GE(every_column.front.size(), 2U) << "front too small to test anything";
    const std::vector<int> thread_counts = test_common::per_suite<std::vector<int>>({1, 2, 3}, {2});
    for (int threads : thread_counts) {
      const ProblemFront boxed =
          search_problem(c.problem.problem, hw, options_of(c, true, threads));
      expect_same_points(every_column, boxed);
      EXPECT_EQ(boxed.stats.mappings, every_column.stats.mappings);
      EXPECT_LE(boxed.stats.columns, boxed.stats.tilings);
      EXPECT_GT(boxed.stats.boxes, 0U);
      if (threads == thread_counts.front()) {
        tilings += boxed.stats.tilings;
        columns += boxed.stats.columns;
      }
    }
  }
  EXPECT_LT(columns, tilings / 2) << "boxes should spare most columns of these spaces";
}

TEST(TilingBoxes, EveryTileSizeOfAttentionEqualsTheBruteForce) {
  const TestProblem tp = test::fused_problem("attention all", test::attention_yaml(1, 6, 5));
  const Hardware hw = test::tiny_hardware(spec(64));
  SearchOptions o;
  o.menu = TileMenu::All;
  o.objectives = {Objective::Latency, Objective::Energy, Objective::Buffer};
  const ProblemFront brute = brute_force_problem(tp.problem, hw, o, Pruning::Symbolic);
  const ProblemFront boxed = search_problem(tp.problem, hw, o);
  ASSERT_GE(brute.front.size(), 2U);
  ASSERT_EQ(brute.front.size(), boxed.front.size());
  for (size_t i = 0; i < brute.front.size(); ++i) {
    EXPECT_DOUBLE_EQ(brute.front.points()[i].objectives.latency_s,
                     boxed.front.points()[i].objectives.latency_s);
    EXPECT_DOUBLE_EQ(brute.front.points()[i].objectives.energy_pj,
                     boxed.front.points()[i].objectives.energy_pj);
    EXPECT_EQ(brute.front.points()[i].objectives.buffer_words,
              boxed.front.points()[i].objectives.buffer_words);
  }
}

TEST(TilingBoxes, NothingFitsStillReportsTheExactSmallestNeed) {
  const TestProblem tp = test::fused_problem("gemm pair", test::gemm_pair_yaml(4, 4, 6, 2));
  const Hardware hw = test::tiny_hardware(spec(2));
  SearchOptions o;
  o.block_tilings = 4;
  const ProblemFront brute = brute_force_problem(tp.problem, hw, o);
  const ProblemFront boxed = search_problem(tp.problem, hw, o);
  EXPECT_EQ(boxed.front.size(), 0U);
  EXPECT_GT(brute.min_buffer_words, 2.0);
  EXPECT_EQ(boxed.min_buffer_words, brute.min_buffer_words);
}

} // namespace
} // namespace dse
