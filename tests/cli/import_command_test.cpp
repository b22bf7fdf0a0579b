// `dse import` end to end: on the written files `dse eval` prints the bytes it prints on the
// Timeloop files (the 80 reference mappings, an affine problem), the writers read back as the
// same hierarchy, workload and mapping and write the same bytes again, and every error names its
// cause and leaves no output behind.
#include <algorithm>
#include <filesystem>

#include "cli_fixture.hpp"
#include "dse/cli/hardware_yaml_writer.hpp"
#include "dse/cli/hier_mapping_yaml.hpp"
#include "dse/cli/workload_yaml_writer.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/config/hier_mapping_loader.hpp"
#include "dse/config/timeloop_loader.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse::testing {
namespace {

const std::string kInputs = "tests/data/timeloop-a16/inputs/";

/// The Timeloop files of one reference mapping.
struct TimeloopFiles {
  std::string arch, ert, problem, mapping;
};

TimeloopFiles reference_files(const std::string &id) {
  const std::string dir = repo_file(kInputs + id + "/");
  return {dir + "arch.yaml", dir + "ert.yaml", dir + "problem.yaml", dir + "map.yaml"};
}

/// The ids of the 80 reference mappings, sorted.
std::vector<std::string> reference_ids() {
  std::vector<std::string> ids;
  for (const auto &entry : std::filesystem::directory_iterator(repo_file(kInputs)))
    ids.push_back(entry.path().filename().string());
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::vector<std::string> import_args(const TimeloopFiles &f, const std::string &dir) {
  return {"import",  "--hw",      f.arch,    "--ert", f.ert, "--workload",
          f.problem, "--mapping", f.mapping, "-o",    dir};
}

std::vector<std::string> timeloop_eval(const TimeloopFiles &f) {
  return {"eval", "--hw", f.arch, "--ert", f.ert, "--workload", f.problem, "--mapping", f.mapping};
}

std::vector<std::string> imported_eval(const std::string &dir) {
  return {"eval",
          "--hw",
          dir + "/hardware.yaml",
          "--workload",
          dir + "/workload.yaml",
          "--mapping",
          dir + "/mapping.yaml"};
}

/// A one-dimensional convolution with a strided window (`2*P+R`), mapped onto the reference
/// architecture.
const std::string kConvProblem = R"(problem:
  shape:
    name: Conv1D
    dimensions: [K, C, P, R]
    coefficients: [{name: Wstride, default: 1}]
    data-spaces:
    - {name: Weights, projection: [[[K]], [[C]], [[R]]]}
    - {name: Inputs, projection: [[[C]], [[P, Wstride], [R]]]}
    - {name: Outputs, projection: [[[K]], [[P]]], read-write: True}
  instance: {K: 16, C: 8, P: 14, R: 3, Wstride: 2}
)";
const std::string kConvMapping = R"(mapping:
- {target: RegisterFile, type: datatype, keep: [Outputs], bypass: [Weights, Inputs]}
- {target: RegisterFile, type: temporal, factors: R3, permutation: R}
- {target: GlobalBuffer, type: spatial, factors: K16 C8, permutation: KC, split: 1}
- {target: GlobalBuffer, type: temporal, factors: P7, permutation: P}
- {target: DRAM, type: temporal, factors: P2, permutation: P}
)";

/// A general-form file that sets every key the writer can write to a value other than its
/// default, with names that YAML must quote.
const std::string kEveryKey = R"(name: "every key: quoted"
source: "a \"quoted\" source"
clock_ghz: 0.7
word_bytes: 4
first_read_elision: false
hierarchy:
  - {level: DRAM, bandwidth_gbps: 60, read_energy_pj: 0.1, write_energy_pj: 3.3}
  - {level: "null", capacity_kib: 3, read_bandwidth_words_per_cycle: 1.5,
     write_bandwidth_words_per_cycle: 0.25, read_energy_pj: 1e-7, write_energy_pj: 2,
     fill_energy_pj: 2.5, update_energy_pj: 7, holds: [operand1, output], double_buffering: true}
  - {fanout: "2x", x: 3, y: 5, multicast: false, reduction: false}
  - {fanout: lanes, x: 4}
  - {level: RF, capacity_words: 7, bandwidth_words_per_cycle: 1e12, read_energy_pj: 0,
     write_energy_pj: 0.3}
  - {fanout: last, x: 2, y: 2}
