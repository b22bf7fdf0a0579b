// Every file shipped in hw_configs/ and workloads/ loads, starts with a comment, and the named
// designs have the shapes their names promise.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "common/repo_files.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse {
namespace {

namespace fs = std::filesystem;
using test_common::repo_file;

std::vector<std::string> yaml_files(const std::string &dir) {
  std::vector<std::string> files;
  for (const fs::directory_entry &entry : fs::directory_iterator(repo_file(dir)))
    if (entry.path().extension() == ".yaml")
      files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

std::string first_line(const std::string &path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(ShippedConfigs, EveryHardwareFileLoads) {
  const std::vector<std::string> files = yaml_files("hw_configs");
  EXPECT_GE(files.size(), 5u);
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    EXPECT_EQ(first_line(file).rfind("# ", 0), 0u);
    const Hardware hw = load_hardware(file);
    EXPECT_EQ(hw.name, fs::path(file).stem().string());
    EXPECT_FALSE(hw.source.empty());
  }
}

TEST(ShippedConfigs, EveryWorkloadFileLoads) {
  const std::vector<std::string> files = yaml_files("workloads");
  EXPECT_GE(files.size(), 10u);
  for (const std::string &file : files) {
    SCOPED_TRACE(file);
    EXPECT_EQ(first_line(file).rfind("# ", 0), 0u);
    const Workload w = load_workload(file);
    EXPECT_EQ(w.name, fs::path(file).stem().string());
  }
}

TEST(ShippedConfigs, HardwareShapes) {
  const Hardware edge = load_hardware(repo_file("hw_configs/edge-16x16-32k.yaml"));
  EXPECT_EQ(edge.array.rows, 16);
  EXPECT_EQ(edge.gb_capacity_words(), 32 * 1024 / 2);
  const Hardware set = load_hardware(repo_file("hw_configs/set-32x32-16m.yaml"));
  EXPECT_EQ(set.gb_capacity_words(), 16 * 1024 * 1024 / 2);
  const Hardware sim = load_hardware(repo_file("hw_configs/sim-1g-4mb-128gbps.yaml"));
  EXPECT_EQ(sim.array.cols, 32);
  EXPECT_DOUBLE_EQ(sim.clock_ghz, 1.0);
  EXPECT_DOUBLE_EQ(*sim.dram().bandwidth_gbps, 128.0);
  EXPECT_EQ(sim.gb_capacity_words(), 4 * 1024 * 1024 / 2);
  EXPECT_EQ(*sim.register_file()->capacity_words, 64);
}

TEST(ShippedConfigs, WorkloadShapes) {
  const Workload conv = load_workload(repo_file("workloads/conv-chain-112.yaml"));
  ASSERT_EQ(conv.ops.size(), 2u);
  EXPECT_EQ(conv.ops[0].einsum.inputs[1].indices[1].terms.size(), 2u); // p+r
  EXPECT_EQ(conv.ops[1].einsum.inputs[1].tensor, "Y");
  const Workload palm = load_workload(repo_file("workloads/palm-62b-attention-s2048.yaml"));
  ASSERT_EQ(palm.ops.size(), 3u);
  EXPECT_EQ(palm.ops[0].einsum.inputs[1].indices.size(), 2u); // K[n,k]: one shared head
  EXPECT_EQ(palm.dim_size(palm.dim_index("k")), 256);
  const Workload gpt = load_workload(repo_file("workloads/gpt3-6.7b-attention-s131072.yaml"));
  EXPECT_EQ(gpt.dim_size(gpt.dim_index("n")), 131072);
  EXPECT_EQ(gpt.ops[1].kind, OpKind::Softmax);
}

} // namespace
} // namespace dse
