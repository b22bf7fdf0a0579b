// The top level of the `dse` command: --version, bare `dse` and unknown subcommands.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

class TopLevel : public CliTest {};

TEST_F(TopLevel, VersionIsTheProjectVersion) {
  const RunResult r = run_ok({"--version"});
  EXPECT_EQ(r.out, std::string("dse ") + DSE_PROJECT_VERSION + "\n");
}

TEST_F(TopLevel, BareCommandPrintsHelp) {
  const RunResult r = run_ok({});
  EXPECT_EQ(r.out, run_ok({"--help"}).out);
  for (const char *name : {"explore", "eval", "sweep", "plot", "emit", "run", "network", "import"})
    EXPECT_NE(r.out.find(std::string("  ") + name + " "), std::string::npos) << name;
  EXPECT_NE(r.out.find("--version"), std::string::npos);
}

TEST_F(TopLevel, UnknownSubcommandSuggestsTheNearest) {
  expect_usage_error({"explor"}, "error: unknown command 'explor'; did you mean 'explore'?");
  expect_usage_error({"sweeep", "--hw", "x.yaml"},
                     "error: unknown command 'sweeep'; did you mean 'sweep'?");
  expect_usage_error({"evl"}, "error: unknown command 'evl'; did you mean 'eval'?");
}

TEST_F(TopLevel, UnknownSubcommandWithoutANearOneListsThem) {
  expect_usage_error({"frobnicate"}, "error: unknown command 'frobnicate'; expected explore, "
                                     "plot, eval, sweep, emit, run, network or import");
}

TEST_F(TopLevel, UnknownTopLevelOption) {
  const RunResult r = run({"--bogus"});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 1);
  EXPECT_EQ(r.err, "The following argument was not expected: --bogus\n"
                   "Run with --help for more information.\n");
  EXPECT_EQ(r.out, "");
}

} // namespace
} // namespace dse::testing
