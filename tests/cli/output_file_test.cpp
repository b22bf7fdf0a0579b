// Output files, sets and directories (src/cli/output_file.cpp): links followed, pipes written in
// place, sets rolled back when a late rename fails, stale files removed, directories swapped whole.
#include "dse/cli/output_file.hpp"

#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

#include "cli/cli_fixture.hpp"
#include "common/user_error.hpp"
#include "dse/support/error.hpp"

namespace dse::testing {
namespace {

namespace fs = std::filesystem;
using test_common::error_of;

class OutputFile : public CliTest {
protected:
  std::string path(const std::string &name) const { return (dir_ / name).string(); }
};

TEST_F(OutputFile, CreatesAFileAndLeavesNothingElse) {
  write_output(path("front.csv"), "new\n");
  EXPECT_EQ(read("front.csv"), "new\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"front.csv"});
}

TEST_F(OutputFile, FollowsAChainOfLinksToATargetThatDoesNotExistYet) {
  fs::create_directory(dir_ / "real");
  fs::create_symlink("second", dir_ / "first");
  fs::create_symlink("real/front.csv", dir_ / "second");
  write_output(path("first"), "new\n");
  EXPECT_TRUE(fs::is_symlink(dir_ / "first"));
  EXPECT_TRUE(fs::is_symlink(dir_ / "second"));
  EXPECT_EQ(read("real/front.csv"), "new\n");
  EXPECT_EQ(listing(), (std::vector<std::string>{"first", "real", "second"}));
}

TEST_F(OutputFile, LinkLoopIsAnError) {
  fs::create_symlink("b", dir_ / "a");
  fs::create_symlink("a", dir_ / "b");
  EXPECT_EQ(error_of([&] { write_output(path("a"), "new\n"); }),
            "error: cannot write output file '" + path("a") +
                "': Too many levels of symbolic links");
}

TEST_F(OutputFile, WritesIntoAPipeInPlace) {
  ASSERT_EQ(::mkfifo(path("pipe").c_str(), 0600), 0);
  std::string got;
  std::thread reader([&] {
    std::ifstream in(path("pipe"), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    got = text.str();
  });
  const std::string error = error_of([&] { write_output(path("pipe"), "through the pipe\n"); });
  // Should the write have failed before opening the pipe, this lets the reader finish.
  if (const int fd = ::open(path("pipe").c_str(), O_WRONLY | O_NONBLOCK); fd >= 0)
    ::close(fd);
  reader.join();
  EXPECT_EQ(error, "");
  EXPECT_EQ(got, "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe"));
}

TEST_F(OutputFile, SetPutsEveryFileBackWhenALateRenameFails) {
  write("a.csv", "old a\n");
  write("stale.csv", "old stale\n");
  {
    OutputSet set;
    set.stage(path("a.csv"), "new a\n");
    set.stage_removal(path("stale.csv"));
    set.stage(path("b.csv"), "new b\n");
    // b.csv becomes a directory after staging, so only its rename at commit fails.
    fs::create_directories(dir_ / "b.csv" / "inside");
    EXPECT_EQ(error_of([&] { set.commit(); }),
              "error: cannot write output file '" + path("b.csv") + "': Is a directory");
  }
  EXPECT_EQ(read("a.csv"), "old a\n");
  EXPECT_EQ(read("stale.csv"), "old stale\n");
  EXPECT_EQ(listing(), (std::vector<std::string>{"a.csv", "b.csv", "stale.csv"}));
}

TEST_F(OutputFile, SetReplacesAndRemovesTogether) {
  write("a.csv", "old a\n");
  write("stale.csv", "old stale\n");
  OutputSet set;
  set.stage(path("a.csv"), "new a\n");
  set.stage(path("b.csv"), "new b\n");
  set.stage_removal(path("stale.csv"));
  set.stage_removal(path("absent.csv"));
  set.commit();
  EXPECT_EQ(read("a.csv"), "new a\n");
  EXPECT_EQ(read("b.csv"), "new b\n");
  EXPECT_EQ(listing(), (std::vector<std::string>{"a.csv", "b.csv"}));
}

TEST_F(OutputFile, UncommittedSetChangesNothing) {
  write("a.csv", "old a\n");
  {
    OutputSet set;
    set.stage(path("a.csv"), "new a\n");
    set.stage(path("b.csv"), "new b\n");
  }
  EXPECT_EQ(read("a.csv"), "old a\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"a.csv"});
}

TEST_F(OutputFile, DirectoryIsReplacedWholeKeepingItsPermissions) {
  fs::create_directory(dir_ / "rep");
  fs::permissions(dir_ / "rep", fs::perms(0750));
  write("rep/stale.csv", "old\n");
  OutputDirectory report(path("rep/"));
  report.write("summary.txt", "new\n");
  EXPECT_EQ(read("rep/stale.csv"), "old\n") << "replaced before commit";
  report.commit();
  EXPECT_EQ(read("rep/summary.txt"), "new\n");
  EXPECT_FALSE(exists("rep/stale.csv"));
  EXPECT_EQ(fs::status(dir_ / "rep").permissions(), fs::perms(0750));
  EXPECT_EQ(listing(), std::vector<std::string>{"rep"});
}

TEST_F(OutputFile, DirectoryBehindALinkIsReplacedAndTheLinkStays) {
  fs::create_directory(dir_ / "real");
  write("real/stale.csv", "old\n");
  fs::create_symlink("real", dir_ / "rep");
  OutputDirectory report(path("rep"));
  report.write("summary.txt", "new\n");
  report.commit();
  EXPECT_TRUE(fs::is_symlink(dir_ / "rep"));
  EXPECT_EQ(read("real/summary.txt"), "new\n");
  EXPECT_FALSE(exists("real/stale.csv"));
  EXPECT_EQ(listing(), (std::vector<std::string>{"real", "rep"}));
}

TEST_F(OutputFile, UncommittedDirectoryLeavesThePreviousOne) {
  fs::create_directory(dir_ / "rep");
  write("rep/summary.txt", "old\n");
  {
    OutputDirectory report(path("rep"));
    report.write("summary.txt", "new\n");
  }
  EXPECT_EQ(read("rep/summary.txt"), "old\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"rep"});
}

TEST_F(OutputFile, DirectoryCreatesItsParents) {
  OutputDirectory report(path("runs/today/rep"));
  report.write("summary.txt", "new\n");
  report.commit();
  EXPECT_EQ(read("runs/today/rep/summary.txt"), "new\n");
}

TEST_F(OutputFile, DirectoryWhereAFileIsIsAnError) {
  write("rep", "a file\n");
  EXPECT_EQ(error_of([&] { OutputDirectory report(path("rep")); }),
            "error: cannot write output directory '" + path("rep") + "': Not a directory");
  EXPECT_EQ(read("rep"), "a file\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"rep"});
}

} // namespace
} // namespace dse::testing
