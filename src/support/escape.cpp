// Escaping of control bytes for CSV, terminals and YAML.
#include "dse/support/escape.hpp"

namespace dse {

namespace {

bool is_control(char c) {
  const auto u = static_cast<unsigned char>(c);
  return u < 0x20 || u == 0x7f;
}

/// The escape of control byte `c`, as both C and YAML double-quoted strings read it.
std::string control_escape(char c) {
  switch (c) {
  case '\n':
    return "\\n";
  case '\t':
    return "\\t";
  case '\r':
    return "\\r";
  default:
    break;
  }
  constexpr char kHex[] = "0123456789abcdef";
  const auto u = static_cast<unsigned char>(c);
  return std::string("\\x") + kHex[u >> 4] + kHex[u & 15];
}

std::string escaped(std::string_view s, bool keep_line_feeds) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (is_control(c) && !(keep_line_feeds && c == '\n'))
      out += control_escape(c);
    else
      out += c;
  return out;
}

} // namespace

std::string escape_control(std::string_view s) { return escaped(s, false); }

std::string escape_control_in_text(std::string_view text) { return escaped(text, true); }

std::string yaml_double_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s)
    if (c == '"' || c == '\\')
      out += std::string("\\") + c;
    else if (is_control(c))
      out += control_escape(c);
    else
      out += c;
  return out + "\"";
}

} // namespace dse