compute: {fma_energy_pj: 0.123456789012345, vector: true}
dma_units:
  - {name: in, direction: load, bandwidth_gbps: 12.5}
  - {name: out, direction: store, bandwidth_gbps: 1e-3}
)";

/// The hierarchy and the fields around it that the general form carries.
void expect_same_hardware(const Hardware &a, const Hardware &b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.clock_ghz, b.clock_ghz);
  EXPECT_EQ(a.word_bytes, b.word_bytes);
  ASSERT_EQ(a.dma_units.size(), b.dma_units.size());
  for (size_t i = 0; i < a.dma_units.size(); ++i) {
    EXPECT_EQ(a.dma_units[i].name, b.dma_units[i].name);
    EXPECT_EQ(a.dma_units[i].direction, b.dma_units[i].direction);
    EXPECT_EQ(a.dma_units[i].bandwidth_gbps, b.dma_units[i].bandwidth_gbps);
  }
  EXPECT_TRUE(a.hierarchy == b.hierarchy) << "the hierarchies differ";
}

void expect_same_mapping(const OpMapping &a, const OpMapping &b) {
  ASSERT_EQ(a.levels.size(), b.levels.size());
  for (size_t l = 0; l < a.levels.size(); ++l) {
    EXPECT_EQ(a.levels[l].order, b.levels[l].order) << "level " << l;
    EXPECT_EQ(a.levels[l].factor, b.levels[l].factor) << "level " << l;
    EXPECT_EQ(a.levels[l].keep, b.levels[l].keep) << "level " << l;
  }
  ASSERT_EQ(a.fanouts.size(), b.fanouts.size());
  for (size_t l = 0; l < a.fanouts.size(); ++l) {
    ASSERT_EQ(a.fanouts[l].size(), b.fanouts[l].size());
    for (size_t f = 0; f < a.fanouts[l].size(); ++f) {
      EXPECT_EQ(a.fanouts[l][f].x, b.fanouts[l][f].x) << "fan-out " << l << "." << f;
      EXPECT_EQ(a.fanouts[l][f].y, b.fanouts[l][f].y) << "fan-out " << l << "." << f;
    }
  }
}

/// A mapping file of one segment, as dse import writes it.
std::string mapping_file(const Hardware &hw, const Workload &workload, const OpMapping &mapping) {
  return hier_mapping_header(workload) + hier_segment_yaml(hw, workload, 0, mapping);
}

class ImportCommand : public CliTest {
protected:
  /// Imports `f` into `dir`, then expects `dse eval` on the written files to print exactly what
  /// it prints on the Timeloop files, with `extra` options.
  void expect_same_eval(const TimeloopFiles &f, const std::string &dir,
                        const std::vector<std::vector<std::string>> &extras) const {
    run_ok(import_args(f, dir));
    for (const std::vector<std::string> &extra : extras)
      EXPECT_EQ(run_ok(concat(imported_eval(dir), extra)).out,
                run_ok(concat(timeloop_eval(f), extra)).out);
  }
};

// Every fifth reference mapping (four per shape; the in-process test below reads back all 80),
// the first of each shape also as JSON, without elision and with the sequential latency model.
TEST_F(ImportCommand, EvalOnTheWrittenFilesPrintsTheSameBytes) {
  const std::vector<std::string> ids = reference_ids();
  ASSERT_EQ(ids.size(), 80u);
  const std::vector<std::vector<std::string>> text_only = {{}};
  const std::vector<std::vector<std::string>> every_output = {
      {}, {"--json"}, {"--no-first-read-elision"}, {"--latency-model", "sequential", "--json"}};
  for (size_t i = 0; i < ids.size(); i += 5) {
    SCOPED_TRACE(ids[i]);
    const bool first_of_shape = ids[i].ends_with("_00");
    expect_same_eval(reference_files(ids[i]), ids[i], first_of_shape ? every_output : text_only);
  }
}

