// RFC 4180 quoting of CSV fields (control bytes escaped), and numbers that read back exactly.
#include "dse/support/csv.hpp"

#include <charconv>
#include <cmath>

#include "dse/support/escape.hpp"

namespace dse {

std::string csv_field(const std::string &text) {
  const std::string s = escape_control(text);
  if (s.find_first_of(",\"") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string csv_number(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

std::string exact_number(double v) {
  constexpr double kExactIntegers = 9007199254740992.0; // 2^53
  if (std::isfinite(v) && v == std::trunc(v) && std::fabs(v) < kExactIntegers) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
    return std::string(buf, r.ptr);
  }
  return csv_number(v);
}

} // namespace dse
