// Editing test inputs: a known-good file with one piece replaced, so that each bad-input test
// shows only what it breaks.
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace dse::test_common {

/// `text` with the first occurrence of `from` replaced by `to` (which must occur).
inline std::string with(std::string text, const std::string &from, const std::string &to) {
  const size_t at = text.find(from);
  if (at == std::string::npos)
    ADD_FAILURE() << "'" << from << "' not found in the test input";
  else
    text.replace(at, from.size(), to);
  return text;
}

} // namespace dse::test_common
