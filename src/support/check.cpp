// The failure path of DSE_CHECK: the InternalError with the check's location.
#include "dse/support/check.hpp"

#include <algorithm>
#include <array>

namespace dse {

namespace {

/// `file` from its top-level source folder on (`src/search/tiling_space.cpp`), so that messages
/// do not depend on where the tree was built.
std::string_view relative_to_tree(std::string_view file) {
  size_t start = 0;
  for (std::string_view folder : std::array<std::string_view, 3>{"/src/", "/include/", "/tests/"})
    if (const size_t at = file.rfind(folder); at != std::string_view::npos)
      start = std::max(start, at + 1);
  return file.substr(start);
}

} // namespace

void check_failed(const char *file, int line, const char *condition, std::string_view message) {
  std::string what(relative_to_tree(file));
  what += ":" + std::to_string(line) + ": check '" + condition + "' failed";
  if (!message.empty())
    what += ": " + std::string(message);
  throw InternalError(what);
}

} // namespace dse
