// Compile and run through the shell, output captured in files of the scratch directory.
#include "dse/codegen/kernel_runner.hpp"

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "dse/codegen/kernel_emitter.hpp"
#include "dse/support/error.hpp"

namespace dse {

namespace {

std::string slurp(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace

std::string host_compiler(const std::string &requested) {
  if (!requested.empty())
    return requested;
  const char *cxx = std::getenv("CXX");
  return cxx != nullptr && *cxx != '\0' ? cxx : "c++";
}

ScratchDir::ScratchDir(const std::string &stem) {
  std::random_device entropy;
  const std::filesystem::path base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    path_ = base / (stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(entropy()));
    if (std::filesystem::create_directory(path_))
      return;
  }
  throw UserError("cannot create a scratch directory in '" + base.string() + "'");
}

ScratchDir::~ScratchDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::string shell_quote(const std::string &s) {
  std::string out = "'";
  for (char c : s)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

ProcessResult run_captured(const std::string &command, const std::filesystem::path &dir) {
  const std::filesystem::path out = dir / "stdout.txt";
  const std::filesystem::path err = dir / "stderr.txt";
  const std::string line =
      command + " </dev/null >" + shell_quote(out.string()) + " 2>" + shell_quote(err.string());
  const int status = std::system(line.c_str());
  ProcessResult r;
  if (status != -1 && WIFEXITED(status))
    r.exit_code = WEXITSTATUS(status);
  else if (status != -1 && WIFSIGNALED(status))
    r.exit_code = 128 + WTERMSIG(status);
  r.out = slurp(out);
  r.err = slurp(err);
  return r;
}

ProcessResult compile_kernel(const std::string &source, const std::filesystem::path &dir,
                             const std::string &compiler, const std::string &extra_flags,
                             const std::string &output) {
  const std::filesystem::path src = dir / "kernel.cpp";
  {
    std::ofstream file(src, std::ios::binary | std::ios::trunc);
    file << source;
    if (!file)
      throw UserError("cannot write '" + src.string() + "'");
  }
  return run_captured(compiler + " " + kKernelFlags + " " + extra_flags + " " +
                          shell_quote(src.string()) + " -o " + shell_quote((dir / output).string()),
                      dir);
}

} // namespace dse
