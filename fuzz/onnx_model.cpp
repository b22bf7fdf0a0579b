// Fuzz target: serialised ONNX models through parse_onnx (shape inference included), then the
// lowering of every compute node.
#include "dse/config/onnx_loader.hpp"
#include "fuzz_input.hpp"
#include "graph_lowering.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz.onnx", [](const std::string &bytes) {
    dse::fuzz::lower_compute_nodes(dse::parse_onnx(bytes, "fuzz.onnx"));
  });
}
