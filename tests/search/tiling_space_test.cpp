// Tests of src/search/tiling_space.cpp: mixed-radix decoding (last dimension fastest) and the
// invariant check on tiling ids.
#include "dse/search/tiling_space.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "dse/support/check.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

TEST(TilingSpace, DecodesLastDimensionFastest) {
  const test::TestProblem tp = test::single_problem("gemm", test::gemm_yaml(4, 2, 3));
  const TilingSpace tilings(tp.problem, TileMenu::Divisors, 4, TileSizes::Every);
  // Divisors: m 4 -> {1, 2, 4}, k 2 -> {1, 2}, n 3 -> {1, 3}.
  ASSERT_EQ(tilings.size(), 12u);
  std::vector<int> menu_index;
  tilings.decode(0, menu_index);
  EXPECT_EQ(menu_index, std::vector<int>(3, 0));
  tilings.decode(11, menu_index);
  EXPECT_EQ(menu_index, (std::vector<int>{2, 1, 1}));
  tilings.decode(1, menu_index);
  EXPECT_EQ(menu_index.back(), 1);
  EXPECT_EQ(tilings.tiling(11).tile, tilings.sizes());
}

TEST(TilingSpace, OutOfRangeTilingIdIsAnInternalError) {
  const test::TestProblem tp = test::single_problem("gemm", test::gemm_yaml(4, 2, 3));
  const TilingSpace tilings(tp.problem, TileMenu::Divisors, 4, TileSizes::Every);
  std::vector<int> menu_index;
  try {
    tilings.decode(tilings.size(), menu_index);
    FAIL() << "decoded a tiling id past the end";
  } catch (const InternalError &e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.starts_with("src/search/tiling_space.cpp:")) << what;
    EXPECT_NE(what.find("tiling 12 of a space of 12"), std::string::npos) << what;
  }
  EXPECT_THROW(tilings.tiling(tilings.size() + 5), InternalError);
}

} // namespace
} // namespace dse
