// What a refused call says, for the tests of refusals.
#pragma once

#include <string>

#include "dse/support/error.hpp"

namespace dse::test_common {

/// The message of the UserError `action` throws, or "" when it throws none.
template <class Action> std::string error_of(Action action) {
  try {
    action();
  } catch (const UserError &e) {
    return e.what();
  }
  return "";
}

} // namespace dse::test_common
