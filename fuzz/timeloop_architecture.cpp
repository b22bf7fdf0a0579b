// Fuzz target: a Timeloop architecture and its energy reference table through
// parse_timeloop_architecture. The input splits at its first line that is exactly `---`: the
// architecture file before it, the ERT file after it. Without such a line, the one file holds
// both sections (as `dse eval` reads a hardware file with an `ERT` section and no --ert).
#include <algorithm>
#include <string_view>

#include "dse/config/timeloop_loader.hpp"
#include "fuzz_input.hpp"

namespace {

constexpr const char *kArchFile = "fuzz-arch.yaml";
constexpr const char *kErtFile = "fuzz-ert.yaml";

/// Where the separator line starts, or npos.
std::size_t separator_at(std::string_view text) {
  for (std::size_t line = 0; line < text.size();) {
    const std::size_t end = std::min(text.find('\n', line), text.size());
    if (text.substr(line, end - line) == "---")
      return line;
    line = end + 1;
  }
  return std::string_view::npos;
}

void parse(const std::string &text) {
  const std::size_t at = separator_at(text);
  if (at == std::string::npos) {
    dse::timeloop_sections(text, kArchFile);
    dse::parse_timeloop_architecture(text, kArchFile, text, kArchFile);
    return;
  }
  const std::string arch = text.substr(0, at);
  const std::string ert = text.substr(std::min(at + 4, text.size()));
  dse::parse_timeloop_architecture(arch, kArchFile, ert, kErtFile);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, std::vector<std::string>{kArchFile, kErtFile}, parse);
}
