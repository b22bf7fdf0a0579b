// Runs the `dse` binary through the shell with captured output, inside a per-test directory.
#include "cli/cli_fixture.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace dse::testing {

namespace {

std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string slurp(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<std::string> csv_fields(const std::string &line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

std::vector<std::string> with_output(const std::vector<std::string> &args,
                                     const std::string &output) {
  return concat(args, {"-o", output});
}

} // namespace

size_t Csv::column(const std::string &name) const {
  const auto it = std::find(header.begin(), header.end(), name);
  EXPECT_NE(it, header.end()) << "no column '" << name << "'";
  return it == header.end() ? 0 : static_cast<size_t>(it - header.begin());
}

double Csv::number(size_t row, const std::string &name) const {
  return std::strtod(text(row, name).c_str(), nullptr);
}

const std::string &Csv::text(size_t row, const std::string &name) const {
  return rows.at(row).at(column(name));
}

Csv parse_csv(const std::string &text) {
  Csv csv;
  std::istringstream in(text);
  std::string line;
  if (std::getline(in, line))
    csv.header = csv_fields(line);
  while (std::getline(in, line))
    csv.rows.push_back(csv_fields(line));
  return csv;
}

std::string wide_einsum(int dims) {
  std::string names, sizes;
  for (int d = 0; d < dims; ++d) {
    const std::string name(1, static_cast<char>('a' + d));
    names += (d ? "," : "") + name;
    sizes += (d ? ", " : "") + name + ": 2";
  }
  return "name: wide\ndims: {" + sizes + "}\nops:\n  - {name: big, einsum: \"O[" + names +
         "] += X[" + names + "] * Y[" + names + "]\"}\n";
}

std::vector<std::string> concat(std::vector<std::string> args,
                                const std::vector<std::string> &extra) {
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

::testing::AssertionResult near_relative(double a, double b, double rel) {
  if (std::abs(a - b) <= rel * std::max(std::abs(a), std::abs(b)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << a << " and " << b << " differ by more than " << rel << " relative";
}

void CliTest::SetUp() {
  const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string name = std::string("dse-cli-") + info->test_suite_name() + "." + info->name() +
                           "-" + std::to_string(::getpid());
  base_ = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(base_);
  dir_ = base_ / "work";
  std::filesystem::create_directories(dir_);
}

void CliTest::TearDown() { std::filesystem::remove_all(base_); }

RunResult CliTest::run(const std::vector<std::string> &args) const {
  const std::filesystem::path out = base_ / "stdout";
  const std::filesystem::path err = base_ / "stderr";
  std::string command = "cd " + shell_quote(dir_.string()) + " && exec " + shell_quote(DSE_BINARY);
  for (const std::string &arg : args)
    command += " " + shell_quote(arg);
  command += " </dev/null >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(command.c_str());
  RunResult r;
  if (WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (WIFSIGNALED(status))
    r.exit_code = 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

RunResult CliTest::run_ok(const std::vector<std::string> &args) const {
  RunResult r = run(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return r;
}

void CliTest::expect_error(const std::vector<std::string> &args, const std::string &message) const {
  const std::vector<std::string> before = listing();
  const RunResult fresh = run(with_output(args, "fresh.out"));
  EXPECT_EQ(fresh.exit_code, 1);
  EXPECT_EQ(fresh.err, message + "\n");
  EXPECT_EQ(fresh.out, "");
  EXPECT_EQ(listing(), before) << "the failed run left a file behind";

  const std::string previous = "previous contents\n";
  write("kept.out", previous);
  const RunResult kept = run(with_output(args, "kept.out"));
  EXPECT_EQ(kept.exit_code, 1);
  EXPECT_EQ(kept.err, message + "\n");
  EXPECT_EQ(read("kept.out"), previous) << "the failed run changed an existing output file";
  std::filesystem::remove(dir_ / "kept.out");
}

void CliTest::expect_usage_error(const std::vector<std::string> &args,
                                 const std::string &message) const {
  const std::vector<std::string> before = listing();
  const RunResult r = run(with_output(args, "fresh.out"));
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.exit_code, 1) << "usage errors have their own exit codes";
  EXPECT_EQ(r.err.substr(0, r.err.find('\n')), message);
  EXPECT_EQ(listing(), before) << "the failed run left a file behind";
}

void CliTest::expect_two_ranks_write_what_one_process_writes(
    const std::function<std::vector<std::string>(const std::string &output)> &sweep_args) const {
  run_ok(sweep_args("single.csv"));
  std::string command = "cd '" + dir_.string() +
                        "' && OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
                        "OMPI_MCA_btl=self,vader mpirun --oversubscribe -np 2 " DSE_BINARY;
  for (const std::string &arg : sweep_args("ranks.csv"))
    command += " '" + arg + "'";
  command += " --threads 1 > mpi.log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << read("mpi.log");
  for (const std::string suffix : {"", "-summary", "-buffer-curve"})
    EXPECT_EQ(read("ranks" + suffix + ".csv"), read("single" + suffix + ".csv")) << suffix;
}

void CliTest::write(const std::string &name, const std::string &text) const {
  std::ofstream(dir_ / name, std::ios::binary) << text;
}

std::string CliTest::read(const std::string &name) const { return slurp(dir_ / name); }

bool CliTest::exists(const std::string &name) const { return std::filesystem::exists(dir_ / name); }

std::vector<std::string> CliTest::listing() const {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(dir_))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace dse::testing
