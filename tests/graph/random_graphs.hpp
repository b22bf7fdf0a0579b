// Test support: small random CNN-like graphs (convolutions with random kernels, strides,
// padding, dilation and groups, pools, activations, batch norms and residual adds) as YAML.
#pragma once

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "dse/config/graph_loader.hpp"

namespace dse::testing {

inline Graph random_cnn(unsigned seed, int length = 6) {
  std::mt19937 rng(seed);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::ostringstream y;
  int channels = pick(2, 4), height = pick(6, 12);
  y << "name: random-" << seed << "\ninputs:\n  - {name: t0, shape: [1, " << channels << ", "
    << height << ", " << height << "]}\nnodes:\n";
  int t = 0;
  std::vector<std::pair<int, std::string>> same_shape; // tensors with the current shape
  same_shape.push_back({t, "t0"});
  for (int i = 0; i < length; ++i) {
    const std::string in = "t" + std::to_string(t), out = "t" + std::to_string(t + 1);
    const int kind = pick(0, 5);
    y << "  - {name: n" << i << ", inputs: [" << in;
    if (kind <= 1 && height >= 3) {
      const int k = kind == 0 ? 1 : 3, stride = pick(1, 2), pad = k == 3 ? pick(0, 1) : 0;
      const int dil = k == 3 && height >= 6 && pick(0, 3) == 0 ? 2 : 1;
      const int span = dil * (k - 1) + 1;
      const bool depthwise = pick(0, 3) == 0;
      const int out_channels = depthwise ? channels : pick(2, 5);
      if (height + 2 * pad < span) {
        y << "], output: " << out << ", op: Relu}\n";
      } else {
        y << "], output: " << out << ", op: Conv, channels: " << out_channels << ", kernel: [" << k
          << ", " << k << "], strides: [" << stride << ", " << stride << "], pads: [" << pad << ", "
          << pad << ", " << pad << ", " << pad << "], dilations: [" << dil << ", " << dil
          << "], groups: " << (depthwise ? channels : 1) << "}\n";
        height = (height + 2 * pad - span) / stride + 1;
        channels = out_channels;
        same_shape.clear();
      }
    } else if (kind == 2 && height >= 2) {
      y << "], output: " << out << ", op: MaxPool, kernel: [2, 2], strides: [2, 2]}\n";
      height /= 2;
      same_shape.clear();
    } else if (kind == 3 && same_shape.size() > 1) {
      y << ", " << same_shape.front().second << "], output: " << out << ", op: Add}\n";
    } else if (kind == 4) {
      y << "], output: " << out << ", op: BatchNormalization}\n";
    } else {
      y << "], output: " << out << ", op: Relu}\n";
    }
    ++t;
    same_shape.push_back({t, out});
  }
  y << "outputs: [t" << t << "]\n";
  return parse_graph_yaml(y.str(), "random.yaml");
}

} // namespace dse::testing
