// The counts the space limits rest on equal what the enumeration lists (tile menus, loop nests
// over every prefix choice), and the limits refuse exactly the spaces above them.
#include "dse/search/space_limits.hpp"

#include <algorithm>
#include <gtest/gtest.h>
#include <map>
#include <vector>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/support/error.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

/// The loop nests build_candidate_space enumerates, listed one by one.
double enumerated_local_plans(const Problem &problem, bool allow_recompute) {
  double plans = 0;
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    if (!allow_recompute && !problem.runs_without_recompute(choice.prefix, choice.cached))
      continue;
    for (size_t o = 0; o < problem.ops.size(); ++o)
      plans +=
          static_cast<double>(enumerate_local_plans(problem, choice, static_cast<int>(o)).size());
  }
  return plans;
}

std::vector<test::TestProblem> problems() {
  return {test::single_problem("gemm", test::gemm_yaml(4, 3, 2)),
          test::fused_problem("gemm-pair", test::gemm_pair_yaml(4, 2, 3, 2)),
          test::fused_problem("conv-pair", test::conv_pair_yaml()),
          test::fused_problem("conv1d-pair", test::conv1d_pair_yaml()),
          test::fused_problem("window-pair", test::window_pair_yaml()),
          test::fused_problem("window-conv-pair", test::window_conv_pair_yaml()),
          test::single_problem("strided-conv", test::strided_conv_yaml()),
          test::fused_problem("attention", test::attention_yaml(2, 4, 2)),
          test::fused_problem("attention-no-heads", test::attention_yaml(0, 4, 2))};
}

TEST(SpaceLimits, TileMenuSizeIsTheMenuLength) {
  for (TileMenu menu :
       {TileMenu::Divisors, TileMenu::PowersOfTwo, TileMenu::ArrayMultiples, TileMenu::All})
    for (TileSizes sizes : {TileSizes::Every, TileSizes::SmallestPerTripCount})
      for (std::int64_t array : {1, 3, 4, 32})
        for (std::int64_t size = 1; size <= 300; ++size)
          EXPECT_EQ(tile_menu_size(size, menu, array, sizes),
                    static_cast<std::int64_t>(tile_menu(size, menu, array, sizes).size()))
              << tile_menu_name(menu) << " size " << size << " array " << array
              << (sizes == TileSizes::Every ? " every size" : " smallest per trip count");
}

/// Per trip count ceil(X / T), the menu keeps exactly the smallest tile of the full menu with it.
TEST(SpaceLimits, SmallestPerTripCountKeepsOneTilePerTripCount) {
  const auto ceil_div = [](std::int64_t a, std::int64_t b) { return (a + b - 1) / b; };
  for (TileMenu menu :
       {TileMenu::Divisors, TileMenu::PowersOfTwo, TileMenu::ArrayMultiples, TileMenu::All})
    for (std::int64_t array : {1, 3, 4, 32})
      for (std::int64_t size = 1; size <= 300; ++size) {
        std::map<std::int64_t, std::int64_t> smallest; // trip count -> smallest tile
        for (std::int64_t t : tile_menu(size, menu, array, TileSizes::Every))
          smallest.emplace(ceil_div(size, t), t);
        std::vector<std::int64_t> expected;
        for (const auto &[trips, tile] : smallest)
          expected.push_back(tile);
        std::sort(expected.begin(), expected.end());
        EXPECT_EQ(tile_menu(size, menu, array, TileSizes::SmallestPerTripCount), expected)
            << tile_menu_name(menu) << " size " << size << " array " << array;
      }
  // About 2 sqrt(X) sizes instead of X: 63 for 1024, 1999 for a million.
  EXPECT_EQ(tile_menu_size(1024, TileMenu::All, 16, TileSizes::SmallestPerTripCount), 63);
  EXPECT_EQ(tile_menu_size(1'000'000, TileMenu::All, 16, TileSizes::SmallestPerTripCount), 1999);
}

TEST(SpaceLimits, LoopNestCountIsWhatTheEnumerationLists) {
  for (const test::TestProblem &tp : problems())
    for (bool recompute : {true, false})
      EXPECT_EQ(count_local_plans(tp.problem, recompute, 1e18),
                enumerated_local_plans(tp.problem, recompute))
          << tp.name << (recompute ? "" : " without recompute");
}

TEST(SpaceLimits, CountingStopsAboveTheGivenBound) {
  const test::TestProblem tp = test::fused_problem("attention", test::attention_yaml(2, 4, 2));
  const double all = count_local_plans(tp.problem, true, 1e18);
  const double stopped = count_local_plans(tp.problem, true, 10);
  EXPECT_GT(stopped, 10);
  EXPECT_LT(stopped, all);
}

TEST(SpaceLimits, RefusesOnlySpacesAboveTheLimits) {
  // A 4 x 3 x 2 GEMM: 3 x 2 x 2 divisor tilings, 162 loop nests.
  const test::TestProblem tp = test::single_problem("gemm", test::gemm_yaml(4, 3, 2));
  EXPECT_NO_THROW(
      check_space_limits(tp.problem, TileMenu::Divisors, 4, TileSizes::Every, true, {12, 162}));
  try {
    check_space_limits(tp.problem, TileMenu::Divisors, 4, TileSizes::Every, true, {11, 162});
    FAIL() << "no error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.message(), "operator 'gemm': --tiles divisors gives 3 tile sizes for dimension "
                           "m; the tiling space has 12 tilings, above the limit of 11 (raise it "
                           "with --max-tilings)");
  }
  try {
    check_space_limits(tp.problem, TileMenu::Divisors, 4, TileSizes::Every, true, {12, 161});
    FAIL() << "no error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.message(), "operator 'gemm': the candidate space has 162 loop nests to "
                           "enumerate (every order of up to 3 loops with every retention "
                           "depth), above the limit of 161 (raise it with --max-loop-nests)");
  }
}

TEST(SpaceLimits, FusedProblemsAreNamedByBothOperators) {
  const test::TestProblem tp = test::fused_problem("gemm-pair", test::gemm_pair_yaml(4, 2, 3, 2));
  try {
    check_space_limits(tp.problem, TileMenu::All, 4, TileSizes::Every, true, {1, 1'000'000});
    FAIL() << "no error";
  } catch (const UserError &e) {
    EXPECT_EQ(e.message().rfind("fused operators '", 0), 0u) << e.message();
  }
}

TEST(SpaceLimits, CountsPrintExactlyThenInTwoDigits) {
  EXPECT_EQ(count_text(0), "0");
  EXPECT_EQ(count_text(999999), "999999");
  EXPECT_EQ(count_text(1e6), "1e6");
  EXPECT_EQ(count_text(1e8), "1e8");
  EXPECT_EQ(count_text(4.61e18), "4.6e18");
  EXPECT_EQ(count_text(2.5e100), "2.5e100");
}

} // namespace
} // namespace dse
