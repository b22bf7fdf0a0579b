// Suggestions for a mistyped subcommand: the nearest known name by edit distance.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace dse {

/// The name in `names` fewest edits (insertions, deletions, substitutions) away from `word`, if
/// it is at most two edits away and closer than replacing the whole word; ties: the first.
std::optional<std::string> nearest_name(const std::string &word,
                                        const std::vector<std::string> &names);

/// "error: unknown command 'explor'; did you mean 'explore'?", or, with no near name,
/// "error: unknown command 'x'; expected explore, eval or sweep".
std::string unknown_command_message(const std::string &word, const std::vector<std::string> &names);

} // namespace dse
