// Round trip: every point of a front, emitted with `dse explore --emit-mapping N` and evaluated
// with `dse eval --mapping`, gives the latency and energy of row N of the front CSV.
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "common/suite_scale.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");

class RoundTrip : public CliTest {
protected:
  /// Explores `workload` on `hw` with `options`, then evaluates every front point's mapping
  /// with the same options (those `dse eval` knows) and compares it with its CSV row. The
  /// sanitizer suite takes every third point and the last.
  void expect_round_trip(const std::string &hw, const std::string &workload,
                         const std::vector<std::string> &options = {}) const {
    const std::vector<std::string> explore =
        concat({"explore", "--hw", hw, "--workload", workload}, options);
    const RunResult first = run_ok(concat(explore, {"-o", "front.csv", "--emit-mapping", "0"}));
    const Csv front = parse_csv(read("front.csv"));
    ASSERT_FALSE(front.rows.empty());
    const size_t stride = test_common::per_suite<size_t>(1, 3);
    for (size_t i = 0; i < front.rows.size(); ++i) {
      if (i % stride != 0 && i + 1 != front.rows.size())
        continue;
      const std::string mapping =
          i == 0 ? first.out : run_ok(concat(explore, {"--emit-mapping", std::to_string(i)})).out;
      EXPECT_EQ(mapping.rfind("# front point " + std::to_string(i) + " of workload '", 0), 0u)
          << mapping;
      write("point.yaml", mapping);
      const RunResult eval = run(
          concat({"eval", "--hw", hw, "--workload", workload, "--mapping", "point.yaml", "--json"},
                 options));
      ASSERT_EQ(eval.exit_code, 0) << "point " << i << ":\n" << mapping << eval.err;
      const nlohmann::json total = nlohmann::json::parse(eval.out).at("total");
      EXPECT_TRUE(
          near_relative(total.at("latency_s").get<double>(), front.number(i, "latency_s"), 1e-12))
          << "latency of point " << i;
      EXPECT_TRUE(
          near_relative(total.at("energy_pj").get<double>(), front.number(i, "energy_pj"), 1e-12))
          << "energy of point " << i;
    }
  }

  /// A workload that `dse explore` accepts must round-trip; rejecting it with a located error
  /// is the other correct behaviour.
  void expect_round_trip_if_accepted(const std::string &workload) const {
    const RunResult r = run({"explore", "--hw", kHw, "--workload", workload});
    if (r.exit_code == 1 && r.err.rfind(workload + ":", 0) == 0)
      return;
    ASSERT_EQ(r.exit_code, 0) << r.err;
    expect_round_trip(kHw, workload);
  }
};

TEST_F(RoundTrip, EveryFfnFrontPoint) {
  expect_round_trip(kHw, repo_file("workloads/ffn-2048x768x3072x768.yaml"));
}

TEST_F(RoundTrip, EveryAttentionFrontPoint) {
  expect_round_trip(kHw, repo_file("workloads/gpt3-6.7b-attention-s2048.yaml"));
}

TEST_F(RoundTrip, HaloConvolutionChain) {
  write("conv.yaml", "name: conv\ndims: {p: 8, q: 8, c: 4, k: 8, r: 3, s: 3, j: 4}\nops:\n"
                     "  - {name: conv3x3, einsum: \"Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]\"}\n"
                     "  - {name: conv1x1, einsum: \"Z[j,p,q] += W2[j,k] * Y[k,p,q]\"}\n");
  expect_round_trip(repo_file("hw_configs/edge-16x16-32k.yaml"), "conv.yaml");
}

/// Rows of the front in front.csv whose dataflow column contains `text`.
size_t rows_containing(const Csv &front, const std::string &text) {
  size_t n = 0;
  for (size_t i = 0; i < front.rows.size(); ++i)
    n += front.text(i, "dataflow").find(text) != std::string::npos ? 1 : 0;
  return n;
}

