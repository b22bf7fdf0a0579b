// Seeded random mutations of a valid input file (YAML text or ONNX bytes) for the loader fuzz
// tests: characters and lines deleted, duplicated, swapped or inserted, numbers replaced by
// out-of-range or ill-typed values, keys renamed, the text truncated.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace dse::test_common {

class TextMutator {
public:
  explicit TextMutator(std::uint32_t seed) : rng_(seed) {}

  /// One to three mutations of `text`, each picked at random.
  std::string mutate(const std::string &text) {
    std::string out = text;
    const int count = pick(1, 3);
    for (int i = 0; i < count && !out.empty(); ++i)
      out = mutate_once(out);
    return out;
  }

  /// A few bytes of a binary file changed or the file cut short.
  std::string mutate_bytes(const std::string &bytes) {
    std::string out = bytes;
    if (out.empty() || pick(0, 3) == 0)
      return out.substr(0, static_cast<size_t>(pick(0, static_cast<int>(out.size()))));
    const int count = pick(1, 8);
    for (int i = 0; i < count; ++i)
      out[position(out)] = static_cast<char>(pick(0, 255));
    return out;
  }

private:
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  size_t position(const std::string &s) { return static_cast<size_t>(pick(0, int(s.size()) - 1)); }

  static std::vector<std::string> lines_of(const std::string &text) {
    std::vector<std::string> lines;
    size_t start = 0;
    for (size_t end; (end = text.find('\n', start)) != std::string::npos; start = end + 1)
      lines.push_back(text.substr(start, end - start));
    if (start < text.size())
      lines.push_back(text.substr(start));
    return lines;
  }
  static std::string join(const std::vector<std::string> &lines) {
    std::string out;
    for (const std::string &l : lines)
      out += l + "\n";
    return out;
  }

  /// The span of the n-th run of characters that `part_of` accepts, if any.
  template <class Pred>
  bool nth_run(const std::string &s, Pred part_of, size_t &from, size_t &len) {
    std::vector<std::pair<size_t, size_t>> runs;
    for (size_t i = 0; i < s.size();) {
      if (!part_of(s[i])) {
        ++i;
        continue;
      }
      size_t j = i;
      while (j < s.size() && part_of(s[j]))
        ++j;
      runs.emplace_back(i, j - i);
      i = j;
    }
    if (runs.empty())
      return false;
    const auto &r = runs[static_cast<size_t>(pick(0, static_cast<int>(runs.size()) - 1))];
    from = r.first;
    len = r.second;
    return true;
  }

  std::string mutate_once(const std::string &text) {
    static const std::vector<std::string> kValues = {
        "0",        "-1",     "1e308", "-1e308",     "1e-308",
        ".nan",     ".inf",   "-.inf", "4294967297", "99999999999999999999999",
        "abc",      "[]",     "{}",    "~",          "\"\"",
        "[1, [2]]", "{a: 1}", "0.5"};
    static const std::string kChars = "{}[],:-\"'#&*!|>%@` \t\n0123456789.e+";
    std::string s = text;
    std::vector<std::string> lines = lines_of(s);
    size_t from = 0, len = 0;
    switch (pick(0, 8)) {
    case 0: // delete a character
      s.erase(position(s), 1);
      return s;
    case 1: // insert a syntax character
      s.insert(position(s), 1, kChars[static_cast<size_t>(pick(0, int(kChars.size()) - 1))]);
      return s;
    case 2: // a number becomes another value
      if (nth_run(
              s, [](char c) { return (c >= '0' && c <= '9') || c == '.'; }, from, len))
        s.replace(from, len, kValues[static_cast<size_t>(pick(0, int(kValues.size()) - 1))]);
      return s;
    case 3: // a word (key, name or value) becomes another
      if (nth_run(
              s, [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; }, from, len))
        s.replace(from, len, pick(0, 1) ? "bogus_key" : kValues[static_cast<size_t>(pick(0, 17))]);
      return s;
    case 4: { // duplicate a line
      const size_t l = static_cast<size_t>(pick(0, int(lines.size()) - 1));
      lines.insert(lines.begin() + static_cast<std::ptrdiff_t>(l), lines[l]);
      return join(lines);
    }
    case 5: // delete a line
      lines.erase(lines.begin() + pick(0, int(lines.size()) - 1));
      return join(lines);
    case 6: // swap two lines
      std::swap(lines[static_cast<size_t>(pick(0, int(lines.size()) - 1))],
                lines[static_cast<size_t>(pick(0, int(lines.size()) - 1))]);
      return join(lines);
    case 7: // truncate
      return s.substr(0, position(s));
    default: // a line's indentation changes
      lines[static_cast<size_t>(pick(0, int(lines.size()) - 1))].insert(0, pick(0, 1) ? "  " : " ");
      return join(lines);
    }
  }

  std::mt19937 rng_;
};

} // namespace dse::test_common
