// Strict, typed reading of YAML nodes: types, ranges, unknown and duplicate keys, all reported
// at the node's file:line:column.
#include "yaml_reader.hpp"

#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

namespace dse {

namespace {

bool is_plain_scalar(const YAML::Node &node) { return node.IsScalar() && node.Tag() == "?"; }

/// Digits with an optional sign, as YAML's core schema spells a decimal integer.
bool looks_like_integer(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

/// YAML's spellings of infinity and not-a-number, which from_chars does not know.
bool is_yaml_special_float(std::string_view s) {
  if (!s.empty() && (s[0] == '-' || s[0] == '+'))
    s.remove_prefix(1);
  for (std::string_view special : {".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN"})
    if (s == special)
      return true;
  return false;
}

std::optional<double> parse_double(std::string_view s) {
  if (s.size() > 1 && s[0] == '+')
    s.remove_prefix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec == std::errc::result_out_of_range)
    return HUGE_VAL; // reported as not finite
  if (ec != std::errc() || end != s.data() + s.size())
    return std::nullopt;
  return value;
}

std::string join(std::initializer_list<std::string_view> words) {
  std::string out;
  for (std::string_view w : words)
    out += (out.empty() ? "" : ", ") + std::string(w);
  return out;
}

[[noreturn]] void fail_too_large(const std::string &path, std::uint64_t max_bytes,
                                 const std::string &limit_hint) {
  throw UserError("cannot read file '" + path + "': it holds more than " +
                  std::to_string(max_bytes / kBytesPerMib) + " MiB, the input size limit" +
                  limit_hint);
}

} // namespace

std::string read_text_file(const std::string &path, std::uint64_t max_bytes,
                           const std::string &limit_hint) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw UserError("cannot read file '" + path + "': no such file or directory");
  if (std::filesystem::is_directory(path, ec))
    throw UserError("cannot read file '" + path + "': it is a directory");
  // Known before reading for a regular file; a device or pipe is measured while it is read.
  if (const std::uintmax_t size = std::filesystem::file_size(path, ec); !ec && size > max_bytes)
    fail_too_large(path, max_bytes, limit_hint);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw UserError("cannot read file '" + path + "': permission denied or unreadable");
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes) // a device or pipe, or a file that grew
      fail_too_large(path, max_bytes, limit_hint);
  }
  if (in.bad())
    throw UserError("cannot read file '" + path + "': read error");
  return text;
}

std::string read_yaml_file(const std::string &path, std::uint64_t max_input_mib) {
  return read_text_file(path, max_input_mib * kBytesPerMib, " (raise it with --max-input-mib)");
}

namespace {

/// Records where the root node of a document starts, building nothing.
class RootMark : public YAML::EventHandler {
public:
  std::optional<YAML::Mark> mark;

  void OnDocumentStart(const YAML::Mark &) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &m, YAML::anchor_t) override { first(m); }
  void OnAlias(const YAML::Mark &m, YAML::anchor_t) override { first(m); }
  void OnScalar(const YAML::Mark &m, const std::string &, YAML::anchor_t,
                const std::string &) override {
    first(m);
  }
  void OnSequenceStart(const YAML::Mark &m, const std::string &, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    first(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark &m, const std::string &, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    first(m);
  }
  void OnMapEnd() override {}

private:
  void first(const YAML::Mark &m) {
    if (!mark)
      mark = m;
  }
};

SourceLocation at_mark(const YAML::Mark &m, const std::string &file_name) {
  return SourceLocation{file_name, m.line + 1, m.column + 1};
}

/// Throws unless the stream holds at most one document. The documents are walked one by one
/// rather than with YAML::LoadAll, which loops forever allocating on a token the parser cannot
/// place (a stray ',' at the top level) in yaml-cpp 0.7: such a token starts every "document"
/// at the same place, and is reported as what it is.
void require_one_document(const std::string &text, const std::string &file_name) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  std::vector<YAML::Mark> roots;
  for (RootMark root; parser.HandleNextDocument(root); root = RootMark()) {
    const YAML::Mark m = root.mark.value_or(YAML::Mark::null_mark());
    if (!roots.empty() && m.pos == roots.back().pos) { // no progress: the parser is stuck
      const bool inside = m.pos >= 0 && static_cast<size_t>(m.pos) < text.size();
      throw UserError(at_mark(m, file_name),
                      inside ? std::string("invalid yaml: unexpected '") +
                                   text[static_cast<size_t>(m.pos)] + "'"
                             : std::string("invalid yaml: the parser cannot go on"));
    }
    roots.push_back(m);
  }
  if (roots.size() > 1)
    throw UserError(at_mark(roots[1], file_name),
                    "expected one yaml document, got " + std::to_string(roots.size()));
}

} // namespace