TEST_F(RoundTrip, ConvolutionsFusedThroughAWindow) {
  const std::string conv =
      "name: conv\ndims: {p: 18, q: 18, c: 16, k: 16, r: 3, s: 3, a: 16, b: 16, u: 3, v: 3, "
      "j: 16}\nops:\n"
      "  - {name: conv3a, einsum: \"Y[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]\"}\n"
      "  - {name: conv3b, einsum: \"Z[j,a,b] += W2[j,k,u,v] * Y[k,a+u,b+v]\"}\n";
  write("conv.yaml", conv);
  run_ok({"explore", "--hw", kHw, "--workload", "conv.yaml", "-o", "front.csv"});
  EXPECT_GT(rows_containing(parse_csv(read("front.csv")), "fused prefix"), 0U)
      << "the pair fused through its window reaches the front";
  expect_round_trip(kHw, "conv.yaml");
  // Larger planes on a small buffer: the fronts keep the overlap of consecutive windows.
  write("wide.yaml",
        with(with(with(conv, "p: 18, q: 18", "p: 34, q: 34"), "a: 16, b: 16", "a: 32, b: 32"),
             "k: 16", "k: 32"));
  const std::string edge = repo_file("hw_configs/edge-16x16-32k.yaml");
  run_ok({"explore", "--hw", edge, "--workload", "wide.yaml", "-o", "front.csv"});
  EXPECT_GT(rows_containing(parse_csv(read("front.csv")), "| cache "), 0U);
  expect_round_trip(edge, "wide.yaml");
  // "Same" convolutions (padding one zero on each side, a 1x1 producer whose halo is cached).
  write("same.yaml", with(with(with(with(conv, "p: 18, q: 18", "p: 16, q: 16"), "r: 3, s: 3, ", ""),
                               "W1[k,c,r,s] * X[c,p+r,q+s]", "W1[k,c] * X[c,p,q]"),
                          "Y[k,a+u,b+v]", "Y[k,a+u-1,b+v-1]"));
  run_ok({"explore", "--hw", kHw, "--workload", "same.yaml", "-o", "front.csv"});
  EXPECT_GT(rows_containing(parse_csv(read("front.csv")), "fused prefix"), 0U);
  expect_round_trip(kHw, "same.yaml");
}

// A 3x3 -> 3x3 -> 1x1 stack run depth first as one segment (docs/DEPTH_FIRST.md §2): the
// first layer's windows are the second's composed with the third's tile.
TEST_F(RoundTrip, ConvolutionStackFusedDepthFirst) {
  write("stack.yaml",
        "name: stack\ndims: {p: 20, q: 20, c: 8, k: 8, r: 3, s: 3, a: 18, b: 18, u: 3, v: 3, "
        "j: 8, l: 8}\nops:\n"
        "  - {name: conv3a, einsum: \"Y1[k,p,q] += W1[k,c,r,s] * X[c,p+r,q+s]\"}\n"
        "  - {name: conv3b, einsum: \"Y2[j,a,b] += W2[j,k,u,v] * Y1[k,a+u,b+v]\"}\n"
        "  - {name: conv1x1, einsum: \"Y3[l,a,b] += W3[l,j] * Y2[j,a,b]\"}\n");
  const std::string edge = repo_file("hw_configs/edge-16x16-32k.yaml");
  run_ok({"explore", "--hw", edge, "--workload", "stack.yaml", "-o", "front.csv"});
  const Csv front = parse_csv(read("front.csv"));
  size_t whole_stack = 0; // points that run the three convolutions as one segment
  for (size_t i = 0; i < front.rows.size(); ++i) {
    const std::string dataflow = front.text(i, "dataflow");
    whole_stack +=
        dataflow.rfind("fused prefix", 0) == 0 && dataflow.find(" ; ") == std::string::npos ? 1 : 0;
  }
  EXPECT_GT(whole_stack, 0U) << "the stack run as one segment reaches the front";
  expect_round_trip(edge, "stack.yaml");
}

