// How much of a repeated check each test suite runs. The release suite runs every seed, network,
// front point and dataflow; the AddressSanitizer + UndefinedBehaviorSanitizer suite
// (scripts/test.sh), where each run costs several times more, runs the same code paths on a
// share of them, so that both suites together stay within the time the README promises.
#pragma once

namespace dse::test_common {

#ifdef DSE_SANITIZED_TESTS
inline constexpr bool kSanitizedSuite = true;
#else
inline constexpr bool kSanitizedSuite = false;
#endif

/// `release` in the release suite, `sanitized` in the sanitizer suite.
template <typename T> constexpr T per_suite(T release, T sanitized) {
  return kSanitizedSuite ? sanitized : release;
}

} // namespace dse::test_common
