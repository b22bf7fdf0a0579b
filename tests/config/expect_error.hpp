// Test helper: checks that a call throws a UserError at an exact file:line:col with a message.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "dse/support/error.hpp"

namespace dse::testing {

/// Succeeds when `call` throws a UserError whose what() starts with `location: error: ` and
/// whose message contains `message`.
template <class Call>
::testing::AssertionResult throws_at(Call &&call, const std::string &location,
                                     const std::string &message) {
  try {
    call();
  } catch (const UserError &e) {
    const std::string what = e.what();
    if (what.rfind(location + ": error: ", 0) == 0 &&
        e.message().find(message) != std::string::npos)
      return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure()
           << "expected '" << location << ": error: ..." << message << "...', got '" << what << "'";
  }
  return ::testing::AssertionFailure() << "no error thrown; expected '" << message << "'";
}

/// `text` with the first occurrence of `from` replaced by `to` (which must occur).
inline std::string with(std::string text, const std::string &from, const std::string &to) {
  const size_t at = text.find(from);
  if (at == std::string::npos)
    ADD_FAILURE() << "'" << from << "' not found in the test input";
  else
    text.replace(at, from.size(), to);
  return text;
}

} // namespace dse::testing
