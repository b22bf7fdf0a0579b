// Strict, typed reading of YAML nodes for the config loaders: every problem becomes a UserError
// at the offending node's file:line:column. Internal to src/config (the only yaml-cpp user).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "dse/ir/limits.hpp"
#include "dse/support/error.hpp"

namespace dse {

/// The whole text of the file at `path`; a UserError naming the path if it cannot be read or
/// holds more than `max_bytes` (checked before reading a regular file, and while reading a
/// device or pipe). `limit_hint` says in the message how the limit is raised, if it can be.
std::string read_text_file(const std::string &path, std::uint64_t max_bytes,
                           const std::string &limit_hint);

/// read_text_file for a YAML input limited to `max_input_mib` MiB (`--max-input-mib`).
std::string read_yaml_file(const std::string &path, std::uint64_t max_input_mib);

/// Parses `text` as one YAML document; syntax errors become UserErrors in `file_name`.
YAML::Node parse_yaml(const std::string &text, const std::string &file_name);

/// Location of `node` (1-based line and column) in `file_name`.
SourceLocation location_of(const YAML::Node &node, const std::string &file_name);

/// `at` moved right by `columns` (a position inside a scalar); unknown columns stay unknown.
SourceLocation shifted(SourceLocation at, int columns);

/// How a scalar or other node reads in an error message: `'abc'`, `"32"` (quoted), `a list`...
std::string describe(const YAML::Node &node);

/// Lower bounds for floating-point values (all values must also be finite).
enum class Bound { Positive, NonNegative };

/// A YAML map read strictly. `context` names it in messages ("level 'DRAM'"; empty at the top
/// level). Duplicate keys are rejected on construction.
class YamlMap {
public:
  YamlMap(const YAML::Node &node, std::string file_name, std::string context);

  /// Rejects any key not in `allowed`, naming the expected keys.
  void allow_only(std::initializer_list<std::string_view> allowed) const;

  bool has(std::string_view key) const;
  /// The value of `key`; a "missing required key" error at the map if absent.
  const YAML::Node &required(std::string_view key) const;
  /// The key node of `key` (for locations); `key` must be present.
  const YAML::Node &key_node(std::string_view key) const;
  /// All (key, value) pairs in file order, for maps whose keys are names (such as `dims`).
  const std::vector<std::pair<YAML::Node, YAML::Node>> &entries() const { return entries_; }

  std::string string(std::string_view key) const;
  /// A required string that must not be empty (names).
  std::string name(std::string_view key) const;
  std::optional<std::string> optional_string(std::string_view key) const;
  std::int64_t integer(std::string_view key, std::int64_t min, std::int64_t max) const;
  std::int64_t integer_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                          std::int64_t max) const;
  double number(std::string_view key, Bound bound) const;
  double number_or(std::string_view key, double fallback, Bound bound) const;
  bool boolean_or(std::string_view key, bool fallback) const;
  /// The value of `key` as a nested map with its own context.
  YamlMap map(std::string_view key, std::string context) const;
  /// The value of `key`, which must be a list.
  const YAML::Node &list(std::string_view key) const;

  /// Reads `value` (found under `key`) as an integer in [min, max].
  std::int64_t integer_value(const YAML::Node &value, std::string_view key, std::int64_t min,
                             std::int64_t max) const;
  /// Reads `value` (found under `key`) as a finite number respecting `bound`.
  double number_value(const YAML::Node &value, std::string_view key, Bound bound) const;
  /// Reads `value` (found under `key`) as a string scalar.
  std::string string_value(const YAML::Node &value, std::string_view key) const;

  /// Throws a UserError at `at`, the message prefixed with this map's context.
  [[noreturn]] void fail(const YAML::Node &at, const std::string &message) const;
  /// Throws a UserError at `at` with the message as given (no context prefix).
  [[noreturn]] void fail_plain(const YAML::Node &at, const std::string &message) const;

  const YAML::Node &node() const { return node_; }
  const std::string &file_name() const { return file_name_; }
  const std::string &context() const { return context_; }
  SourceLocation where() const { return location_of(node_, file_name_); }

private:
  const YAML::Node *find(std::string_view key) const;
  const YAML::Node *find_key(std::string_view key) const;

  YAML::Node node_;
  std::string file_name_;
  std::string context_;
  std::vector<std::pair<YAML::Node, YAML::Node>> entries_;
};

} // namespace dse