TEST_F(ImportCommand, WritesTheGeneralFormsOfTheReferenceFiles) {
  run_ok(import_args(reference_files("a16_M256_N256_K256_00"), "a16"));
  EXPECT_EQ(read("a16/hardware.yaml"), R"(name: system
clock_ghz: 1
word_bytes: 2
hierarchy:
  - {level: DRAM, bandwidth_words_per_cycle: 4, read_energy_pj: 100, write_energy_pj: 100}
  - {level: GlobalBuffer, capacity_words: 65536, bandwidth_words_per_cycle: 64, read_energy_pj: 6, write_energy_pj: 6}
  - {fanout: PE, x: 16, y: 16}
  - {level: RegisterFile, capacity_words: 16, read_energy_pj: 0.5, write_energy_pj: 0.5}
compute: {mac_energy_pj: 1}
)");
  EXPECT_EQ(read("a16/workload.yaml"), R"(name: GEMM
dims: {M: 256, N: 256, K: 256}
ops:
  - {name: GEMM, einsum: "Z[M,N] += A[M,K] * B[K,N]"}
)");
  EXPECT_EQ(read("a16/mapping.yaml"), R"(workload: GEMM
segments:
  - ops: [GEMM]
    levels:
      - {level: DRAM, order: [M, N], factors: {M: 16, N: 8}}
      - {level: GlobalBuffer, order: [K], factors: {K: 32}, keep: [A, B, Z]}
      - {fanout: PE, x: {N: 16}, y: {M: 16}}
      - {level: RegisterFile, order: [N, K], factors: {N: 2, K: 8}, keep: [Z]}
)");
}

TEST_F(ImportCommand, AffineIndicesAndCoefficientsGiveTheSameEval) {
  write("conv.yaml", kConvProblem);
  write("conv-map.yaml", kConvMapping);
  TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  f.problem = "conv.yaml";
  f.mapping = "conv-map.yaml";
  expect_same_eval(f, "conv", {{}, {"--json"}, {"--no-first-read-elision"}});
  EXPECT_NE(read("conv/workload.yaml").find("Outputs[K,P] += Weights[K,C,R] * Inputs[C,2*P+R]"),
            std::string::npos);
}

TEST_F(ImportCommand, WithoutAMappingWritesHardwareAndWorkloadOnlyAndReplacesTheDirectory) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  run_ok(import_args(f, "out"));
  // The energy table may also sit beside the architecture in one file.
  write("arch-ert.yaml", read(f.arch) + read(f.ert));
  run_ok({"import", "--hw", "arch-ert.yaml", "--workload", f.problem, "-o", "out"});
  std::vector<std::string> files;
  for (const auto &entry : std::filesystem::directory_iterator(dir_ / "out"))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"hardware.yaml", "workload.yaml"}));
}

TEST_F(ImportCommand, WrittenFilesReadBackAsTheSameModelAndWriteTheSameBytes) {
  for (const std::string &id : reference_ids()) {
    SCOPED_TRACE(id);
    const TimeloopFiles f = reference_files(id);
    const Hardware hw = load_timeloop_architecture(f.arch, f.ert);
    const Workload workload = load_timeloop_problem(f.problem);
    const OpMapping mapping = load_timeloop_mapping(f.mapping, hw, workload);
    const std::string hw_text = hardware_yaml(hw);
    const std::string workload_text = workload_yaml(workload);
    const std::string mapping_text = mapping_file(hw, workload, mapping);

    const Hardware hw2 = parse_hardware(hw_text, "hardware.yaml");
    const Workload workload2 = parse_workload(workload_text, "workload.yaml");
    const std::vector<HierSegmentMapping> segments =
        parse_hier_mapping(mapping_text, "mapping.yaml", hw2, workload2);
    ASSERT_EQ(segments.size(), 1u);
    expect_same_hardware(hw, hw2);
    expect_same_mapping(mapping, segments[0].mapping);
    EXPECT_EQ(hardware_yaml(hw2), hw_text);
    EXPECT_EQ(workload_yaml(workload2), workload_text);
    EXPECT_EQ(mapping_file(hw2, workload2, segments[0].mapping), mapping_text);
  }
}

