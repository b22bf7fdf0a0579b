// `dse run`: compiles a generated kernel with the host compiler in a scratch directory and runs
// it, capturing what it prints.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace dse {

/// The host compiler: `requested` if given, else $CXX, else `c++`.
std::string host_compiler(const std::string &requested);

/// A fresh directory under the system's temporary directory, removed with everything in it
/// when this object goes away.
class ScratchDir {
public:
  explicit ScratchDir(const std::string &stem);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

struct ProcessResult {
  int exit_code = -1; // 128 + signal when killed by a signal
  std::string out;
  std::string err;
};

/// Runs `command` (a shell command line) with stdout and stderr captured through files in `dir`.
ProcessResult run_captured(const std::string &command, const std::filesystem::path &dir);

/// Writes `source` to dir/kernel.cpp and compiles it with `compiler` and kKernelFlags plus
/// `extra_flags` into dir/`output`. Returns the compiler's result (exit code and messages).
ProcessResult compile_kernel(const std::string &source, const std::filesystem::path &dir,
                             const std::string &compiler, const std::string &extra_flags,
                             const std::string &output);

/// Quotes `s` for the shell.
std::string shell_quote(const std::string &s);

} // namespace dse
