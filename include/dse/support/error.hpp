// User-facing errors: one exception type carrying file:line:col, caught and printed by main.
#pragma once

#include <stdexcept>
#include <string>

namespace dse {

/// Where in an input file something was found. Line and column are 1-based; 0 means unknown.
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;

  bool operator==(const SourceLocation &) const = default;
};

/// An error the user caused (bad input, impossible request). Never used for internal bugs.
class UserError : public std::runtime_error {
public:
  UserError(SourceLocation where, const std::string &message);
  explicit UserError(const std::string &message);

  const SourceLocation &where() const { return where_; }
  /// Only the message, without the location prefix.
  const std::string &message() const { return message_; }

private:
  SourceLocation where_;
  std::string message_;
};

/// Formats `file:line:col: error: message` (parts that are unknown are left out).
std::string format_error(const SourceLocation &where, const std::string &message);

} // namespace dse
