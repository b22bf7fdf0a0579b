// Nearest-name suggestions for unknown subcommands (Levenshtein distance, as git and cargo do).
#include "dse/cli/command_suggestion.hpp"

#include <algorithm>
#include <cstddef>

#include "dse/support/escape.hpp"

namespace dse {
namespace {

size_t edit_distance(const std::string &a, const std::string &b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j)
    row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0]; // distance of a[0, i-1) and b[0, j-1)
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({substitute, row[j] + 1, row[j - 1] + 1});
    }
  }
  return row[b.size()];
}

} // namespace

std::optional<std::string> nearest_name(const std::string &word,
                                        const std::vector<std::string> &names) {
  constexpr size_t kMaxEdits = 2;
  std::optional<std::string> best;
  size_t best_distance = kMaxEdits + 1;
  for (const std::string &name : names) {
    const size_t d = edit_distance(word, name);
    // As many edits as the word has letters would turn any word into any other.
    if (d < best_distance && d < std::max(word.size(), name.size())) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::string unknown_command_message(const std::string &word,
                                    const std::vector<std::string> &names) {
  std::string message = "error: unknown command '" + escape_control_in_text(word) + "'; ";
  if (const std::optional<std::string> near = nearest_name(word, names))
    return message + "did you mean '" + *near + "'?";
  message += "expected ";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      message += i + 1 == names.size() ? " or " : ", ";
    message += names[i];
  }
  return message;
}

} // namespace dse
