// Loader fuzzing: every shipped hardware, workload and network file, mutated at random (seeded),
// either loads or fails with a UserError that names the file. Never another exception, never a
// crash (the sanitizer build runs these too).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "common/fuzz_outcome.hpp"
#include "common/text_mutations.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/onnx_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {
namespace {

namespace fs = std::filesystem;

using Loader = std::function<void(const std::string &content, const std::string &file_name)>;

std::string read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<fs::path> shipped(const std::string &folder, const std::string &extension) {
  std::vector<fs::path> out;
  for (const auto &entry : fs::directory_iterator(fs::path(DSE_SOURCE_DIR) / folder))
    if (entry.path().extension() == extension)
      out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  EXPECT_FALSE(out.empty()) << folder;
  return out;
}

/// Loads `mutations` mutated copies of each file; counts how many failed cleanly.
void fuzz(const std::vector<fs::path> &files, const Loader &load, int mutations, bool binary) {
  for (const fs::path &path : files) {
    const std::string original = read_file(path);
    const std::string name = path.filename().string();
    ASSERT_NO_THROW(load(original, name)) << name << " does not load unmutated";
    test_common::TextMutator mutator(static_cast<std::uint32_t>(std::hash<std::string>{}(name)));
    test_common::FuzzTally tally;
    for (int i = 0; i < mutations; ++i) {
      const std::string input = binary ? mutator.mutate_bytes(original) : mutator.mutate(original);
      test_common::run_mutant([&] { load(input, name); }, name,
                              name + ", mutation " + std::to_string(i) + ":\n" +
                                  (binary ? std::string("(binary)") : input),
                              tally);
    }
    EXPECT_GT(tally.rejected, 0) << name << ": no mutation was rejected; the fuzzer is not biting";
  }
}

TEST(LoaderFuzz, HardwareFiles) {
  fuzz(
      shipped("hw_configs", ".yaml"),
      [](const std::string &text, const std::string &file) { parse_hardware(text, file); }, 1000,
      false);
}

TEST(LoaderFuzz, WorkloadFiles) {
  fuzz(
      shipped("workloads", ".yaml"),
      [](const std::string &text, const std::string &file) { parse_workload(text, file); }, 1000,
      false);
}

TEST(LoaderFuzz, YamlGraphs) {
  fuzz(
      shipped("networks", ".yaml"),
      [](const std::string &text, const std::string &file) { parse_graph_yaml(text, file); }, 1000,
      false);
}

TEST(LoaderFuzz, OnnxModels) {
  fuzz(
      shipped("networks", ".onnx"),
      [](const std::string &bytes, const std::string &file) { parse_onnx(bytes, file); }, 150,
      true);
}

} // namespace
} // namespace dse
