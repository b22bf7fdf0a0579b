// Replays fuzz inputs without libFuzzer, for the regression tests: every file given, and every
// file in every directory given (sorted; a missing directory holds none), goes once through the
// target's LLVMFuzzerTestOneInput. An exception escaping it fails the run, naming the input.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_of(const fs::path &arg) {
  if (!fs::is_directory(arg))
    return fs::exists(arg) ? std::vector<fs::path>{arg} : std::vector<fs::path>{};
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(arg))
    if (entry.is_regular_file())
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_bytes(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

int main(int argc, char **argv) {
  int replayed = 0;
  for (int i = 1; i < argc; ++i)
    for (const fs::path &file : inputs_of(argv[i])) {
      const std::string bytes = read_bytes(file);
      try {
        LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
      } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: uncaught exception: %s\n", file.c_str(), e.what());
        return 1;
      }
      ++replayed;
    }
  std::printf("replayed %d inputs\n", replayed);
  return replayed > 0 ? 0 : 1;
}
