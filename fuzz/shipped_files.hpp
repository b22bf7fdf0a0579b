// For the fuzz targets that need a context: the shipped hardware and workload files, read once.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "dse/config/workload_loader.hpp"
#include "dse/ir/sibling_stack.hpp"

namespace dse::fuzz {

inline std::filesystem::path shipped_path(const std::string &relative) {
  return std::filesystem::path(DSE_SOURCE_DIR) / relative;
}

inline std::string shipped_text(const std::string &relative) {
  std::ifstream in(shipped_path(relative), std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every workload in workloads/, by its name.
inline const std::map<std::string, Workload> &shipped_workloads() {
  static const std::map<std::string, Workload> workloads = [] {
    std::map<std::string, Workload> by_name;
    for (const auto &entry : std::filesystem::directory_iterator(shipped_path("workloads"))) {
      Workload w = with_sibling_stacks(load_workload(entry.path().string()));
      by_name.emplace(w.name, std::move(w));
    }
    return by_name;
  }();
  return workloads;
}

} // namespace dse::fuzz
