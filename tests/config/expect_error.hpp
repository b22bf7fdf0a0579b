// Test helpers: check that a call throws a UserError at an exact file:line:col with a message,
// and edit a known-good input.
#pragma once

#include <string>

#include <gtest/gtest.h>

#include "common/text.hpp"
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

/// The message of the UserError that `call` throws, or "no error thrown".
template <class Call> std::string error_message(Call &&call) {
  try {
    call();
  } catch (const UserError &e) {
    return e.message();
  }
  return "no error thrown";
}

/// The whole what() (location and message) of the UserError that `call` throws, or "no error".
template <class Call> std::string error_what(Call &&call) {
  try {
    call();
  } catch (const UserError &e) {
    return e.what();
  }
  return "no error";
}

using test_common::with;

} // namespace dse::testing
