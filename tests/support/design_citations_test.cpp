// Citations of the design document point somewhere: every section number that a source, header,
// test, benchmark, fuzz target or script cites (`docs/DESIGN.md §N` or `§N.M`) is the number of a
// heading of docs/DESIGN.md, the document is always named by its path in the repository, and no
// citation of the old bare form (the word DESIGN followed by a number) is left.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace dse {
namespace {

namespace fs = std::filesystem;

const fs::path kRoot = DSE_SOURCE_DIR;
const fs::path kDesign = kRoot / "docs/DESIGN.md";

/// The section sign, U+00A7, in UTF-8 (spelled out so that this file cites nothing itself).
const std::string kSectionSign = "\xc2\xa7";

std::string read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> lines_of(const std::string &text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  return lines;
}

/// Section numbers of the document's headings: "## 4. The cost model" gives "4",
/// "### 4.2 Metrics" gives "4.2".
std::set<std::string> heading_numbers(const std::string &document) {
  static const std::regex heading(R"(^#{1,6}[ \t]+([0-9]+(\.[0-9]+)*)\.?[ \t])");
  std::set<std::string> out;
  for (const std::string &line : lines_of(document)) {
    std::smatch m;
    if (std::regex_search(line, m, heading))
      out.insert(m[1].str());
  }
  return out;
}

/// The text files the check reads: everything under src/, include/, tests/, bench/, fuzz/ and
/// scripts/, and README.md; not the fuzzing corpora and crash reproducers (inputs, not sources),
/// nor binary files (those holding a NUL byte, such as the figures of bench/).
struct ScannedFile {
  std::string name; // relative to the repository
  std::string text;
};

std::vector<ScannedFile> scanned_files() {
  std::vector<ScannedFile> out;
  auto add = [&](const fs::path &path) {
    std::string text = read_file(path);
    if (text.find('\0') == std::string::npos)
      out.push_back({fs::relative(path, kRoot).generic_string(), std::move(text)});
  };
  for (const char *dir : {"src", "include", "tests", "bench", "fuzz", "scripts"}) {
    if (!fs::is_directory(kRoot / dir))
      continue;
    for (auto it = fs::recursive_directory_iterator(kRoot / dir);
         it != fs::recursive_directory_iterator(); ++it) {
      const fs::path rel = fs::relative(it->path(), kRoot);
      if (it->is_directory() &&
          (rel == fs::path("fuzz/corpus") || rel == fs::path("fuzz/regressions"))) {
        it.disable_recursion_pending();
        continue;
      }
      if (it->is_regular_file())
        add(it->path());
    }
  }
  add(kRoot / "README.md");
  return out;
}

/// One section number found in a file, where it was found.
struct Reference {
  std::string where; // file:line
  std::string section;
};

/// Every section number written after a section sign in `text`.
std::vector<Reference> section_references(const std::string &name, const std::string &text) {
  static const std::regex reference(kSectionSign + R"([ \t]*([0-9]+(\.[0-9]+)*))");
  std::vector<Reference> out;
  const std::vector<std::string> lines = lines_of(text);
  for (size_t i = 0; i < lines.size(); ++i)
    for (std::sregex_iterator m(lines[i].begin(), lines[i].end(), reference), end; m != end; ++m)
      out.push_back({name + ":" + std::to_string(i + 1), (*m)[1].str()});
  return out;
}

/// file:line of every match of `pattern` in the scanned files.
std::vector<std::string> matches(const std::vector<ScannedFile> &files, const std::regex &pattern) {
  std::vector<std::string> out;
  for (const ScannedFile &f : files) {
    const std::vector<std::string> lines = lines_of(f.text);
    for (size_t i = 0; i < lines.size(); ++i)
      if (std::regex_search(lines[i], pattern))
        out.push_back(f.name + ":" + std::to_string(i + 1) + ": " + lines[i]);
  }
  return out;
}

std::string joined(const std::vector<std::string> &items) {
  std::string out;
  for (const std::string &s : items)
    out += "  " + s + "\n";
  return out;
}

TEST(DesignCitations, EveryCitedSectionIsAHeadingOfTheDocument) {
  ASSERT_TRUE(fs::is_regular_file(kDesign)) << kDesign << " is missing";
  const std::string document = read_file(kDesign);
  const std::set<std::string> sections = heading_numbers(document);
  ASSERT_FALSE(sections.empty()) << "no numbered headings in " << kDesign;

  const std::vector<ScannedFile> files = scanned_files();
  ASSERT_GT(files.size(), 100u) << "the scan found too few files under " << kRoot;
  std::vector<Reference> references;
  size_t citations = 0; // references written as docs/DESIGN.md followed by a section
  const std::regex citation("docs/DESIGN\\.md[ \t]*" + kSectionSign + "[ \t]*[0-9]");
  for (const ScannedFile &f : files) {
    const std::vector<Reference> found = section_references(f.name, f.text);
    references.insert(references.end(), found.begin(), found.end());
    citations += static_cast<size_t>(std::distance(
        std::sregex_iterator(f.text.begin(), f.text.end(), citation), std::sregex_iterator()));
  }
  // The document's own cross-references must resolve too.
  const std::vector<Reference> internal = section_references("docs/DESIGN.md", document);
  references.insert(references.end(), internal.begin(), internal.end());
  EXPECT_GT(citations, 10u) << "expected the sources to cite docs/DESIGN.md by section";

  std::vector<std::string> dangling;
  for (const Reference &r : references)
    if (!sections.count(r.section))
      dangling.push_back(r.where + ": section " + r.section);
  EXPECT_TRUE(dangling.empty()) << "sections cited but absent from docs/DESIGN.md:\n"
                                << joined(dangling);
}

TEST(DesignCitations, NoBareCitationIsLeft) {
  // The word DESIGN followed by a section number, with or without a section sign (a citation
  // that names the document by its file name has a dot after the word, and does not match).
  const std::regex bare("DESIGN[ \t]*(" + kSectionSign + ")?[ \t]*[0-9]");
  const std::vector<std::string> found = matches(scanned_files(), bare);
  EXPECT_TRUE(found.empty()) << "cite the design as docs/DESIGN.md followed by the section:\n"
                             << joined(found);
}

TEST(DesignCitations, TheDocumentIsNamedByItsPath) {
  const std::regex unqualified("(^|[^/])DESIGN\\.md");
  const std::vector<std::string> found = matches(scanned_files(), unqualified);
  EXPECT_TRUE(found.empty()) << "write docs/DESIGN.md, its path in the repository:\n"
                             << joined(found);
}

TEST(DesignCitations, SectionsAreFoundInHeadingsOnly) {
  const std::set<std::string> sections = heading_numbers("# dse: design\n"
                                                         "## 4. The cost model\n"
                                                         "### 4.2 Metrics\n"
                                                         "text 4.3 and 5.\n"
                                                         "#### 10.1.2 Deep\n");
  EXPECT_EQ(sections, (std::set<std::string>{"4", "4.2", "10.1.2"}));
  const std::vector<Reference> refs =
      section_references("f", "see docs/DESIGN.md " + kSectionSign + "4.2, " + kSectionSign +
                                  "7.\n" + kSectionSign + " 10 and 3");
  ASSERT_EQ(refs.size(), 3u);
  EXPECT_EQ(refs[0].section, "4.2");
  EXPECT_EQ(refs[1].section, "7");
  EXPECT_EQ(refs[2].section, "10");
  EXPECT_EQ(refs[2].where, "f:2");
}

} // namespace
} // namespace dse
