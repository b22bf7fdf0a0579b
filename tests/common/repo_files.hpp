// Paths of the files shipped in the repository (hw_configs/, workloads/, networks/, README.md)
// for the tests that load them.
#pragma once

#include <string>

namespace dse::test_common {

/// Absolute path of `relative`, a path inside the repository.
inline std::string repo_file(const std::string &relative) {
  return std::string(DSE_SOURCE_DIR) + "/" + relative;
}

} // namespace dse::test_common