YAML::Node parse_yaml(const std::string &text, const std::string &file_name) {
  YAML::Node root;
  try {
    require_one_document(text, file_name);
    root = YAML::Load(text);
  } catch (const YAML::ParserException &e) {
    throw UserError(SourceLocation{file_name, e.mark.line + 1, e.mark.column + 1},
                    "invalid yaml: " + e.msg);
  }
  if (root.IsNull())
    throw UserError(SourceLocation{file_name, 0, 0}, "the file is empty");
  return root;
}

SourceLocation location_of(const YAML::Node &node, const std::string &file_name) {
  const YAML::Mark mark = node.Mark();
  if (mark.is_null() || mark.line < 0)
    return SourceLocation{file_name, 0, 0};
  return SourceLocation{file_name, mark.line + 1, mark.column + 1};
}

SourceLocation shifted(SourceLocation at, int columns) {
  if (at.column > 0)
    at.column += columns;
  return at;
}

std::string describe(const YAML::Node &node) {
  switch (node.Type()) {
  case YAML::NodeType::Undefined:
    return "nothing";
  case YAML::NodeType::Null:
    return "null";
  case YAML::NodeType::Scalar:
    return is_plain_scalar(node) ? "'" + node.Scalar() + "'" : "\"" + node.Scalar() + "\"";
  case YAML::NodeType::Sequence:
    return "a list";
  case YAML::NodeType::Map:
    return "a map";
  }
  return "an unknown node";
}

YamlMap::YamlMap(const YAML::Node &node, std::string file_name, std::string context)
    : node_(node), file_name_(std::move(file_name)), context_(std::move(context)) {
  if (!node_.IsMap())
    fail(node_, "expected a map of keys, got " + describe(node_));
  for (const auto &kv : node_) {
    if (!kv.first.IsScalar())
      fail(kv.first, "keys must be plain names, got " + describe(kv.first));
    if (find_key(kv.first.Scalar()))
      fail(kv.first, "duplicate key '" + kv.first.Scalar() + "'");
    entries_.emplace_back(kv.first, kv.second);
  }
}

const YAML::Node *YamlMap::find_key(std::string_view key) const {
  for (const auto &[k, v] : entries_)
    if (k.Scalar() == key)
      return &k;
  return nullptr;
}

const YAML::Node *YamlMap::find(std::string_view key) const {
  for (const auto &[k, v] : entries_)
    if (k.Scalar() == key)
      return &v;
  return nullptr;
}

void YamlMap::allow_only(std::initializer_list<std::string_view> allowed) const {
  for (const auto &[k, v] : entries_) {
    if (std::find(allowed.begin(), allowed.end(), k.Scalar()) != allowed.end())
      continue;
    const std::string where = context_.empty() ? " at the top level" : " in " + context_;
    fail_plain(k, "unknown key '" + k.Scalar() + "'" + where +
                      " (expected one of: " + join(allowed) + ")");
  }
}

bool YamlMap::has(std::string_view key) const { return find(key) != nullptr; }

const YAML::Node &YamlMap::required(std::string_view key) const {
  const YAML::Node *value = find(key);
  if (!value)
    fail(node_, "missing required key '" + std::string(key) + "'");
  return *value;
}

const YAML::Node &YamlMap::key_node(std::string_view key) const {
  const YAML::Node *k = find_key(key);
  if (!k)
    fail(node_, "missing required key '" + std::string(key) + "'");
  return *k;
}

std::string YamlMap::string_value(const YAML::Node &value, std::string_view key) const {
  if (!value.IsScalar())
    fail(value, "key '" + std::string(key) + "' must be a string, got " + describe(value));
  return value.Scalar();
}

