// Tests of src/support/error.cpp: the `file:line:col: error: message` format and UserError.
#include "dse/support/error.hpp"

#include <gtest/gtest.h>

namespace dse {
namespace {

TEST(FormatError, FullLocation) {
  EXPECT_EQ(format_error({"hw.yaml", 3, 12}, "clock_ghz must be a positive number, got 0"),
            "hw.yaml:3:12: error: clock_ghz must be a positive number, got 0");
}

TEST(FormatError, LineWithoutColumn) {
  EXPECT_EQ(format_error({"w.yaml", 7, 0}, "bad"), "w.yaml:7: error: bad");
}

TEST(FormatError, FileOnly) {
  EXPECT_EQ(format_error({"m.yaml", 0, 0}, "bad"), "m.yaml: error: bad");
}

TEST(FormatError, ColumnWithoutLineIsLeftOut) {
  EXPECT_EQ(format_error({"m.yaml", 0, 5}, "bad"), "m.yaml: error: bad");
}

TEST(FormatError, NoLocation) { EXPECT_EQ(format_error({}, "bad"), "error: bad"); }

TEST(FormatError, LineWithoutFileIsLeftOut) {
  EXPECT_EQ(format_error({"", 4, 2}, "bad"), "error: bad");
}

TEST(UserError, KeepsLocationAndMessageApart) {
  const UserError e({"hw.yaml", 2, 5}, "unknown key 'x'");
  EXPECT_STREQ(e.what(), "hw.yaml:2:5: error: unknown key 'x'");
  EXPECT_EQ(e.message(), "unknown key 'x'");
  EXPECT_EQ(e.where().file, "hw.yaml");
  EXPECT_EQ(e.where().line, 2);
  EXPECT_EQ(e.where().column, 5);
}

TEST(UserError, WithoutLocation) {
  const UserError e("unknown tile menu 'odd'");
  EXPECT_STREQ(e.what(), "error: unknown tile menu 'odd'");
  EXPECT_EQ(e.message(), "unknown tile menu 'odd'");
  EXPECT_EQ(e.where().file, "");
  EXPECT_EQ(e.where().line, 0);
}

TEST(UserError, IsARuntimeError) {
  try {
    throw UserError({"f", 1, 1}, "m");
  } catch (const std::runtime_error &e) {
    EXPECT_STREQ(e.what(), "f:1:1: error: m");
    return;
  }
  FAIL() << "not caught as std::runtime_error";
}

} // namespace
} // namespace dse
