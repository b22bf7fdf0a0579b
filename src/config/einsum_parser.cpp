// Recursive-descent parser for einsum strings with affine indices; errors point at the
// offending character.
#include "dse/config/einsum_parser.hpp"

#include <charconv>

#include "yaml_reader.hpp"

namespace dse {

namespace {

constexpr std::int64_t kMaxCoefficient = 2147483647;

bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }

/// Grammar (spaces allowed between tokens):
///   einsum := access '+=' access ('*' access)?
///   access := name '[' index (',' index)* ']'
///   index  := term ('+' term)*
///   term   := (integer '*')? name
class EinsumParser {
public:
  EinsumParser(std::string_view text, const SourceLocation &where) : text_(text), where_(where) {}

  ParsedEinsum parse() {
    ParsedEinsum einsum;
    einsum.output = access();
    if (!accept("+="))
      fail(pos_, "expected '+=' after the output access, found " + found());
    einsum.inputs.push_back(access());
    if (accept("*"))
      einsum.inputs.push_back(access());
    skip_spaces();
    if (pos_ < text_.size() && text_[pos_] == '*')
      fail(pos_, "an einsum takes at most two inputs");
    if (pos_ < text_.size())
      fail(pos_, "expected '*' or the end of the einsum, found " + found());
    return einsum;
  }

private:
  ParsedAccess access() {
    skip_spaces();
    ParsedAccess out;
    out.offset = static_cast<int>(pos_);
    out.tensor = identifier("a tensor name");
    if (!accept("["))
      fail(pos_, "expected '[' after tensor name '" + out.tensor + "', found " + found());
    do {
      out.indices.push_back(index());
    } while (accept(","));
    if (!accept("]")) {
      const std::string hint = peek('*') ? " (write a coefficient before its dimension: 2*p)" : "";
      fail(pos_, "expected '+', ',' or ']' in the indices of '" + out.tensor + "', found " +
                     found() + hint);
    }
    out.text = std::string(text_.substr(static_cast<size_t>(out.offset), pos_ - out.offset));
    return out;
  }

  ParsedIndex index() {
    skip_spaces();
    ParsedIndex out;
    out.offset = static_cast<int>(pos_);
    size_t end = pos_;
    do {
      out.terms.push_back(term());
      end = pos_;
    } while (accept("+"));
    out.text = std::string(text_.substr(static_cast<size_t>(out.offset), end - out.offset));
    return out;
  }

  ParsedTerm term() {
    skip_spaces();
    ParsedTerm out;
    out.offset = static_cast<int>(pos_);
    if (pos_ < text_.size() && is_digit(text_[pos_])) {
      out.coef = coefficient();
      if (!accept("*"))
        fail(pos_,
             "expected '*' after coefficient " + std::to_string(out.coef) + ", found " + found());
      skip_spaces();
    }
    out.dim = identifier("a dimension name");
    return out;
  }

  std::int64_t coefficient() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_]))
      ++pos_;
    const std::string_view digits = text_.substr(start, pos_ - start);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || value > kMaxCoefficient)
      fail(start, "coefficient must be at most " + std::to_string(kMaxCoefficient) + ", got " +
                      std::string(digits));
    if (value == 0)
      fail(start, "coefficient must be a positive integer, got 0");
    return value;
  }

  std::string identifier(const char *what) {
    if (pos_ >= text_.size() || !is_ident_start(text_[pos_])) {
      const std::string hint = peek('-') ? " (coefficients must be positive)" : "";
      fail(pos_, std::string("expected ") + what + ", found " + found() + hint);
    }
    const size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_]))
      ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  /// Skips spaces, then consumes `token` if it comes next.
  bool accept(std::string_view token) {
    skip_spaces();
    if (text_.substr(pos_, token.size()) != token)
      return false;
    pos_ += token.size();
    return true;
  }

  bool peek(char c) const { return pos_ < text_.size() && text_[pos_] == c; }

  void skip_spaces() {
    while (pos_ < text_.size() && is_space(text_[pos_]))
      ++pos_;
  }

  std::string found() const {
    if (pos_ >= text_.size())
      return "the end of the einsum";
    return "'" + std::string(1, text_[pos_]) + "'";
  }

  [[noreturn]] void fail(size_t offset, const std::string &message) const {
    throw UserError(shifted(where_, static_cast<int>(offset)), message);
  }

  std::string_view text_;
  SourceLocation where_;
  size_t pos_ = 0;
};

} // namespace

ParsedEinsum parse_einsum(std::string_view text, const SourceLocation &where) {
  return EinsumParser(text, where).parse();
}

} // namespace dse
