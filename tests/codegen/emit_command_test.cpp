// `dse emit` and `dse run` end to end through the binary, their error messages, and an arena
// overflow that the emitted source itself refuses to compile.
#include "codegen/kernel_fixture.hpp"

#include <fstream>

#include "common/repo_files.hpp"
#include "dse/codegen/kernel_runner.hpp"
#include "dse/config/hardware_loader.hpp"

namespace dse::codegen_test {
namespace {

const std::string kGemm = test_common::gemm_workload("gemm", 40, 24, 36);

class EmitCommand : public ::testing::Test {
protected:
  EmitCommand() : dir_("dse-emit-test") {
    write("hw.yaml", vector_hardware(4096));
    write("tiny-hw.yaml", vector_hardware(512));
    write("gemm.yaml", kGemm);
    write("whole.yaml", mapping("gemm", {segment("[mm]", "", "mm: [m, n, k]", "A: 0, B: 0, C: 0",
                                                 "m: 8, n: 12, k: 8")}));
  }

  void write(const std::string &name, const std::string &text) const {
    std::ofstream(dir_.path() / name) << text;
  }
  bool exists(const std::string &name) const { return std::filesystem::exists(dir_.path() / name); }

  /// Runs `dse args` inside the scratch directory.
  ProcessResult dse(const std::string &args) const {
    return run_captured("cd " + shell_quote(dir_.path().string()) + " && " +
                            shell_quote(DSE_BINARY) + " " + args,
                        dir_.path());
  }

