// Test support: small hardware descriptions and hand-written YAML graphs used across the graph
// tests, and the paths of the shipped networks.
#pragma once

#include <string>
#include <vector>

#include "common/repo_files.hpp"
#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/graph/network_plan.hpp"

namespace dse::testing {

/// A one-core 4x4 array with a global buffer of `capacity_words` words (8-byte words).
inline Hardware tiny_hardware(long capacity_words, int cores = 1) {
  return parse_hardware(
      "name: tiny\nclock_ghz: 1.0\nword_bytes: 8\ncores: " + std::to_string(cores) +
          "\npe_array: {rows: 4, cols: 4, mac_energy_pj: 1.0}\n"
          "levels:\n"
          "  - {name: DRAM, bandwidth_gbps: 16, read_energy_pj: 100, "
          "write_energy_pj: 100}\n"
          "  - {name: GB, capacity_words: " +
          std::to_string(capacity_words) + ", read_energy_pj: 1, write_energy_pj: 1}\n",
      "tiny.yaml");
}

using test_common::repo_file;
using test_common::shipped_networks;

/// conv3x3 -> relu -> conv3x3 (stride 2) -> relu -> maxpool, with a residual-free chain.
inline const char *kConvChain = R"(name: conv-chain
inputs:
  - {name: x, shape: [1, 3, 16, 16]}
nodes:
  - {name: c1, op: Conv, inputs: [x], output: y1, channels: 8, kernel: [3, 3], pads: [1, 1, 1, 1]}
  - {name: r1, op: Relu, inputs: [y1], output: a1}
  - {name: c2, op: Conv, inputs: [a1], output: y2, channels: 8, kernel: [3, 3], strides: [2, 2], pads: [1, 1, 1, 1]}
  - {name: r2, op: Relu, inputs: [y2], output: a2}
  - {name: p, op: MaxPool, inputs: [a2], output: z, kernel: [2, 2], strides: [2, 2]}
outputs: [z]
)";

/// Network planning options that keep tests fast: power-of-two tiles, one search thread.
inline NetworkOptions cheap_network_options() {
  NetworkOptions o;
  o.search.menu = TileMenu::PowersOfTwo;
  o.search.threads = 1;
  return o;
}

} // namespace dse::testing
