// Tests of src/support/check.cpp: DSE_CHECK stays on whatever the build type, and a failure
// throws an InternalError naming the check's location, condition and message.
#include "dse/support/check.hpp"

#include <gtest/gtest.h>

#include <string>

#include "dse/support/error.hpp"

namespace dse {
namespace {

std::string failure_of(int value, int &line) {
  try {
    line = __LINE__ + 1;
    DSE_CHECK(value < 3, "value " + std::to_string(value) + " out of range");
  } catch (const InternalError &e) {
    return e.what();
  }
  return "";
}

TEST(Check, PassingCheckDoesNothing) {
  int line = 0;
  EXPECT_EQ(failure_of(2, line), "");
}

TEST(Check, FailureNamesLocationConditionAndMessage) {
  int line = 0;
  const std::string what = failure_of(7, line);
  EXPECT_EQ(what, "tests/support/check_test.cpp:" + std::to_string(line) +
                      ": check 'value < 3' failed: value 7 out of range");
}

TEST(Check, IsALogicErrorNotAUserError) {
  // main reports it as "internal error: ...", never as a user's mistake.
  EXPECT_THROW(DSE_CHECK(false, "bug"), std::logic_error);
  try {
    DSE_CHECK(false, "bug");
  } catch (const UserError &) {
    FAIL() << "a failed check is not a UserError";
  } catch (const std::exception &) {
  }
}

TEST(Check, StaysOnInEveryBuildType) {
  // Release builds define NDEBUG, which removes assert but not DSE_CHECK.
  EXPECT_THROW(DSE_CHECK(1 + 1 == 3, ""), InternalError);
}

TEST(Check, EmptyMessageEndsAtTheCondition) {
  try {
    DSE_CHECK(sizeof(int) == 0, "");
    FAIL() << "the check passed";
  } catch (const InternalError &e) {
    const std::string what = e.what();
    EXPECT_TRUE(what.ends_with(": check 'sizeof(int) == 0' failed")) << what;
  }
}

TEST(Check, MessageIsEvaluatedOnlyOnFailure) {
  int evaluated = 0;
  const auto message = [&] {
    ++evaluated;
    return std::string("costly");
  };
  DSE_CHECK(true, message());
  EXPECT_EQ(evaluated, 0);
  EXPECT_THROW(DSE_CHECK(false, message()), InternalError);
  EXPECT_EQ(evaluated, 1);
}

TEST(Check, UsableAsASingleStatement) {
  // The macro is one statement: an if/else around it keeps its meaning.
  bool reached_else = false;
  if (false)
    DSE_CHECK(false, "never");
  else
    reached_else = true;
  EXPECT_TRUE(reached_else);
}

} // namespace
} // namespace dse
