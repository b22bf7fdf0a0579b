// The Timeloop reference set shipped in tests/data/timeloop-a16/ (80 GEMM mappings with
// Timeloop's results), read by the tests of several modules: its records and their input files.
#pragma once

#include <fstream>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "common/repo_files.hpp"

namespace dse::test_common {

inline const std::string &timeloop_reference_dir() {
  static const std::string dir = repo_file("tests/data/timeloop-a16/");
  return dir;
}

/// The records of a16_gemm.jsonl, in file order (JSON is YAML, so yaml-cpp reads each line).
inline std::vector<YAML::Node> timeloop_reference_records() {
  std::ifstream in(timeloop_reference_dir() + "a16_gemm.jsonl");
  std::vector<YAML::Node> records;
  for (std::string line; std::getline(in, line);)
    if (!line.empty())
      records.push_back(YAML::Load(line));
  return records;
}

/// The path of a record's Timeloop input `key` (arch, problem, map or ert).
inline std::string timeloop_input_path(const YAML::Node &record, const std::string &key) {
  return timeloop_reference_dir() + record["timeloop_inputs"][key].as<std::string>();
}

} // namespace dse::test_common
