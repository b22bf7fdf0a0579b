// Indentation, joining and quoting helpers for the emitters.
#include "code_writer.hpp"

#include <cctype>
#include <type_traits>

namespace dse::codegen {

CodeWriter &CodeWriter::line(const std::string &text) {
  out_ << std::string(static_cast<size_t>(2 * depth_), ' ');
  for (char c : text)
    out_ << (std::iscntrl(static_cast<unsigned char>(c)) ? ' ' : c);
  out_ << "\n";
  return *this;
}

CodeWriter &CodeWriter::blank() {
  out_ << "\n";
  return *this;
}

CodeWriter &CodeWriter::open(const std::string &head) {
  line(head + " {");
  ++depth_;
  return *this;
}

CodeWriter &CodeWriter::close(const std::string &tail) {
  --depth_;
  return line(tail);
}

CodeWriter &CodeWriter::raw(const std::string &text) {
  out_ << text;
  return *this;
}

std::string sum_of(const std::vector<std::string> &terms) {
  std::string out;
  for (const std::string &t : terms)
    if (!t.empty())
      out += (out.empty() ? "" : " + ") + t;
  return out.empty() ? "0" : out;
}

namespace {

template <class T> std::string braced_list(const std::vector<T> &items) {
  std::string out = "{";
  for (size_t i = 0; i < items.size(); ++i) {
    if constexpr (std::is_same_v<T, std::string>)
      out += (i ? ", " : "") + items[i];
    else
      out += (i ? ", " : "") + std::to_string(items[i]);
  }
  return out + "}";
}

} // namespace

std::string braced(const std::vector<std::string> &items) { return braced_list(items); }
std::string braced(const std::vector<std::int64_t> &items) { return braced_list(items); }
std::string braced(const std::vector<int> &items) { return braced_list(items); }

std::string ident(const std::string &name) {
  std::string out;
  for (char c : name)
    out += (std::isalnum(static_cast<unsigned char>(c)) || c == '_') ? c : '_';
  return out;
}

} // namespace dse::codegen
