// What every fuzz target does with one input: skip oversized inputs, and treat a UserError
// naming the input's file as the clean rejection. Anything else (another exception, a crash, a
// sanitizer report, a hang) escapes to libFuzzer or the replay driver as a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "dse/support/error.hpp"

namespace dse::fuzz {

/// Inputs above this size are skipped: the loaders' file-size limits guard larger inputs, and
/// huge inputs only slow the campaign down.
inline constexpr std::size_t kMaxInputBytes = 64 * 1024;

/// Runs `use(text)` on the input. A UserError must name `file_name` (empty: not checked);
/// one that does not is reported as a finding, as is every other exception.
template <class Use>
int run_input(const std::uint8_t *data, std::size_t size, const std::string &file_name, Use use) {
  if (size > kMaxInputBytes)
    return 0;
  try {
    use(std::string(reinterpret_cast<const char *>(data), size));
  } catch (const UserError &e) {
    if (std::string(e.what()).find(file_name) == std::string::npos) {
      std::fprintf(stderr, "error message does not name '%s': %s\n", file_name.c_str(), e.what());
      std::abort();
    }
  }
  return 0;
}

} // namespace dse::fuzz
