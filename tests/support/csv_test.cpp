// Numbers in reports: CSV numbers and text-report numbers read back as the same double, and whole
// numbers in text reports keep every digit.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "dse/support/csv.hpp"

namespace dse {
namespace {

TEST(ExactNumber, WholeNumbersKeepEveryDigit) {
  EXPECT_EQ(exact_number(1048576), "1048576");
  EXPECT_EQ(exact_number(1e6), "1000000");
  EXPECT_EQ(exact_number(-3), "-3");
  EXPECT_EQ(exact_number(0), "0");
  EXPECT_EQ(exact_number(9007199254740991.0), "9007199254740991");
  EXPECT_EQ(csv_number(1e6), "1e+06"); // CSV keeps the shortest form
}

TEST(ExactNumber, OtherNumbersReadBackExactly) {
  EXPECT_EQ(exact_number(0.1), "0.1");
  EXPECT_EQ(exact_number(1e300), "1e+300");
  EXPECT_EQ(exact_number(std::numeric_limits<double>::infinity()), "inf");
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> exponent(-20, 20);
  for (int i = 0; i < 2000; ++i) {
    const double v = std::pow(10.0, exponent(rng)) * (i % 2 ? 1 : -1);
    EXPECT_EQ(std::stod(exact_number(v)), v);
    EXPECT_EQ(std::stod(csv_number(v)), v);
  }
}

} // namespace
} // namespace dse
