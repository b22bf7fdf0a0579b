// Output files written whole or not at all: text goes to a temporary file beside the target,
// which is renamed over it only once complete.
#pragma once

#include <string>

namespace dse {

/// Writes `text` to `path` atomically, or to stdout when `path` is empty or "-".
void write_output(const std::string &path, const std::string &text);

} // namespace dse
