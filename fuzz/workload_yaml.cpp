// Fuzz target: workload YAML through parse_workload (einsum parser and binder included), its
// siblings stacked and its einsums split into chains, as `dse explore` does before searching.
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/ir/sibling_stack.hpp"
#include "fuzz_input.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
  return dse::fuzz::run_input(data, size, "fuzz-workload.yaml", [](const std::string &text) {
    dse::chain_splits(dse::with_sibling_stacks(dse::parse_workload(text, "fuzz-workload.yaml")));
  });
}
