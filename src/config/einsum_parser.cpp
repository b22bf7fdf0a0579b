// Recursive-descent parser for einsum strings with affine indices; errors point at the
// offending character.
#include "dse/config/einsum_parser.hpp"

#include <charconv>
#include <cstdlib>

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
///   index  := summand (('+' summand) | ('-' integer))*
///   summand := (integer '*')? name | integer
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
    bool subtract = false;
    do {
      summand(out, subtract);
      end = pos_;
      subtract = accept("-");
    } while (subtract || accept("+"));
    out.text = std::string(text_.substr(static_cast<size_t>(out.offset), end - out.offset));
    if (out.terms.empty())
      fail(static_cast<size_t>(out.offset), "index '" + out.text + "' names no dimension");
    return out;
  }

  /// One summand of an index: `dim`, `coef*dim` or a constant (the only thing that may be
  /// subtracted).
  void summand(ParsedIndex &index, bool subtract) {
    skip_spaces();
    const size_t start = pos_;
    if (pos_ >= text_.size() || !is_digit(text_[pos_])) {
      if (subtract)
        fail(start, "only a constant can be subtracted in an index (coefficients must be "
                    "positive), found " +
                        found());
      index.terms.push_back(ParsedTerm{identifier("a dimension name"), 1, static_cast<int>(start)});
      return;
    }
    const std::int64_t value = integer();
    if (!accept("*")) {
      if (pos_ < text_.size() && is_ident_start(text_[pos_]))
        fail(pos_,
             "expected '*' after coefficient " + std::to_string(value) + ", found " + found());
      if (std::abs(index.constant + (subtract ? -value : value)) > kMaxCoefficient)
        fail(start, "the constants of an index must sum to at most " +
                        std::to_string(kMaxCoefficient) + " in magnitude");
      index.constant += subtract ? -value : value;
      return;
    }
    if (subtract)
      fail(start, "only a constant can be subtracted in an index (coefficients must be positive)");
    if (value == 0)
      fail(start, "coefficient must be a positive integer, got 0");
    skip_spaces();
    index.terms.push_back(
        ParsedTerm{identifier("a dimension name"), value, static_cast<int>(start)});
  }

  std::int64_t integer() {
    const size_t start = pos_;
    while (pos_ < text_.size() && is_digit(text_[pos_]))
      ++pos_;
    const std::string_view digits = text_.substr(start, pos_ - start);
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (ec != std::errc() || value > kMaxCoefficient) {
      skip_spaces();
      fail(start, std::string(peek('*') ? "coefficient" : "constant") + " must be at most " +
                      std::to_string(kMaxCoefficient) + ", got " + std::string(digits));
    }
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