TEST_F(ImportCommand, HardwareWriterRoundTripsTheReferenceArchitectureExactly) {
  const Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
  const std::string text = hardware_yaml(hw);
  const Hardware again = parse_hardware(text, "hardware.yaml");
  expect_same_hardware(hw, again);
  EXPECT_EQ(hardware_yaml(again), text);
  // The Timeloop files of the reference set describe the same hierarchy.
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  EXPECT_TRUE(load_timeloop_architecture(f.arch, f.ert).hierarchy == hw.hierarchy);
}

TEST_F(ImportCommand, HardwareWriterRoundTripsEveryKeyItWrites) {
  const Hardware hw = parse_hardware(kEveryKey, "every-key.yaml");
  const std::string text = hardware_yaml(hw);
  const Hardware again = parse_hardware(text, "hardware.yaml");
  expect_same_hardware(hw, again);
  EXPECT_EQ(hardware_yaml(again), text);
  EXPECT_NE(text.find("{level: \"null\", capacity_words: 768"), std::string::npos) << text;
  EXPECT_NE(text.find("{fanout: \"2x\", x: 3, y: 5, multicast: false, reduction: false}"),
            std::string::npos)
      << text;
}

/// A workload with every kind of operator, vector work per element and quoted names.
const std::string kEveryOp = R"(name: "every op"
dims: {m: 8, n: 6, k: 4, r: 3}
ops:
  - {name: "1st", einsum: "S[m,n] += Q[m,3*k+r] * K[n,k]"}
  - {name: softmax, kind: softmax, over: n, tensor: S, out: P, ops_per_element: 2.5}
  - {name: relu, kind: elementwise, tensor: P, out: P2}
  - {name: pv, einsum: "O[m,k] += P2[m,n] * V[n,k]", residual: R}
)";

/// `workload` written, read back and written again: the same name, dimensions and bytes.
void expect_workload_round_trip(const Workload &workload) {
  const std::string text = workload_yaml(workload);
  const Workload again = parse_workload(text, "workload.yaml");
  EXPECT_EQ(workload_yaml(again), text);
  EXPECT_EQ(again.name, workload.name);
  ASSERT_EQ(again.dims.size(), workload.dims.size());
  for (size_t d = 0; d < workload.dims.size(); ++d) {
    EXPECT_EQ(again.dims[d].name, workload.dims[d].name);
    EXPECT_EQ(again.dims[d].size, workload.dims[d].size);
  }
}

TEST_F(ImportCommand, WorkloadWriterRoundTripsTheShippedWorkloadsAndEveryOperatorKind) {
  for (const auto &entry : std::filesystem::directory_iterator(repo_file("workloads"))) {
    SCOPED_TRACE(entry.path().string());
    expect_workload_round_trip(load_workload(entry.path().string()));
  }
  const Workload every_op = parse_workload(kEveryOp, "every-op.yaml");
  expect_workload_round_trip(every_op);
  EXPECT_EQ(workload_yaml(every_op), R"(name: "every op"
dims: {m: 8, n: 6, k: 4, r: 3}
ops:
  - {name: "1st", einsum: "S[m,n] += Q[m,3*k+r] * K[n,k]"}
  - {name: softmax, kind: softmax, over: n, tensor: S, out: P, ops_per_element: 2.5}
  - {name: relu, kind: elementwise, tensor: P, out: P2, ops_per_element: 1}
  - {name: pv, einsum: "O[m,k] += P2[m,n] * V[n,k]", residual: R}
)");
}

