// Internal invariant checks that stay on in release builds: a broken invariant is a bug, reported
// as an InternalError (main prints "internal error: ...") rather than left to undefined behaviour.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

namespace dse {

/// A broken internal invariant: a bug in dse, never caused by input. Unlike UserError, its
/// message names the source location of the check.
class InternalError : public std::logic_error {
public:
  using std::logic_error::logic_error;
};

/// Throws InternalError "FILE:LINE: check 'CONDITION' failed: MESSAGE", FILE relative to the
/// source tree. Called by DSE_CHECK only.
[[noreturn]] void check_failed(const char *file, int line, const char *condition,
                               std::string_view message);

} // namespace dse

/// Checks an invariant in every build type (NDEBUG does not remove it). `message` (a string
/// literal or a std::string, evaluated only on failure) says what was expected, with the values.
/// For cheap checks outside the innermost loops; a failure throws dse::InternalError.
#define DSE_CHECK(condition, message)                                                              \
  do {                                                                                             \
    if (!(condition)) [[unlikely]]                                                                 \
      ::dse::check_failed(__FILE__, __LINE__, #condition, (message));                              \
  } while (false)
