// What every fuzz target does with one input: skip oversized inputs, and treat a UserError
// naming the input's file as the clean rejection. Anything else (another exception, a crash, a
// sanitizer report, a hang) escapes to libFuzzer or the replay driver as a finding.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "dse/support/error.hpp"

namespace dse::fuzz {

/// Inputs above this size are skipped: the loaders' file-size limits guard larger inputs, and
/// huge inputs only slow the campaign down.
inline constexpr std::size_t kMaxInputBytes = 64 * 1024;

/// Runs `use(text)` on the input. A UserError must name one of `file_names` (none: not
/// checked); one that does not is reported as a finding, as is every other exception.
template <class Use>
int run_input(const std::uint8_t *data, std::size_t size,
              const std::vector<std::string> &file_names, Use use) {
  if (size > kMaxInputBytes)
    return 0;
  try {
    use(std::string(reinterpret_cast<const char *>(data), size));
  } catch (const UserError &e) {
    const std::string what = e.what();
    const auto named = [&](const std::string &file) {
      return file.empty() || what.find(file) != std::string::npos;
    };
    if (file_names.empty() || std::any_of(file_names.begin(), file_names.end(), named))
      return 0;
    std::fprintf(stderr, "error message does not name '%s': %s\n", file_names.front().c_str(),
                 what.c_str());
    std::abort();
  }
  return 0;
}

/// run_input for one input file; an empty `file_name` is not checked.
template <class Use>
int run_input(const std::uint8_t *data, std::size_t size, const std::string &file_name, Use use) {
  return run_input(data, size, std::vector<std::string>{file_name}, use);
}

} // namespace dse::fuzz
