// The in-place vector: it keeps what is pushed in order, compares like std::vector, and refuses
// an element past its capacity as a broken invariant instead of writing past its storage.
#include "dse/support/fixed_vector.hpp"

#include <gtest/gtest.h>
#include <vector>

#include "dse/support/check.hpp"

namespace dse {
namespace {

TEST(FixedVector, KeepsWhatIsPushedInOrder) {
  FixedVector<int, 3> v;
  EXPECT_TRUE(v.empty());
  v.push_back(7);
  v.push_back(5);
  EXPECT_EQ(v.size(), 2U);
  EXPECT_EQ(std::vector<int>(v.begin(), v.end()), (std::vector<int>{7, 5}));
  v[1] = 4;
  EXPECT_EQ(v[1], 4);
}

TEST(FixedVector, ComparesLikeAVectorOfItsElements) {
  const auto of = [](std::initializer_list<double> values) {
    FixedVector<double, 3> v;
    for (double x : values)
      v.push_back(x);
    return v;
  };
  EXPECT_EQ(of({1, 2}), of({1, 2}));
  EXPECT_LT(of({1, 2}), of({1, 3}));
  EXPECT_LT(of({1, 2}), of({1, 2, 0})); // a prefix first
  EXPECT_GT(of({2}), of({1, 9, 9}));
}

TEST(FixedVector, AnElementPastItsCapacityIsABrokenInvariant) {
  FixedVector<int, 2> v;
  v.push_back(1);
  v.push_back(2);
  EXPECT_THROW(v.push_back(3), InternalError);
  EXPECT_EQ(v.size(), 2U);
}

} // namespace
} // namespace dse
