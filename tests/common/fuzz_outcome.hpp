// How one fuzzed input ended, for the fuzz tests: accepted, or rejected with a UserError that
// names the input's file; any other exception is a test failure that shows the input.
#pragma once

#include <gtest/gtest.h>

#include <exception>
#include <string>

#include "dse/support/error.hpp"

namespace dse::test_common {

struct FuzzTally {
  int accepted = 0;
  int rejected = 0; // cleanly, with a UserError
};

/// Runs `use` on one input and counts how it ended. A UserError must name `file` (empty: not
/// checked); `shown` describes the input in failure messages.
template <class Use>
void run_mutant(Use use, const std::string &file, const std::string &shown, FuzzTally &tally) {
  try {
    use();
    ++tally.accepted;
  } catch (const UserError &e) {
    ++tally.rejected;
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos)
        << "the error does not name the file: " << e.what() << "\n--- input ---\n"
        << shown;
  } catch (const std::exception &e) {
    ADD_FAILURE() << e.what() << "\n--- input ---\n" << shown;
  }
}

} // namespace dse::test_common