std::int64_t YamlMap::integer_value(const YAML::Node &value, std::string_view key, std::int64_t min,
                                    std::int64_t max) const {
  const std::string name(key);
  if (!is_plain_scalar(value) || !looks_like_integer(value.Scalar()))
    fail(value, "key '" + name + "' must be an integer, got " + describe(value));
  const std::string &text = value.Scalar();
  const char *begin = text.data() + (text[0] == '+' ? 1 : 0);
  std::int64_t v = 0;
  auto [end, ec] = std::from_chars(begin, text.data() + text.size(), v);
  const bool negative = text[0] == '-';
  if ((ec == std::errc() && v < min) || (ec != std::errc() && negative)) {
    const std::string expected = min == 1   ? "a positive integer"
                                 : min == 0 ? "non-negative"
                                            : "at least " + std::to_string(min);
    fail(value, name + " must be " + expected + ", got " + text);
  }
  if (ec != std::errc() || v > max)
    fail(value, name + " must be at most " + std::to_string(max) + ", got " + text);
  return v;
}

double YamlMap::number_value(const YAML::Node &value, std::string_view key, Bound bound) const {
  const std::string name(key);
  if (!is_plain_scalar(value))
    fail(value, "key '" + name + "' must be a number, got " + describe(value));
  const std::string &text = value.Scalar();
  const std::optional<double> v =
      is_yaml_special_float(text) ? std::optional<double>(NAN) : parse_double(text);
  if (!v)
    fail(value, "key '" + name + "' must be a number, got " + describe(value));
  if (!std::isfinite(*v))
    fail(value, name + " must be a finite number, got " + text);
  if (bound == Bound::Positive && !(*v > 0))
    fail(value, name + " must be a positive number, got " + text);
  if (bound == Bound::NonNegative && *v < 0)
    fail(value, name + " must be non-negative, got " + text);
  return *v;
}

std::string YamlMap::string(std::string_view key) const { return string_value(required(key), key); }

std::string YamlMap::name(std::string_view key) const {
  std::string value = string(key);
  if (value.empty())
    fail(required(key), "key '" + std::string(key) + "' must not be empty");
  return value;
}

std::optional<std::string> YamlMap::optional_string(std::string_view key) const {
  if (!has(key))
    return std::nullopt;
  return string(key);
}

std::int64_t YamlMap::integer(std::string_view key, std::int64_t min, std::int64_t max) const {
  return integer_value(required(key), key, min, max);
}

std::int64_t YamlMap::integer_or(std::string_view key, std::int64_t fallback, std::int64_t min,
                                 std::int64_t max) const {
  return has(key) ? integer(key, min, max) : fallback;
}

double YamlMap::number(std::string_view key, Bound bound) const {
  return number_value(required(key), key, bound);
}

double YamlMap::number_or(std::string_view key, double fallback, Bound bound) const {
  return has(key) ? number(key, bound) : fallback;
}

bool YamlMap::boolean_or(std::string_view key, bool fallback) const {
  if (!has(key))
    return fallback;
  const YAML::Node &value = required(key);
  const std::string text = is_plain_scalar(value) ? value.Scalar() : "";
  if (text == "true" || text == "True" || text == "TRUE")
    return true;
  if (text == "false" || text == "False" || text == "FALSE")
    return false;
  fail(value, "key '" + std::string(key) + "' must be true or false, got " + describe(value));
}

YamlMap YamlMap::map(std::string_view key, std::string context) const {
  const YAML::Node &value = required(key);
  if (!value.IsMap())
    fail(value, "key '" + std::string(key) + "' must be a map, got " + describe(value));
  return YamlMap(value, file_name_, std::move(context));
}

const YAML::Node &YamlMap::list(std::string_view key) const {
  const YAML::Node &value = required(key);
  if (!value.IsSequence())
    fail(value, "key '" + std::string(key) + "' must be a list, got " + describe(value));
  return value;
}

void YamlMap::fail(const YAML::Node &at, const std::string &message) const {
  fail_plain(at, context_.empty() ? message : context_ + ": " + message);
}

void YamlMap::fail_plain(const YAML::Node &at, const std::string &message) const {
  throw UserError(location_of(at, file_name_), message);
}

} // namespace dse
