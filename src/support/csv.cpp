// RFC 4180 quoting of CSV fields.
#include "dse/support/csv.hpp"

namespace dse {

std::string csv_field(const std::string &s) {
  if (s.find_first_of(",\"\n") == std::string::npos)
    return s;
  std::string out = "\"";
  for (char c : s)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

} // namespace dse
