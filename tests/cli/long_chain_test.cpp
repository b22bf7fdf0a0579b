// Long chains of elementwise operators (once quadratic to load, detect and plan) give the same
// results as one operator doing all their work.
#include "cli/cli_fixture.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");

/// A GEMM whose result passes through `count` elementwise operators (one op per element each),
/// or through one doing `count` ops per element.
std::string elementwise_chain(int count, bool as_one) {
  std::string yaml = "name: chain\ndims: {m: 64, k: 64, n: 64}\nops:\n"
                     "  - {name: mm, einsum: \"X0[m,n] += A[m,k] * B[k,n]\"}\n";
  if (as_one)
    return yaml + "  - {name: e0, kind: elementwise, tensor: X0, out: X1, ops_per_element: " +
           std::to_string(count) + "}\n";
  for (int i = 0; i < count; ++i)
    yaml += "  - {name: e" + std::to_string(i) + ", kind: elementwise, tensor: X" +
            std::to_string(i) + ", out: X" + std::to_string(i + 1) + "}\n";
  return yaml;
}

/// The network form of elementwise_chain: a Gemm node and Relu nodes.
std::string relu_chain(int count, bool as_one) {
  std::string yaml = "name: relus\ninputs:\n  - {name: x, shape: [1, 64]}\nnodes:\n"
                     "  - {name: fc, op: Gemm, inputs: [x], output: y0, features: 64}\n";
  const int nodes = as_one ? 1 : count;
  for (int i = 0; i < nodes; ++i)
    yaml += "  - {name: r" + std::to_string(i) + ", op: Relu, inputs: [y" + std::to_string(i) +
            "], output: y" + std::to_string(i + 1) +
            (as_one ? ", ops_per_element: " + std::to_string(count) : "") + "}\n";
  return yaml + "outputs: [y" + std::to_string(nodes) + "]\n";
}

using LongChain = CliTest;

std::vector<std::string> explore(const std::string &workload) {
  return {"explore", "--hw", kHw, "--workload", workload};
}

TEST_F(LongChain, ElementwiseIsOneOperatorDoingTheirWork) {
  write("chain.yaml", elementwise_chain(3000, false));
  write("one.yaml", elementwise_chain(3000, true));
  EXPECT_EQ(run_ok(explore("chain.yaml")).out, run_ok(explore("one.yaml")).out);
}

TEST_F(LongChain, ReluInANetworkIsOneReluDoingTheirWork) {
  write("chain.yaml", relu_chain(3000, false));
  write("one.yaml", relu_chain(3000, true));
  run_ok({"network", "--hw", kHw, "--model", "chain.yaml", "-o", "chain"});
  run_ok({"network", "--hw", kHw, "--model", "one.yaml", "-o", "one"});
  EXPECT_EQ(read("chain/network_front.csv"), read("one/network_front.csv"));
}

} // namespace
} // namespace dse::testing
