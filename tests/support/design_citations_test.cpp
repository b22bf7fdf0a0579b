// Citations of the design documents point somewhere: every section number that a source, header,
// test, benchmark, fuzz target or script cites (`docs/DESIGN.md §N` or `§N.M`; a bare `§N` cites
// the document named last before it in the file, docs/DESIGN.md or docs/HIERARCHY.md) is the
// number of a heading of that document, docs/DESIGN.md is always named by its path in the
// repository, and no citation of the old bare form (the word DESIGN followed by a number) is left.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
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

/// One section number found in a file, where it was found and which document it cites.
struct Reference {
  std::string where; // file:line
  std::string section;
  std::string document; // docs/DESIGN.md or docs/HIERARCHY.md
};

/// Every section number written after a section sign in `text`. A number right after a
/// document's name (`docs/HIERARCHY.md §4`, or inside the documents the name without its folder)
/// cites that document; any other cites `self` in a design document, and in other files the
/// document named last before it (docs/DESIGN.md when none is).
std::vector<Reference> section_references(const std::string &name, const std::string &text,
                                          const std::string &self = "") {
  static const std::string number = "[ \t]*([0-9]+(\\.[0-9]+)*)";
  static const std::regex token("(docs/)?(DESIGN|HIERARCHY)\\.md`?[ \t]*(" + kSectionSign + number +
                                ")?|" + kSectionSign + number);
  std::string last_named = "docs/DESIGN.md";
  std::vector<Reference> out;
  const std::vector<std::string> lines = lines_of(text);
  for (size_t i = 0; i < lines.size(); ++i)
    for (std::sregex_iterator m(lines[i].begin(), lines[i].end(), token), end; m != end; ++m) {
      const std::string where = name + ":" + std::to_string(i + 1);
      if ((*m)[2].matched) {
        last_named = "docs/" + (*m)[2].str() + ".md";
        if ((*m)[3].matched)
          out.push_back({where, (*m)[4].str(), last_named});
        continue;
      }
      out.push_back({where, (*m)[6].str(), !self.empty() ? self : last_named});
    }
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
  std::map<std::string, std::set<std::string>> sections;
  std::vector<Reference> references;
  for (const char *name : {"docs/DESIGN.md", "docs/HIERARCHY.md"}) {
    ASSERT_TRUE(fs::is_regular_file(kRoot / name)) << name << " is missing";
    const std::string document = read_file(kRoot / name);
    sections[name] = heading_numbers(document);
    ASSERT_FALSE(sections[name].empty()) << "no numbered headings in " << name;
    // The documents' own cross-references must resolve too.
    const std::vector<Reference> internal = section_references(name, document, name);
    references.insert(references.end(), internal.begin(), internal.end());
  }

  const std::vector<ScannedFile> files = scanned_files();
  ASSERT_GT(files.size(), 100u) << "the scan found too few files under " << kRoot;
  size_t citations = 0; // references written as docs/DESIGN.md followed by a section
  const std::regex citation("docs/DESIGN\\.md[ \t]*" + kSectionSign + "[ \t]*[0-9]");
  for (const ScannedFile &f : files) {
    const std::vector<Reference> found = section_references(f.name, f.text);
    references.insert(references.end(), found.begin(), found.end());
    citations += static_cast<size_t>(std::distance(
        std::sregex_iterator(f.text.begin(), f.text.end(), citation), std::sregex_iterator()));
  }
  EXPECT_GT(citations, 10u) << "expected the sources to cite docs/DESIGN.md by section";

  std::vector<std::string> dangling;
  for (const Reference &r : references)
    if (!sections[r.document].count(r.section))
      dangling.push_back(r.where + ": section " + r.section + " of " + r.document);
  EXPECT_TRUE(dangling.empty()) << "sections cited but absent from their document:\n"
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
