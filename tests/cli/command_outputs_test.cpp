// The output files of `dse` commands end to end: pipes, devices and symbolic links written
// through, permissions kept, write errors (standard output included) failing the run, and sweep
// files and network report directories replaced whole or not at all, with no stale file left.
#include <map>
#include <unistd.h>

#include "cli/cli_fixture.hpp"
#include "dse/codegen/kernel_runner.hpp"

namespace dse::testing {
namespace {

namespace fs = std::filesystem;

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kGemm = repo_file("workloads/gemm-small-64.yaml");
const std::string kDsp = repo_file("hw_configs/vector-dsp-4core-8m.yaml");
const std::string kTinyCnn = repo_file("networks/tiny-cnn.yaml");

class CommandOutputs : public CliTest {
protected:
  static std::vector<std::string> explore(const std::vector<std::string> &extra = {}) {
    return concat({"explore", "--hw", kHw, "--workload", kGemm, "--threads", "2"}, extra);
  }
  static std::vector<std::string> sweep(const std::vector<std::string> &extra) {
    return concat({"sweep", "--hw", kHw, "--workload", kGemm, "--threads", "2", "--set",
                   "GlobalBuffer.capacity_kib=8,16", "-o", "s.csv"},
                  extra);
  }
  static std::vector<std::string> network(const std::vector<std::string> &extra) {
    return concat({"network", "--hw", kDsp, "--model", kTinyCnn, "--threads", "2", "-o", "rep"},
                  extra);
  }

  /// Runs `sh -c script` in the working directory, with $DSE naming the binary.
  ProcessResult run_script(const std::string &script) const {
    return run_captured("cd " + shell_quote(dir_.string()) + " && DSE=" + shell_quote(DSE_BINARY) +
                            " sh -c " + shell_quote(script),
                        base_);
  }

  /// The front that `dse explore` prints on standard output.
  std::string front() const { return run_ok(explore()).out; }

