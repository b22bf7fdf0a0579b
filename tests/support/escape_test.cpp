// Escaping of names for CSV fields, terminals and YAML scalars.
#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "dse/support/csv.hpp"
#include "dse/support/escape.hpp"

namespace dse {
namespace {

const std::string kHostile = std::string("a\nb\tc\rd\x1b[31me\x7f") + '\0' + "f";

TEST(Escape, ControlBytesBecomeEscapes) {
  EXPECT_EQ(escape_control(kHostile), "a\\nb\\tc\\rd\\x1b[31me\\x7f\\x00f");
  EXPECT_EQ(escape_control("plain name-1.x \\ \"q\" \xc3\xa9"), "plain name-1.x \\ \"q\" \xc3\xa9");
}

TEST(Escape, TextKeepsItsLineFeeds) {
  EXPECT_EQ(escape_control_in_text("line 1\nline\x1b 2\n"), "line 1\nline\\x1b 2\n");
}

TEST(Escape, CsvFieldsStayOnOneLine) {
  EXPECT_EQ(csv_field("mm\nx"), "mm\\nx");
  EXPECT_EQ(csv_field("a,\"b\"\n"), "\"a,\"\"b\"\"\\n\"");
  EXPECT_EQ(csv_field("plain"), "plain");
}

TEST(Escape, YamlScalarsReadBackAsTheSameBytes) {
  for (const std::string &name :
       {kHostile, std::string("quote \" and backslash \\"), std::string("caf\xc3\xa9"),
        std::string("- not a list"), std::string("#not a comment")}) {
    const std::string yaml = "name: " + yaml_double_quoted(name) + "\n";
    EXPECT_EQ(yaml.find('\n'), yaml.size() - 1) << yaml;
    EXPECT_EQ(YAML::Load(yaml)["name"].as<std::string>(), name) << yaml;
  }
}

} // namespace
} // namespace dse
