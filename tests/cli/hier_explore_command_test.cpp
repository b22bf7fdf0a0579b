// `dse explore` on general hierarchies: the front as CSV and JSON with the same numbers, a front
// that no hand-written mapping beats (the shipped mapping, evaluated by `dse eval`), a softmax's
// vector pass between its einsums, front points (fused pairs too, with --hier-fusion) that
// round-trip through --emit-mapping and `dse eval`, and the options it refuses by name.
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"
#include "common/suite_scale.hpp"

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

TEST_F(HierExploreTest, ASoftmaxRunsAsAVectorPassBetweenItsEinsums) {
  write("w.yaml", "name: att\ndims: {h: 2, m: 64, n: 64, k: 16, l: 16}\nops:\n"
                  "  - {name: qk, einsum: \"S[h,m,n] += Q[h,m,k] * K[h,n,k]\"}\n"
                  "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                  "  - {name: pv, einsum: \"O[h,m,l] += P[h,m,n] * V[h,n,l]\"}\n");
  const nlohmann::json doc =
      nlohmann::json::parse(run_ok({"explore", "--hw", repo_file("hw_configs/a16-timeloop.yaml"),
                                    "--workload", "w.yaml", "--json"})
                                .out);
  ASSERT_FALSE(doc["front"].empty());
  for (const nlohmann::json &point : doc["front"]) {
    const nlohmann::json &ops = point["operators"];
    ASSERT_EQ(ops.size(), 3u);
    // S has 2 x 64 x 64 = 8192 elements: 4 operations each, read and written back once.
    EXPECT_EQ(ops[1]["operator"], "sm");
    EXPECT_EQ(ops[1]["vector_pass"]["vector_ops"], 32768.0);
    EXPECT_EQ(ops[1]["vector_pass"]["dram_reads"], 8192.0);
    EXPECT_EQ(ops[1]["vector_pass"]["dram_updates"], 8192.0);
    // 8192 x 4 operations on 256 units, 16384 words at 4 words per cycle: transfer-bound;
    // energy 32768 x 1 pJ + 16384 x 100 pJ.
    EXPECT_EQ(ops[1]["latency_cycles"], 4096.0);
    EXPECT_EQ(ops[1]["energy_pj"], 32768.0 + 16384.0 * 100);
    double energy = 0, cycles = 0;
    for (const nlohmann::json &op : ops) {
      energy += op["energy_pj"].get<double>();
      cycles += op["latency_cycles"].get<double>();
    }
    EXPECT_EQ(point["energy_pj"].get<double>(), energy);
    EXPECT_EQ(point["latency_cycles"].get<double>(), cycles);
  }
}

TEST_F(HierExploreTest, EveryFrontPointRoundTripsThroughEmitMappingAndEval) {
  write("w.yaml", "name: att\ndims: {h: 2, m: 64, n: 64, k: 16, l: 16}\nops:\n"
                  "  - {name: qk, einsum: \"S[h,m,n] += Q[h,m,k] * K[h,n,k]\"}\n"
                  "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                  "  - {name: pv, einsum: \"O[h,m,l] += P[h,m,n] * V[h,n,l]\"}\n");
  const std::vector<std::string> explore = {"explore",
                                            "--hw",
                                            repo_file("hw_configs/a16-timeloop.yaml"),
                                            "--workload",
                                            "w.yaml",
                                            "--objectives",
                                            "latency,energy,dram"};
  const Csv front = parse_csv(run_ok(explore).out);
  ASSERT_FALSE(front.rows.empty());
  for (size_t i = 0; i < front.rows.size(); ++i) {
    write("m.yaml", run_ok(concat(explore, {"--emit-mapping", std::to_string(i)})).out);
    const nlohmann::json eval =
        nlohmann::json::parse(run_ok({"eval", "--hw", repo_file("hw_configs/a16-timeloop.yaml"),
                                      "--workload", "w.yaml", "--mapping", "m.yaml", "--json"})
                                  .out);
    EXPECT_EQ(eval["total"]["latency_s"].get<double>(), front.number(i, "latency_s"));
    EXPECT_EQ(eval["total"]["energy_pj"].get<double>(), front.number(i, "energy_pj"));
  }
}

TEST_F(HierExploreTest, EmitMappingBeyondTheFrontIsNamed) {
  expect_error(concat(kExploreA16, {"--emit-mapping", "7"}),
               "error: --emit-mapping 7: the front has 1 points");
}

TEST_F(HierExploreTest, ConstraintsThatLeaveNoMappingAreNamed) {
  write("hw.yaml", read(repo_file("hw_configs/a16-timeloop.yaml")) +
                       "mapspace:\n  - {target: GlobalBuffer, factors: {k: 3}}\n");
  expect_error({"explore", "--hw", "hw.yaml", "--workload", repo_file("workloads/gemm-256.yaml")},
               "hw.yaml: error: no mapping of 'gemm' satisfies the mapspace constraints of "
               "'a16-timeloop' (fixed factors that do not divide its dimensions, or rules that "
               "exclude every keep set, order or spatial assignment)");
}

/// A two-einsum chain with an elementwise operator between them, small enough for the fused
/// search to take a fraction of a second.
constexpr const char *kSmallFfn =
    "name: ffn8\ndims: {m: 8, k: 4, n: 8, l: 4}\nops:\n"
    "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
    "  - {name: act, kind: elementwise, tensor: H, out: G, ops_per_element: 1}\n"
    "  - {name: down, einsum: \"O[m,l] += G[m,n] * W2[n,l]\"}\n";

/// `dse explore` of w.yaml on a16-timeloop over latency and buffer words, pairs searched fused.
std::vector<std::string> fused_explore() {
  return {"explore",        "--hw",         repo_file("hw_configs/a16-timeloop.yaml"),
          "--workload",     "w.yaml",       "--objectives",
          "latency,buffer", "--hier-fusion"};
}

TEST_F(HierExploreTest, FusedPairsRoundTripThroughEmitMappingAndEval) {
  write("w.yaml", kSmallFfn);
  const std::vector<std::string> args = fused_explore();
  const Csv front = parse_csv(run_ok(args).out);
  ASSERT_GT(front.rows.size(), 1u);
  size_t fused = 0;
  const size_t stride = test_common::per_suite<size_t>(1, 2); // and the last point
  for (size_t i = 0; i < front.rows.size(); ++i) {
    const std::string mapping = front.text(i, "mapping");
    const bool is_fused = mapping.starts_with("up + down (fused): prefix[");
    fused += is_fused ? 1 : 0;
    if (i % stride != 0 && i + 1 != front.rows.size())
      continue;
    const std::string yaml = run_ok(concat(args, {"--emit-mapping", std::to_string(i)})).out;
    EXPECT_EQ(is_fused, yaml.find("  - ops: [up, down]\n    prefix: [") != std::string::npos)
        << yaml;
    write("m.yaml", yaml);
    const nlohmann::json eval =
        nlohmann::json::parse(run_ok({"eval", "--hw", repo_file("hw_configs/a16-timeloop.yaml"),
                                      "--workload", "w.yaml", "--mapping", "m.yaml", "--json"})
                                  .out);
    // The same parts, added up in another order (cycles before seconds).
    EXPECT_DOUBLE_EQ(eval["total"]["latency_s"].get<double>(), front.number(i, "latency_s"))
        << yaml;
    EXPECT_DOUBLE_EQ(eval["total"]["energy_pj"].get<double>(), front.number(i, "energy_pj"))
        << yaml;
  }
  EXPECT_GT(fused, 0u);
  EXPECT_LT(fused, front.rows.size()); // the least buffer runs the operators alone

  const nlohmann::json doc = nlohmann::json::parse(run_ok(concat(args, {"--json"})).out);
  ASSERT_EQ(doc["front"].size(), front.rows.size());
  const nlohmann::json &first = doc["front"][0]["operators"][0];
  EXPECT_EQ(first["operator"], "up + down (fused)");
  EXPECT_TRUE(first["fused"].contains("retention"));
  EXPECT_EQ(first["fused"]["mappings"]["down"].size(), 4u); // DRAM, GB, PE fan-out, RF

  const RunResult verbose = run(concat(args, {"-v"}));
  ASSERT_EQ(verbose.exit_code, 0) << verbose.err;
  EXPECT_NE(verbose.err.find("up + down (fused): "), std::string::npos) << verbose.err;
  EXPECT_NE(verbose.err.find(" loop trees; "), std::string::npos) << verbose.err;
}

// The FFN's output starts from a residual: alone or fused, every front point evaluates back to
// itself, its report names the residual, and the output's first reads at DRAM are not elided
// (each element's first read reads R), so its reads there equal its updates.
TEST_F(HierExploreTest, AResidualRoundTripsThroughEmitMappingAndEval) {
  std::string workload = kSmallFfn;
  const std::string down = "einsum: \"O[m,l] += G[m,n] * W2[n,l]\"";
  workload.replace(workload.find(down), down.size(), down + ", residual: R");
  write("w.yaml", workload);
  const std::vector<std::string> args = fused_explore();
  const Csv front = parse_csv(run_ok(args).out);
  ASSERT_GT(front.rows.size(), 1u);
  size_t fused = 0;
  for (size_t i = 0; i < front.rows.size(); ++i) {
    fused += front.text(i, "mapping").starts_with("up + down (fused)") ? 1 : 0;
    write("m.yaml", run_ok(concat(args, {"--emit-mapping", std::to_string(i)})).out);
    const std::vector<std::string> eval = {"eval",   "--hw",      args[2], "--workload",
                                           "w.yaml", "--mapping", "m.yaml"};
    const nlohmann::json doc = nlohmann::json::parse(run_ok(concat(eval, {"--json"})).out);
    EXPECT_DOUBLE_EQ(doc["total"]["latency_s"].get<double>(), front.number(i, "latency_s"));
    EXPECT_DOUBLE_EQ(doc["total"]["energy_pj"].get<double>(), front.number(i, "energy_pj"));
    const nlohmann::json &last = doc["segments"].back();
    EXPECT_EQ(last["residuals"], nlohmann::json({{"O", "R"}})) << last.dump();
    const nlohmann::json &o = last["levels"][0]["tensors"]["O"];
    EXPECT_EQ(o["reads"], o["updates"]) << o.dump();
    EXPECT_NE(run_ok(eval).out.find("\n  residual: O starts from R ("), std::string::npos);
  }
  EXPECT_GT(fused, 0u);
}

TEST_F(HierExploreTest, WithoutHierFusionNoPairIsFused) {
  write("w.yaml", kSmallFfn);
  const Csv front = parse_csv(run_ok({"explore", "--hw", repo_file("hw_configs/a16-timeloop.yaml"),
                                      "--workload", "w.yaml", "--objectives", "latency,buffer"})
                                  .out);
  for (size_t i = 0; i < front.rows.size(); ++i)
    EXPECT_EQ(front.text(i, "mapping").find("(fused)"), std::string::npos);
}

TEST_F(HierExploreTest, HierFusionIsRefusedWhereItDoesNotApply) {
  expect_error({"explore", "--hw", repo_file("hw_configs/sim-1g-1mb-60gbps.yaml"), "--workload",
                repo_file("workloads/gemm-256.yaml"), "--hier-fusion"},
               "error: --hier-fusion applies to general hierarchies; on this hardware fused pairs "
               "are searched unless --no-fusion");
  expect_usage_error(concat(kExploreA16, {"--hier-fusion", "--no-fusion"}),
                     "--no-fusion excludes --hier-fusion");
  expect_error(concat(kExploreA16, {"--every-column"}),
               "error: --every-column applies to single-level hardware, whose search skips boxes "
               "of tilings; general hierarchies are searched level by level");
}

} // namespace
} // namespace dse::testing
