// `dse explore` on general hierarchies: the front as CSV and JSON with the same numbers, a front
// that no hand-written mapping beats (the shipped mapping, evaluated by `dse eval`), and the
// options and workloads it refuses by name.
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace dse::testing {
namespace {

using HierExploreTest = CliTest;

const std::vector<std::string> kExploreA16 = {"explore", "--hw",
                                              repo_file("hw_configs/a16-timeloop.yaml"),
                                              "--workload", repo_file("workloads/gemm-256.yaml")};

TEST_F(HierExploreTest, FrontDominatesTheShippedMapping) {
  const Csv front = parse_csv(run_ok(kExploreA16).out);
  ASSERT_FALSE(front.rows.empty());
  const nlohmann::json eval =
      nlohmann::json::parse(run_ok({"eval", "--hw", repo_file("hw_configs/a16-timeloop.yaml"),
                                    "--workload", repo_file("workloads/gemm-256.yaml"), "--mapping",
                                    repo_file("mappings/a16-gemm-256.yaml"), "--json"})
                                .out);
  const double latency = eval["total"]["latency_s"], energy = eval["total"]["energy_pj"];
  bool dominated = false;
  for (size_t i = 0; i < front.rows.size(); ++i)
    dominated |= front.number(i, "latency_s") <= latency && front.number(i, "energy_pj") <= energy;
  EXPECT_TRUE(dominated);
  EXPECT_EQ(front.number(0, "macs"), 256.0 * 256 * 256);
  EXPECT_EQ(front.number(0, "latency_cycles"), 65536); // compute-bound on all 256 PEs
}

TEST_F(HierExploreTest, JsonCarriesTheCsvNumbersAndEachOperatorsMapping) {
  const Csv csv = parse_csv(run_ok(kExploreA16).out);
  const nlohmann::json doc = nlohmann::json::parse(run_ok(concat(kExploreA16, {"--json"})).out);
  ASSERT_EQ(doc["front"].size(), csv.rows.size());
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_EQ(doc["front"][i]["energy_pj"].get<double>(), csv.number(i, "energy_pj"));
    EXPECT_EQ(doc["front"][i]["latency_s"].get<double>(), csv.number(i, "latency_s"));
    const nlohmann::json &levels = doc["front"][i]["operators"][0]["mapping"];
    ASSERT_EQ(levels.size(), 4u); // DRAM, GlobalBuffer, the PE fan-out, RegisterFile
    EXPECT_EQ(levels[2]["fanout"], "PE");
  }
}

TEST_F(HierExploreTest, VerbosePrintsTheSearchCounts) {
  const RunResult r = run(concat(kExploreA16, {"-v"}));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("gemm: 165 spatial rows x 64 keep vectors;"), std::string::npos) << r.err;
}

TEST_F(HierExploreTest, TileMenusOtherThanDivisorsAreRefused) {
  expect_error(concat(kExploreA16, {"--tiles", "pow2"}),
               "error: --tiles pow2: general hierarchies search divisor factors at every level "
               "(--tiles divisors)");
}

TEST_F(HierExploreTest, OperatorsOtherThanEinsumsAreNamed) {
  write("w.yaml", "name: sm\ndims: {m: 4, n: 4}\nops:\n"
                  "  - {name: mm, einsum: \"S[m,n] += A[m,n] * B[m,n]\"}\n"
                  "  - {name: norm, kind: softmax, over: n, tensor: S, out: P}\n");
  expect_error(
      {"explore", "--hw", repo_file("hw_configs/a16-timeloop.yaml"), "--workload", "w.yaml"},
      "w.yaml:5:5: error: general hierarchies search einsum operators only so far; "
      "'norm' is not an einsum");
}

} // namespace
} // namespace dse::testing
