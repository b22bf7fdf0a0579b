// Nearest-name suggestions for mistyped subcommands.
#include "dse/cli/command_suggestion.hpp"

#include <gtest/gtest.h>

namespace dse {
namespace {

const std::vector<std::string> kNames = {"explore", "plot", "eval", "sweep", "emit", "run"};

TEST(NearestName, OneEditAway) {
  EXPECT_EQ(nearest_name("explor", kNames), "explore");
  EXPECT_EQ(nearest_name("rnu", kNames), "run"); // a transposition is two edits
  EXPECT_EQ(nearest_name("Sweep", kNames), "sweep");
}

TEST(NearestName, TiesGoToTheFirst) {
  EXPECT_EQ(nearest_name("emix", {"emit", "emil"}), "emit");
  EXPECT_EQ(nearest_name("emix", {"emil", "emit"}), "emil");
}

TEST(NearestName, NothingNear) {
  EXPECT_EQ(nearest_name("frobnicate", kNames), std::nullopt);
  EXPECT_EQ(nearest_name("", kNames), std::nullopt);
  EXPECT_EQ(nearest_name("xy", kNames), std::nullopt); // two edits would rewrite it entirely
}

TEST(UnknownCommandMessage, SuggestsOrLists) {
  EXPECT_EQ(unknown_command_message("plto", kNames),
            "error: unknown command 'plto'; did you mean 'plot'?");
  EXPECT_EQ(unknown_command_message("zzz", {"explore", "eval", "sweep"}),
            "error: unknown command 'zzz'; expected explore, eval or sweep");
}

} // namespace
} // namespace dse
