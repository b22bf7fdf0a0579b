// Names as the YAML writers of the report layer spell them, so that the loaders read back exactly
// the same name.
#pragma once

#include <string>

namespace dse {

/// A name as a YAML flow scalar: bare when it starts with a letter or `_`, continues with letters,
/// digits, `_`, `-` or `.`, and is not a word YAML reads as null; else double-quoted.
std::string yaml_name(const std::string &name);

} // namespace dse