  ScratchDir dir_;
};

/// A `dse run` that exited 0, every count equal to the model's and the numeric check passed.
void expect_run_passed(const ProcessResult &r, const std::string &what) {
  EXPECT_EQ(r.exit_code, 0) << what << ": " << r.out << r.err;
  EXPECT_NE(r.out.find("counts equal the model's prediction"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check: passed"), std::string::npos) << r.out;
}

TEST_F(EmitCommand, EmitWritesOneSelfContainedSource) {
  const ProcessResult r =
      dse("emit --hw hw.yaml --workload gemm.yaml --mapping whole.yaml -o k.cpp");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  std::ifstream in(dir_.path() / "k.cpp");
  const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(source.find("float gb[kGbWords];"), std::string::npos);
  EXPECT_NE(source.find("static_assert(3264 <= kGbWords"), std::string::npos); // 40*24+24*36+40*36
  EXPECT_NE(source.find("int main(int argc, char **argv)"), std::string::npos);
}

TEST_F(EmitCommand, RunComparesEveryCountWithTheModel) {
  const ProcessResult r = dse("run --hw hw.yaml --workload gemm.yaml --point 0 --repeat 1");
  expect_run_passed(r, "gemm point 0");
  EXPECT_EQ(r.out.find(" NO\n"), std::string::npos) << r.out;
}

TEST_F(EmitCommand, ErrorsNameTheProblem) {
  const ProcessResult both =
      dse("emit --hw hw.yaml --workload gemm.yaml --point 0 --mapping whole.yaml -o k.cpp");
  EXPECT_EQ(both.exit_code, 1);
  EXPECT_EQ(both.err, "error: give exactly one of --point N and --mapping FILE\n");
  const ProcessResult far = dse("emit --hw hw.yaml --workload gemm.yaml --point 999 -o k.cpp");
  EXPECT_EQ(far.exit_code, 1);
  EXPECT_NE(far.err.find("error: --point 999: the front has "), std::string::npos) << far.err;
  const ProcessResult full =
      dse("emit --hw tiny-hw.yaml --workload gemm.yaml --mapping whole.yaml -o k.cpp");
  EXPECT_EQ(full.exit_code, 1);
  EXPECT_EQ(full.err, "error: segment 'single | mm: m n k | keep A@0 B@0 C@0 | spatial mm(-,-) | "
                      "tiles m=8 k=8 n=12' needs 3264 global-buffer words at its peak, more than "
                      "'GlobalBuffer' holds (512)\n");
  EXPECT_FALSE(exists("k.cpp"));
}

TEST_F(EmitCommand, RunExecutesPairsFusedThroughAWindowAndChainsOfThree) {
  write("window.yaml", "name: w\ndims: {p: 6, c: 2, k: 2, r: 3, a: 4, u: 3, j: 2}\nops:\n"
                       "  - {name: conv3a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n"
                       "  - {name: conv3b, einsum: \"Z[j,a] += W2[j,k,u] * Y[k,a+u]\"}\n");
  write("window-map.yaml",
        mapping("w", {segment("[conv3a, conv3b]", "[a]", "conv3a: [k, c], conv3b: [j, k]",
                              "W1: 0, X: 1, Y: 1, W2: 0, Z: 1", "a: 2, k: 2, c: 2, j: 2") +
                      "    cache: [a]\n"}));
  write("chain.yaml", "name: w\ndims: {m: 8, k: 4, n: 4, l: 4}\nops:\n"
                      "  - {name: mm1, einsum: \"Y1[m,n] += X[m,k] * W1[k,n]\"}\n"
                      "  - {name: scale, einsum: \"Y2[m,n] += Y1[m,n] * S[n]\"}\n"
                      "  - {name: mm2, einsum: \"Z[m,l] += Y2[m,n] * W2[n,l]\"}\n");
  write("chain-map.yaml",
        mapping("w", {segment("[mm1, scale, mm2]", "[m]", "mm1: [k, n], scale: [n], mm2: [n, l]",
                              "X: 1, W1: 0, Y1: 1, S: 0, Y2: 1, W2: 0, Z: 1",
                              "m: 4, k: 4, n: 4, l: 4")}));
  for (const char *run : {"--workload window.yaml --mapping window-map.yaml",
                          "--workload chain.yaml --mapping chain-map.yaml"}) {
    expect_run_passed(dse(std::string("run --hw hw.yaml --repeat 1 ") + run), run);
  }
}

TEST_F(EmitCommand, SoftmaxInChainsOfThreeIsRefusedByName) {
  write("chain.yaml", "name: w\ndims: {m: 8, k: 4, n: 4, l: 4}\nops:\n"
                      "  - {name: mm1, einsum: \"Y1[m,n] += X[m,k] * W1[k,n]\"}\n"
                      "  - {name: sm, kind: softmax, over: n, tensor: Y1, out: P}\n"
                      "  - {name: scale, einsum: \"Y2[m,n] += P[m,n] * S[n]\"}\n"
                      "  - {name: mm2, einsum: \"Z[m,l] += Y2[m,n] * W2[n,l]\"}\n");
  write("fused.yaml",
        mapping("w", {segment("[mm1, scale, mm2]", "[m]", "mm1: [k, n], scale: [n], mm2: [n, l]",
                              "X: 1, W1: 0, Y1: 1, S: 0, Y2: 1, W2: 0, Z: 1",
                              "m: 4, k: 4, n: 4, l: 4")}));
  const ProcessResult r =
      dse("emit --hw hw.yaml --workload chain.yaml --mapping fused.yaml -o k.cpp");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: softmax op 'sm' in a fused chain of 3: the emitter executes softmax on "
                   "single operators and fused pairs only\n");
  EXPECT_FALSE(exists("k.cpp"));
}

/// A mapping of gemm-256 on a16-timeloop whose level 1 keeps `keep`.
std::string a16_gemm_mapping(const std::string &keep) {
  return "workload: gemm-256\nsegments:\n  - ops: [gemm]\n    levels:\n"
         "      - {level: DRAM, order: [m, n, k], factors: {m: 2, k: 4, n: 2}}\n"
         "      - {level: GlobalBuffer, order: [n, m], factors: {m: 128, n: 4}, keep: [" +
         keep +
         "]}\n"
         "      - {fanout: PE, x: {k: 16}, y: {n: 4, k: 4}}\n"
         "      - {level: RegisterFile, order: [n], factors: {n: 8}, keep: [A, B]}\n";
}

TEST_F(EmitCommand, RunOnAGeneralHierarchyComparesWithTheHierarchicalModel) {
  const std::string a16 = "--hw " + test_common::repo_file("hw_configs/a16-timeloop.yaml") +
                          " --workload " + test_common::repo_file("workloads/gemm-256.yaml");
  const ProcessResult point = dse("run " + a16 + " --point 0 --repeat 1");
  expect_run_passed(point, "gemm-256 point 0");
  EXPECT_NE(point.out.find("front point 0 (objectives latency,energy, tiles divisors, level 1 "
                           "keeping every tile)"),
            std::string::npos)
      << point.out;

  write("keep-all.yaml", a16_gemm_mapping("A, B, Z"));
  const ProcessResult mapped = dse("run " + a16 + " --mapping keep-all.yaml --repeat 1");
  expect_run_passed(mapped, "keep-all.yaml");
  // DRAM: A and B read once per tile of the other's free dimension, Z written once.
  EXPECT_NE(mapped.out.find("gemm                    A               reads               131072  "
                            "          131072  yes"),
            std::string::npos)
      << mapped.out;

  // Fused pairs keep every tile at level 1: with --hier-fusion, the front's first point is one.
  write("ffn.yaml", "name: ffn\ndims: {m: 8, k: 4, n: 8, l: 4}\nops:\n"
                    "  - {name: up, einsum: \"H[m,n] += A[m,k] * W1[k,n]\"}\n"
                    "  - {name: down, einsum: \"O[m,l] += H[m,n] * W2[n,l]\"}\n");
  const ProcessResult fused =
      dse("run --hw " + test_common::repo_file("hw_configs/a16-timeloop.yaml") +
          " --workload ffn.yaml --point 0 --hier-fusion --objectives "
          "latency,buffer --repeat 1");
  expect_run_passed(fused, "ffn point 0, fused");
  EXPECT_NE(fused.out.find("\nup+down fused "), std::string::npos) << fused.out;

  write("bypass.yaml", a16_gemm_mapping("A, Z"));
  const ProcessResult bypass = dse("emit " + a16 + " --mapping bypass.yaml -o k.cpp");
  EXPECT_EQ(bypass.exit_code, 1);
  EXPECT_EQ(bypass.err, "bypass.yaml:3:5: error: dse emit/run: op 'gemm' bypasses level 1 "
                        "'GlobalBuffer' for 'B'; a kernel holds every tile at level 1\n");
  EXPECT_FALSE(exists("k.cpp"));
}

TEST_F(EmitCommand, RunReadsTimeloopFilesAsEvalDoes) {
  const std::string dir = test_common::repo_file("tests/data/timeloop-a16/inputs/");
  const auto inputs = [&](const std::string &id) {
    return "--hw " + dir + id + "/arch.yaml --ert " + dir + id + "/ert.yaml --workload " + dir +
           id + "/problem.yaml --mapping " + dir + id + "/map.yaml";
  };
  const ProcessResult kept = dse("run " + inputs("a16_M256_N256_K256_00") + " --repeat 1");
  expect_run_passed(kept, "a16_M256_N256_K256_00");
  // Timeloop's DRAM reads of B for this mapping (tests/data/timeloop-a16/a16_gemm.jsonl).
  EXPECT_NE(kept.out.find("GEMM                    B               reads              1048576  "
                          "         1048576  yes"),
            std::string::npos)
      << kept.out;

  const ProcessResult bypass = dse("emit " + inputs("a16_M1024_N1024_K64_02") + " -o k.cpp");
  EXPECT_EQ(bypass.exit_code, 1);
  EXPECT_EQ(bypass.err, dir + "a16_M1024_N1024_K64_02/map.yaml: error: dse emit/run: op 'GEMM' "
                              "bypasses level 1 'GlobalBuffer' for 'Z'; a kernel holds every "
                              "tile at level 1\n");
  EXPECT_FALSE(exists("k.cpp"));
}

TEST(ArenaOverflow, TheSourceDoesNotCompile) {
  const Schedule s(kGemm, mapping("gemm", {segment("[mm]", "", "mm: [m, n, k]", "A: 0, B: 0, C: 0",
                                                   "m: 8, n: 12, k: 8")}));
  const KernelOutcome k =
      build_and_run(s.segments(), parse_hardware(vector_hardware(512), "hw.yaml"), "overflow");
  EXPECT_NE(k.compile_exit, 0);
  EXPECT_NE(k.compile_errors.find("segment 0 needs 3264 words of global buffer at its peak, more "
                                  "than 'GlobalBuffer' holds"),
            std::string::npos)
      << k.compile_errors;
}

} // namespace
} // namespace dse::codegen_test
