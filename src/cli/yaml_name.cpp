// Names of the YAML writers (hardware, workload and hierarchical mapping files).
#include "dse/cli/yaml_name.hpp"

#include <algorithm>
#include <cctype>

#include "dse/support/escape.hpp"

namespace dse {

namespace {

/// Plain scalars that YAML reads as null rather than as a string.
bool is_null_word(const std::string &name) {
  return name == "null" || name == "Null" || name == "NULL";
}

bool is_name_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

} // namespace

std::string yaml_name(const std::string &name) {
  const bool bare = !name.empty() &&
                    (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                    !is_null_word(name) && std::all_of(name.begin(), name.end(), is_name_char);
  return bare ? name : yaml_double_quoted(name);
}

} // namespace dse
