// User-facing error type and its `file:line:col: error:` formatting.
#include "dse/support/error.hpp"

namespace dse {

std::string format_error(const SourceLocation &where, const std::string &message) {
  std::string out;
  if (!where.file.empty()) {
    out += where.file + ":";
    if (where.line > 0) {
      out += std::to_string(where.line) + ":";
      if (where.column > 0)
        out += std::to_string(where.column) + ":";
    }
    out += " ";
  }
  return out + "error: " + message;
}

UserError::UserError(SourceLocation where, const std::string &message)
    : std::runtime_error(format_error(where, message)), where_(std::move(where)),
      message_(message) {}

UserError::UserError(const std::string &message)
    : std::runtime_error(format_error({}, message)), message_(message) {}

} // namespace dse
