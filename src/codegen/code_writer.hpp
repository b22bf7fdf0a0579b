// A small indentation-aware text builder for the generated C++ source.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace dse::codegen {

class CodeWriter {
public:
  /// One line at the current indentation. Control characters in `text` (a line break in a
  /// workload's name, in a comment or a string) become spaces: the line stays one line.
  CodeWriter &line(const std::string &text);
  /// A blank line.
  CodeWriter &blank();
  /// `head {` and one level deeper.
  CodeWriter &open(const std::string &head);
  /// One level shallower and `tail` (by default `}`).
  CodeWriter &close(const std::string &tail = "}");
  /// Text that is already formatted (the runtime preamble), appended as is.
  CodeWriter &raw(const std::string &text);
  std::string str() const { return out_.str(); }

private:
  std::ostringstream out_;
  int depth_ = 0;
};

/// `a + b + ...` of the non-empty terms, or "0".
std::string sum_of(const std::vector<std::string> &terms);
/// `{a, b, ...}`.
std::string braced(const std::vector<std::string> &items);
std::string braced(const std::vector<std::int64_t> &items);
std::string braced(const std::vector<int> &items);
/// A C++ identifier part made of a workload name (letters, digits, _).
std::string ident(const std::string &name);

} // namespace dse::codegen