TEST_F(RoundTrip, ThreeEinsumChainWithElementwiseUnderSequentialLatency) {
  write("chain.yaml", "name: chain\ndims: {m: 64, k: 32, n: 64, l: 32, j: 16}\nops:\n"
                      "  - {name: a, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                      "  - {name: relu, kind: elementwise, tensor: H, out: H2}\n"
                      "  - {name: b, einsum: \"G[m,l] += H2[m,n] * W2[n,l]\"}\n"
                      "  - {name: c, einsum: \"O[m,j] += G[m,l] * W3[l,j]\"}\n");
  expect_round_trip(kHw, "chain.yaml", {"--latency-model", "sequential"});
}

TEST_F(RoundTrip, IndependentEinsumsAndRowReduction) {
  write("two.yaml", "name: two\ndims: {m: 64, k: 32, n: 16, j: 8}\nops:\n"
                    "  - {name: g1, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n"
                    "  - {name: g2, einsum: \"D[j,n] += E[j,k] * F[k,n]\"}\n"
                    "  - {name: rowsum, einsum: \"R[m] += A[m,k]\"}\n");
  expect_round_trip(kHw, "two.yaml");
}

// Attention fed by its projections: each front point runs one way of chaining the branching
// einsums (docs/DESIGN.md §3), which its mapping's segments spell out.
TEST_F(RoundTrip, AttentionBlockWithItsProjections) {
  write("block.yaml", test_common::projected_attention_workload("block", 32, 32, 16));
  expect_round_trip(kHw, "block.yaml");
}

TEST_F(RoundTrip, FusedPairOnADoubleBufferedVectorTarget) {
  write("vector.yaml", "name: vector\nclock_ghz: 1.0\nword_bytes: 2\n"
                       "vector: {lanes: 16, fma_units: 3, fma_energy_pj: 1.0}\nlevels:\n"
                       "  - {name: DRAM, bandwidth_gbps: 10, read_energy_pj: 100, "
                       "write_energy_pj: 100}\n"
                       "  - {name: L2, capacity_kib: 4, read_energy_pj: 2, write_energy_pj: 2, "
                       "double_buffering: true}\n");
  write("ffn.yaml", "name: ffn\ndims: {m: 48, k: 16, n: 64, l: 16}\nops:\n"
                    "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                    "  - {name: relu, kind: elementwise, tensor: H, out: H2}\n"
                    "  - {name: down, einsum: \"O[m,l] += H2[m,n] * W2[n,l]\"}\n");
  expect_round_trip("vector.yaml", "ffn.yaml");
}

// An einsum reading one tensor twice (A * A) is accepted, but the emitted mapping names tensor
// 'A' twice under `retention`, which `dse eval` rejects as a duplicate key.
TEST_F(RoundTrip, EinsumReadingOneTensorTwice) {
  write("square.yaml", "name: square\ndims: {m: 16, k: 16, n: 16}\nops:\n"
                       "  - {name: sq, einsum: \"C[m,n] += A[m,k] * A[k,n]\"}\n");
  expect_round_trip_if_accepted("square.yaml");
}

// Workload and op names are free text, but the emitted mapping writes them unquoted: a ',' in
// an op name or ': ' in a workload name makes it invalid YAML.
TEST_F(RoundTrip, NamesThatNeedYamlQuoting) {
  write("comma.yaml", "name: w\ndims: {m: 16, k: 16, n: 16}\nops:\n"
                      "  - {name: \"g,1\", einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n");
  expect_round_trip_if_accepted("comma.yaml");
  write("colon.yaml", "name: \"bert: layer 1\"\ndims: {m: 16, k: 16, n: 16}\nops:\n"
                      "  - {name: g, einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n");
  expect_round_trip_if_accepted("colon.yaml");
}

} // namespace
} // namespace dse::testing
