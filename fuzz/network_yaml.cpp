// Fuzz target: YAML network graphs through parse_graph_yaml (shape inference included), then the
// lowering of every compute node.
#include "dse/config/graph_loader.hpp"
#include "fuzz_input.hpp"
#include "graph_lowering.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-net.yaml", [](const std::string &text) {
    dse::fuzz::lower_compute_nodes(dse::parse_graph_yaml(text, "fuzz-net.yaml"));
  });
}