TEST_F(ImportCommand, MappingWriterRoundTripsTheShippedMapping) {
  const Hardware hw = load_hardware(repo_file("hw_configs/a16-timeloop.yaml"));
  const Workload workload = load_workload(repo_file("workloads/gemm-256.yaml"));
  const std::vector<HierSegmentMapping> shipped =
      load_hier_mapping(repo_file("mappings/a16-gemm-256.yaml"), hw, workload);
  ASSERT_EQ(shipped.size(), 1u);
  const std::string text = mapping_file(hw, workload, shipped[0].mapping);
  const std::vector<HierSegmentMapping> again =
      parse_hier_mapping(text, "mapping.yaml", hw, workload);
  ASSERT_EQ(again.size(), 1u);
  expect_same_mapping(shipped[0].mapping, again[0].mapping);
  EXPECT_EQ(mapping_file(hw, workload, again[0].mapping), text);
}

TEST_F(ImportCommand, ATimeloopArchitectureNeedsItsEnergyTable) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  expect_error({"import", "--hw", f.arch, "--workload", f.problem},
               f.arch + ": error: a Timeloop architecture needs its energies: give --ert FILE (a "
                        "Timeloop energy reference table)");
}

TEST_F(ImportCommand, EachInputMustHoldItsTimeloopSection) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  expect_error({"import", "--hw", f.problem, "--ert", f.ert, "--workload", f.problem},
               f.problem + ": error: --hw takes a Timeloop architecture (top-level key "
                           "'architecture'); this file has 'problem'");
  expect_error({"import", "--hw", f.arch, "--ert", f.arch, "--workload", f.problem},
               f.arch + ": error: --ert takes a Timeloop energy reference table (top-level key "
                        "'ERT'); this file has 'architecture'");
  const std::string dse_workload = repo_file("workloads/gemm-256.yaml");
  expect_error({"import", "--hw", f.arch, "--ert", f.ert, "--workload", dse_workload},
               dse_workload + ": error: --workload takes a Timeloop problem (top-level key "
                              "'problem'); this file has no Timeloop key (dse import reads "
                              "Timeloop files)");
  write("problem-and-ert.yaml", read(f.problem) + read(f.ert));
  expect_error({"import", "--hw", f.arch, "--ert", f.ert, "--workload", f.problem, "--mapping",
                "problem-and-ert.yaml"},
               "problem-and-ert.yaml: error: --mapping takes a Timeloop mapping (top-level key "
               "'mapping'); this file has 'problem' and 'ERT'");
}

TEST_F(ImportCommand, AMappingThatEvalRefusesIsRefusedWithTheSameMessage) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  write("small-rf.yaml", with(read(f.arch), "entries: 16", "entries: 1"));
  const std::string message = f.mapping + ": error: level 'RegisterFile' needs 2 words per "
                                          "instance for its tiles, more than its capacity of 1";
  expect_error({"import", "--hw", "small-rf.yaml", "--ert", f.ert, "--workload", f.problem,
                "--mapping", f.mapping},
               message);
  const RunResult eval = run({"eval", "--hw", "small-rf.yaml", "--ert", f.ert, "--workload",
                              f.problem, "--mapping", f.mapping});
  EXPECT_EQ(eval.err, message + "\n");
}

TEST_F(ImportCommand, ATensorNameAnEinsumCannotSpellIsAnError) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  write("problem.yaml", with(read(f.problem), "name: A\n", "name: in-put\n"));
  expect_error({"import", "--hw", f.arch, "--ert", f.ert, "--workload", "problem.yaml"},
               "problem.yaml:4:5: error: tensor 'in-put' of 'GEMM' cannot be written in a dse "
               "einsum, whose tensor names are identifiers (letters, digits and _, not starting "
               "with a digit)");
}

TEST_F(ImportCommand, AnUnwritableOutputDirectoryLeavesNothingBehind) {
  const TimeloopFiles f = reference_files("a16_M256_N256_K256_00");
  write("notes.txt", "kept\n");
  const std::vector<std::string> before = listing();
  const RunResult r = run(import_args(f, "notes.txt/out"));
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: cannot write output directory 'notes.txt/out': Not a directory\n");
  EXPECT_EQ(listing(), before);
  EXPECT_EQ(read("notes.txt"), "kept\n");
}

} // namespace
} // namespace dse::testing
