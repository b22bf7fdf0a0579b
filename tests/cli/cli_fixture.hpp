// Test fixture for end-to-end tests of the `dse` executable: a per-test temporary directory,
// runs of the binary from inside it with stdout and stderr captured, small CSV and argument
// helpers, and the small hardware file the bad-input tests share.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "common/text.hpp"

namespace dse::testing {

using test_common::repo_file;
using test_common::with;

/// A 4x4 array, 10 GB/s DRAM (line 6) and a 4096-word global buffer (line 7): quick to explore,
/// and the base that the bad-hardware tests edit, their line:col positions counted in it.
inline const std::string kTinyHardware = R"(name: tiny
clock_ghz: 1.0
word_bytes: 2
pe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}
levels:
  - {name: DRAM, bandwidth_gbps: 10, read_energy_pj: 100, write_energy_pj: 100}
  - {name: GlobalBuffer, capacity_words: 4096, read_energy_pj: 2, write_energy_pj: 2}
)";

/// What one run of `dse` produced.
struct RunResult {
  int exit_code = -1; // 128 + signal number if the process was killed by a signal
  std::string out;
  std::string err;
};

/// One parsed CSV file: the header fields and the rows, quoted fields unquoted.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  /// Index of column `name` in the header (a test failure if absent).
  size_t column(const std::string &name) const;
  double number(size_t row, const std::string &name) const;
  const std::string &text(size_t row, const std::string &name) const;
};

Csv parse_csv(const std::string &text);

/// A workload of one einsum over `dims` dimensions of size 2, each indexing every tensor.
std::string wide_einsum(int dims);

/// The arguments `args` followed by `extra`.
std::vector<std::string> concat(std::vector<std::string> args,
                                const std::vector<std::string> &extra);

/// Whether |a - b| <= rel * max(|a|, |b|).
::testing::AssertionResult near_relative(double a, double b, double rel);

class CliTest : public ::testing::Test {
protected:
  void SetUp() override;
  void TearDown() override;

  /// Runs `dse args...` with the temporary directory as working directory.
  RunResult run(const std::vector<std::string> &args) const;
  /// Runs `dse args...`, expecting exit code 0 and nothing on stderr.
  RunResult run_ok(const std::vector<std::string> &args) const;

  /// Checks that `dse args... -o OUT` fails with exit code 1 and exactly `message` (one line) on
  /// stderr, creating no file when OUT does not exist and leaving OUT untouched when it does.
  void expect_error(const std::vector<std::string> &args, const std::string &message) const;
  /// Like expect_error, for usage errors: any non-zero exit code other than 1, and `message` as
  /// the first line of stderr.
  void expect_usage_error(const std::vector<std::string> &args, const std::string &message) const;

  /// Runs the sweep `sweep_args("single.csv")` in one process and `sweep_args("ranks.csv")` on
  /// two MPI ranks, and checks that both write the same front, summary and buffer-curve files.
  void expect_two_ranks_write_what_one_process_writes(
      const std::function<std::vector<std::string>(const std::string &output)> &sweep_args) const;

  void write(const std::string &name, const std::string &text) const;
  std::string read(const std::string &name) const;
  bool exists(const std::string &name) const;
  /// Names of the entries of the temporary directory, sorted.
  std::vector<std::string> listing() const;

  std::filesystem::path base_; // removed after the test; holds the captured output
  std::filesystem::path dir_;  // base_/work: the working directory of every run
};

} // namespace dse::testing
