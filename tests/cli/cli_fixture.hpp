// Test fixture for end-to-end tests of the `dse` executable: a per-test temporary directory,
// runs of the binary from inside it with stdout and stderr captured, and small CSV helpers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace dse::testing {

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

/// `text` with the first occurrence of `from` replaced by `to` (which must occur).
std::string with(std::string text, const std::string &from, const std::string &to);

/// Absolute path of a file in the repository (hw_configs/..., workloads/...).
std::string repo_file(const std::string &relative);

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

  void write(const std::string &name, const std::string &text) const;
  std::string read(const std::string &name) const;
  bool exists(const std::string &name) const;
  /// Names of the entries of the temporary directory, sorted.
  std::vector<std::string> listing() const;

  std::filesystem::path base_; // removed after the test; holds the captured output
  std::filesystem::path dir_;  // base_/work: the working directory of every run
};

} // namespace dse::testing