  /// Every file of directory `name` with its contents.
  std::map<std::string, std::string> contents(const std::string &name) const {
    std::map<std::string, std::string> files;
    for (const auto &entry : fs::directory_iterator(dir_ / name))
      files[entry.path().filename().string()] = read(name + "/" + entry.path().filename().string());
    return files;
  }
};

TEST_F(CommandOutputs, WritesIntoAPipeInPlace) {
  // The script opens the pipe for writing (fd 3) once cat has opened it for reading (the open
  // waits for a reader), so that cat reads whatever dse writes however soon dse ends, and holds
  // it until dse has ended, so that cat ends however dse ends.
  const ProcessResult r = run_script("mkfifo pipe && { cat pipe >got & } && exec 3>pipe && "
                                     "\"$DSE\" explore --hw " +
                                     shell_quote(kHw) + " --workload " + shell_quote(kGemm) +
                                     " -o pipe; status=$?; exec 3>&-; wait; exit $status");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_TRUE(fs::is_fifo(dir_ / "pipe")) << "the pipe was replaced";
  EXPECT_EQ(read("got"), front());
  EXPECT_EQ(listing(), (std::vector<std::string>{"got", "pipe"}));
}

TEST_F(CommandOutputs, FollowsASymbolicLinkToItsTarget) {
  fs::create_directory(dir_ / "results");
  write("results/front.csv", "previous\n");
  fs::create_symlink("results/front.csv", dir_ / "latest.csv");
  run_ok(explore({"-o", "latest.csv"}));
  EXPECT_TRUE(fs::is_symlink(dir_ / "latest.csv")) << "the link was replaced";
  EXPECT_EQ(read("results/front.csv"), front());
  EXPECT_EQ(listing(), (std::vector<std::string>{"latest.csv", "results"}));
  EXPECT_EQ(contents("results").size(), 1u) << "a temporary file was left beside the target";
}

TEST_F(CommandOutputs, KeepsThePermissionsOfTheFileItReplaces) {
  write("front.csv", "previous\n");
  fs::permissions(dir_ / "front.csv", fs::perms(0640));
  run_ok(explore({"-o", "front.csv"}));
  EXPECT_EQ(fs::status(dir_ / "front.csv").permissions(), fs::perms(0640));
  EXPECT_EQ(read("front.csv"), front());
}

TEST_F(CommandOutputs, FullDeviceAsOutputFailsAndStaysADevice) {
  const RunResult r = run(explore({"-o", "/dev/full"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output file '/dev/full': No space left on device\n");
  EXPECT_TRUE(fs::is_character_file("/dev/full"));
  EXPECT_TRUE(listing().empty());
}

TEST_F(CommandOutputs, FullStandardOutputFailsTheRun) {
  // explore writes its front through the checked writer; sweep prints its answer with a plain
  // stream, which the final flush in main checks.
  for (const std::string &command :
       {"\"$DSE\" explore --hw " + shell_quote(kHw) + " --workload " + shell_quote(kGemm) +
            " >/dev/full",
        "\"$DSE\" sweep --hw " + shell_quote(kHw) + " --workload " + shell_quote(kGemm) +
            " --set GlobalBuffer.capacity_kib=8,16 --buffer-curve --within 5% -o s.csv "
            ">/dev/full"}) {
    const ProcessResult r = run_script("exec " + command);
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "error: cannot write standard output: No space left on device\n") << command;
  }
}

TEST_F(CommandOutputs, OutputBelowARegularFileFailsCleanly) {
  write("notes.txt", "not a directory\n");
  const RunResult r = run(explore({"-o", "notes.txt/front.csv"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output file 'notes.txt/front.csv': Not a directory\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"notes.txt"});
  EXPECT_EQ(read("notes.txt"), "not a directory\n");
}

TEST_F(CommandOutputs, ReadOnlyDirectoryGetsNoPartialOutput) {
  if (::geteuid() == 0)
    GTEST_SKIP() << "root writes into read-only directories";
  fs::create_directory(dir_ / "locked");
  fs::permissions(dir_ / "locked", fs::perms(0555));
  const RunResult r = run(explore({"-o", "locked/front.csv"}));
  fs::permissions(dir_ / "locked", fs::perms(0755));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output file 'locked/front.csv': Permission denied\n");
  EXPECT_TRUE(fs::is_empty(dir_ / "locked"));
}

TEST_F(CommandOutputs, SweepThatCannotWriteOneFileReplacesNone) {
  write("s.csv", "previous fronts\n");
  write("s-buffer-curve.csv", "previous curve\n");
  fs::create_directory(dir_ / "s-summary.csv");
  const RunResult r = run(sweep({"--buffer-curve"}));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output file 's-summary.csv': Is a directory\n");
  EXPECT_EQ(read("s.csv"), "previous fronts\n");
  EXPECT_EQ(read("s-buffer-curve.csv"), "previous curve\n");
  EXPECT_EQ(listing(), (std::vector<std::string>{"s-buffer-curve.csv", "s-summary.csv", "s.csv"}));
}

TEST_F(CommandOutputs, SweepWithoutCurveRemovesTheStaleCurve) {
  run_ok(sweep({"--buffer-curve"}));
  EXPECT_TRUE(exists("s-buffer-curve.csv"));
  run_ok(sweep({}));
  EXPECT_EQ(listing(), (std::vector<std::string>{"s-summary.csv", "s.csv"}));
}

TEST_F(CommandOutputs, NetworkWithoutSearchLeavesNoStaleSearchFiles) {
  run_ok(network({}));
  EXPECT_TRUE(exists("rep/segments.csv"));
  EXPECT_TRUE(exists("rep/network_front.csv"));
  run_ok(network({"--no-search"}));
  std::vector<std::string> files;
  for (const auto &[name, text] : contents("rep"))
    files.push_back(name);
  EXPECT_EQ(files, (std::vector<std::string>{"hotspots.txt", "layout.csv", "memory.csv",
                                             "splits.csv", "summary.txt"}));
  EXPECT_EQ(listing(), std::vector<std::string>{"rep"});
}

TEST_F(CommandOutputs, NetworkThatFailsWritingLeavesThePreviousReport) {
  run_ok(network({}));
  const std::map<std::string, std::string> before = contents("rep");
  // Files may grow to one 512-byte block: the report fails part of the way through, as on a
  // full disk; XFSZ is ignored so that the write fails instead of killing the process.
  const ProcessResult r =
      run_script("trap '' XFSZ; ulimit -f 1; exec \"$DSE\" network --hw " + shell_quote(kDsp) +
                 " --model " + shell_quote(kTinyCnn) + " -o rep --no-search");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err.rfind("error: cannot write output file 'rep/", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("': File too large\n"), std::string::npos) << r.err;
  EXPECT_EQ(contents("rep"), before);
  EXPECT_EQ(listing(), std::vector<std::string>{"rep"}) << "the staged report was left behind";
}

} // namespace
} // namespace dse::testing
