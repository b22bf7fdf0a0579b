// Paths of the files shipped in the repository (hw_configs/, workloads/, networks/, README.md)
// for the tests that load them.
#pragma once

#include <string>
#include <vector>

namespace dse::test_common {

/// Absolute path of `relative`, a path inside the repository.
inline std::string repo_file(const std::string &relative) {
  return std::string(DSE_SOURCE_DIR) + "/" + relative;
}

/// The shipped networks (ONNX and YAML), relative to the repository.
inline const std::vector<std::string> &shipped_networks() {
  static const std::vector<std::string> names = {"networks/resnet18.onnx",
                                                 "networks/vgg16.onnx",
                                                 "networks/googlenet.onnx",
                                                 "networks/mobilenet_v2.onnx",
                                                 "networks/bert_base_layer_s512.onnx",
                                                 "networks/tiny-cnn.yaml",
                                                 "networks/vgg16-first-five.yaml"};
  return names;
}

} // namespace dse::test_common
