// Internal to src/config: what the Timeloop readers share: the top level of a Timeloop input, the
// `version` check, keys known only at run time, lists of names and positions inside scalars.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "yaml_reader.hpp"

namespace dse::timeloop {

/// The top level of a Timeloop input: a map whose keys are all Timeloop sections.
YamlMap top_level(const YAML::Node &root, const std::string &file_name);

/// Rejects a `version` whose value is none of `supported` ("version: 0.4 is not supported").
void check_version(const YamlMap &m, const std::vector<std::string> &supported);

/// Rejects keys of `m` not in `allowed`, as YamlMap::allow_only does for keys known at compile
/// time (dimension and coefficient names).
void allow_only_names(const YamlMap &m, const std::vector<std::string> &allowed);

/// A name and the node that spells it, for locations.
struct Named {
  std::string name;
  YAML::Node node;
};

/// The value of `key`, a list of strings (`keep: [A, B]`).
std::vector<Named> name_list(const YamlMap &m, std::string_view key);

/// Where character `offset` of the scalar `value` is (quoted scalars start one column later).
SourceLocation char_location(const YAML::Node &value, const std::string &file_name, int offset);

/// "A, B and C" (or "A" or "A and B"), for messages that list names.
std::string name_sequence(const std::vector<std::string> &names, std::string_view last_joint);

} // namespace dse::timeloop
