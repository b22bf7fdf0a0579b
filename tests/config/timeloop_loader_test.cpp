// Tests of the Timeloop readers (src/config/timeloop_*.cpp): the 80 shipped reference inputs
// against their tool-neutral description in a16_gemm.jsonl, the accepted spellings, and one test
// per error message with its exact file:line:col and text.
#include "dse/config/timeloop_loader.hpp"

#include <fstream>

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "common/timeloop_reference.hpp"
#include "config/expect_error.hpp"

namespace dse {
namespace {

using testing::error_what;
using testing::with;

// ---------------------------------------------------------------------------------------------
// The 80 reference records.

using test_common::timeloop_input_path;
using test_common::timeloop_reference_records;

/// The loaded inputs of one record.
struct Loaded {
  Hardware hw;
  Workload workload;
  OpMapping mapping;
};

Loaded load_record(const YAML::Node &record) {
  Loaded loaded{load_timeloop_architecture(timeloop_input_path(record, "arch"),
                                           timeloop_input_path(record, "ert")),
                load_timeloop_problem(timeloop_input_path(record, "problem")),
                {}};
  loaded.mapping =
      load_timeloop_mapping(timeloop_input_path(record, "map"), loaded.hw, loaded.workload);
  return loaded;
}

void expect_architecture(const Hierarchy &h, const Hardware &hw, const YAML::Node &arch) {
  ASSERT_EQ(h.levels.size(), 3u);
  EXPECT_EQ(h.levels[0].name, "DRAM");
  EXPECT_EQ(h.levels[1].name, "GlobalBuffer");
  EXPECT_EQ(h.levels[2].name, "RegisterFile");
  EXPECT_FALSE(h.levels[0].capacity_words.has_value());
  EXPECT_EQ(h.levels[1].capacity_words, arch["glb_capacity_words"].as<std::int64_t>());
  EXPECT_EQ(h.levels[2].capacity_words, arch["rf_capacity_words_per_pe"].as<std::int64_t>());
  EXPECT_EQ(h.levels[0].shared_words_per_cycle,
            arch["dram_bandwidth_words_per_cycle_shared_rw"].as<double>());
  EXPECT_EQ(h.levels[1].shared_words_per_cycle,
            arch["glb_bandwidth_words_per_cycle_shared_rw"].as<double>());
  EXPECT_EQ(arch["rf_bandwidth"].as<std::string>(), "unlimited");
  for (const StorageLevel &level : h.levels) {
    EXPECT_FALSE(level.read_words_per_cycle.has_value());
    EXPECT_FALSE(level.write_words_per_cycle.has_value());
    EXPECT_FALSE(level.double_buffering);
  }
  EXPECT_FALSE(h.levels[2].shared_words_per_cycle.has_value());
  const YAML::Node pj = arch["energy_pJ_per_word"];
  const char *const prefixes[] = {"DRAM", "GLB", "RF"};
  for (size_t l = 0; l < 3; ++l) {
    const std::string prefix = prefixes[l];
    EXPECT_EQ(h.levels[l].read_pj, pj[prefix + "_read"].as<double>());
    EXPECT_EQ(h.levels[l].fill_pj, pj[prefix + "_write"].as<double>());
    EXPECT_EQ(h.levels[l].update_pj, pj[prefix + "_write"].as<double>());
  }
  EXPECT_EQ(h.mac_pj, pj["MAC"].as<double>());
  ASSERT_EQ(h.fanouts.size(), 3u);
  EXPECT_TRUE(h.fanouts[0].empty());
  ASSERT_EQ(h.fanouts[1].size(), 1u);
  EXPECT_TRUE(h.fanouts[2].empty());
  EXPECT_EQ(h.fanouts[1][0].name, "PE");
  EXPECT_EQ(h.fanouts[1][0].x, arch["pe_mesh"]["X"].as<std::int64_t>());
  EXPECT_EQ(h.fanouts[1][0].y, arch["pe_mesh"]["Y"].as<std::int64_t>());
  EXPECT_EQ(h.compute_units(), arch["pe_mesh"]["num_pes"].as<std::int64_t>());
  EXPECT_EQ(h.counting, Counting::Timeloop);
  EXPECT_TRUE(h.first_read_elision);
  EXPECT_EQ(hw.word_bytes * 8, arch["word_bits"].as<std::int64_t>());
  EXPECT_EQ(arch["block_size"].as<int>(), 1);
  EXPECT_EQ(hw.clock_ghz, 1.0);
  EXPECT_EQ(hw.name, "system");
  EXPECT_TRUE(hw.levels.empty());
}

void expect_problem(const Workload &w, const YAML::Node &problem) {
  ASSERT_EQ(w.dims.size(), 3u);
  EXPECT_EQ(w.name, "GEMM");
  for (const char *dim : {"M", "N", "K"})
    EXPECT_EQ(w.dim_size(w.dim_index(dim)), problem[dim].as<std::int64_t>()) << dim;
  ASSERT_EQ(w.ops.size(), 1u);
  const Einsum &einsum = w.ops[0].einsum;
  ASSERT_EQ(einsum.inputs.size(), 2u);
  EXPECT_EQ(einsum.inputs[0].tensor, "A");
  EXPECT_EQ(einsum.inputs[1].tensor, "B");
  EXPECT_EQ(einsum.output.tensor, "Z");
  for (const TensorAccess *access : {&einsum.inputs[0], &einsum.inputs[1], &einsum.output}) {
    const YAML::Node dims = problem["tensor_dims"][access->tensor];
    ASSERT_EQ(access->indices.size(), dims.size());
    for (size_t i = 0; i < dims.size(); ++i) {
      ASSERT_TRUE(access->indices[i].is_plain());
      EXPECT_EQ(access->indices[i].terms[0].dim, w.dim_index(dims[i].as<std::string>()));
    }
  }
}

/// The keep bits of a record's `keep` list (tensors A, B, Z are bits 0, 1, 2).
std::uint32_t keep_bits(const YAML::Node &keep) {
  std::uint32_t bits = 0;
  for (const YAML::Node &tensor : keep)
    bits |= std::uint32_t{1} << std::string("ABZ").find(tensor.as<std::string>());
  return bits;
}

void expect_temporal(const Workload &w, const LevelMapping &block, const YAML::Node &level) {
  std::vector<int> order;
  for (const YAML::Node &dim : level["loop_order_outer_to_inner"]) {
    const int d = w.dim_index(dim.as<std::string>());
    if (level["temporal"][dim.as<std::string>()].as<std::int64_t>() > 1)
      order.push_back(d);
  }
  EXPECT_EQ(block.order, order);
  for (const auto &factor : level["temporal"])
    EXPECT_EQ(block.factor[static_cast<size_t>(w.dim_index(factor.first.as<std::string>()))],
              factor.second.as<std::int64_t>());
  EXPECT_EQ(block.keep, keep_bits(level["keep"]));
}

void expect_spatial(const Workload &w, const FanoutMapping &spatial, const YAML::Node &level) {
  for (const auto &factor : level["spatial"]) {
    const std::string dim = factor.first.as<std::string>();
    const auto d = static_cast<size_t>(w.dim_index(dim));
    const std::int64_t f = factor.second.as<std::int64_t>();
    if (f == 1) {
      EXPECT_EQ(spatial.x[d] * spatial.y[d], 1) << dim;
      continue;
    }
    const bool on_x = level["spatial_axis"][dim].as<std::string>() == "X";
    EXPECT_EQ(on_x ? spatial.x[d] : spatial.y[d], f) << dim;
    EXPECT_EQ(on_x ? spatial.y[d] : spatial.x[d], 1) << dim;
  }
}

void expect_mapping(const Loaded &loaded, const YAML::Node &mapping) {
  const Hierarchy &h = loaded.hw.hierarchy;
  const OpMapping &m = loaded.mapping;
  ASSERT_EQ(m.levels.size(), 3u);
  ASSERT_EQ(m.fanouts.size(), 3u);
  ASSERT_EQ(m.fanouts[1].size(), 1u);
  for (const YAML::Node &level : mapping["levels_outer_to_inner"]) {
    const std::string name = level["level"].as<std::string>();
    SCOPED_TRACE(name);
    if (level["spatial"])
      expect_spatial(loaded.workload, m.fanouts[1][0], level);
    else
      expect_temporal(loaded.workload, m.levels[static_cast<size_t>(h.level_index(name))], level);
  }
}

TEST(TimeloopReference, AllEightyRecordsLoadAndMatchTheirDescription) {
  const std::vector<YAML::Node> records = timeloop_reference_records();
  ASSERT_EQ(records.size(), 80u);
  for (const YAML::Node &record : records) {
    SCOPED_TRACE(record["id"].as<std::string>());
    const Loaded loaded = load_record(record);
    expect_architecture(loaded.hw.hierarchy, loaded.hw, record["arch"]);
    expect_problem(loaded.workload, record["problem"]);
    expect_mapping(loaded, record["mapping"]);
    EXPECT_EQ(loaded.hw.source_file, timeloop_input_path(record, "arch"));
    EXPECT_EQ(loaded.workload.source_file, timeloop_input_path(record, "problem"));
  }
}

// ---------------------------------------------------------------------------------------------
// Small inputs, and the accepted spellings.

// DRAM -> GB -> 4x4 PEs (RF + MAC). Line 6 is DRAM, 10 GB, 14 RF, 15 the MAC.
const std::string kArch = R"(architecture:
  version: 0.3
  subtree:
  - name: system
    local:
    - {name: DRAM, class: DRAM, attributes: {word-bits: 16, shared_bandwidth: 4}}
    subtree:
    - name: chip
      local:
      - {name: GB, class: SRAM, attributes: {entries: 1024, word-bits: 16, shared_bandwidth: 8}}
      subtree:
      - name: PE[0..15]
        local:
        - {name: RF, class: regfile, attributes: {entries: 16, word-bits: 16, meshX: 4}}
        - {name: MAC, class: intmac, attributes: {datawidth: 16, meshX: 4}}
)";

// Line 4 is DRAM's table, 5 GB's, 6 RF's, 7 the MAC's.
const std::string kErt = R"(ERT:
  version: 0.3
  tables:
  - {name: system.DRAM, actions: [{name: read, energy: 100}, {name: write, energy: 100}]}
  - {name: system.chip.GB, actions: [{name: read, energy: 5}, {name: write, energy: 6}]}
  - {name: "system.chip.PE[0..15].RF", actions: [{name: read, energy: 0.5}, {name: write, energy: 1}]}
  - {name: "system.chip.PE[0..15].MAC", actions: [{name: mac_random, energy: 2}, {name: mac_gated, energy: 0}]}
)";

// Z[m,n] += A[m,k] * B[k,n], 64^3. Line 6 is A, 7 B, 8 Z, 9 the sizes.
const std::string kProblem = R"(problem:
  shape:
    name: GEMM
    dimensions: [M, N, K]
    data-spaces:
    - {name: A, projection: [[[M]], [[K]]]}
    - {name: B, projection: [[[K]], [[N]]]}
    - {name: Z, projection: [[[M]], [[N]]], read-write: True}
  instance: {M: 64, N: 64, K: 64}
)";

// The nest DRAM[N2 K2 M2] GB[N2 K4 M2] PE[M4(y) N4(x)] RF[N4 M4 K8]; line 12 is DRAM's factors.
const std::string kMap = R"(mapping:
  - {target: RF, type: datatype, keep: [Z], bypass: [A, B]}
  - {target: RF, type: temporal, factors: M4 N4 K8, permutation: KMN}
  - {target: GB, type: spatial, factors: M4 N4, permutation: NMK, split: 1}
  - target: GB
    type: temporal
    factors: M2 N2 K4
    permutation: MKN
  - target: DRAM
    type: temporal
    permutation: MKN
    factors: M2 N2 K2
)";

Hardware arch_of(const std::string &arch, const std::string &ert = kErt) {
  return parse_timeloop_architecture(arch, "arch.yaml", ert, "ert.yaml");
}

OpMapping map_of(const std::string &map, const std::string &problem = kProblem) {
  return parse_timeloop_mapping(map, "map.yaml", arch_of(kArch),
                                parse_timeloop_problem(problem, "problem.yaml"));
}

TEST(TimeloopArchitecture, ReadsLevelsFanoutAndEnergies) {
  const Hardware hw = arch_of(kArch);
  const Hierarchy &h = hw.hierarchy;
  EXPECT_EQ(hw.name, "system");
  EXPECT_EQ(hw.source_file, "arch.yaml");
  EXPECT_EQ(hw.word_bytes, 2);
  ASSERT_EQ(h.depth(), 3);
  EXPECT_EQ(h.levels[1].name, "GB");
  EXPECT_EQ(h.levels[1].capacity_words, 1024);
  EXPECT_EQ(h.levels[1].shared_words_per_cycle, 8.0);
  EXPECT_EQ(h.levels[1].read_pj, 5.0);
  EXPECT_EQ(h.levels[1].fill_pj, 6.0);
  EXPECT_EQ(h.levels[1].update_pj, 6.0);
  EXPECT_EQ(h.levels[2].read_pj, 0.5);
  EXPECT_EQ(h.mac_pj, 2.0);
  ASSERT_EQ(h.fanouts[1].size(), 1u);
  EXPECT_EQ(h.fanouts[1][0].x, 4);
  EXPECT_EQ(h.fanouts[1][0].y, 4);
  EXPECT_EQ(h.instances(2), 16);
}

TEST(TimeloopArchitecture, BandwidthKeysDepthAndDoubleBuffering) {
  const std::string arch =
      with(kArch, "{entries: 1024, word-bits: 16, shared_bandwidth: 8}",
           "{depth: 512, word-bits: 16, bandwidth: 8, write_bandwidth: 2, multiple-buffering: 2, "
           "block-size: 1, cluster-size: 1, addr-gen-energy: 0, technology: 45nm}");
  const StorageLevel gb = arch_of(arch).hierarchy.levels[1];
  EXPECT_EQ(gb.capacity_words, 512);
  EXPECT_FALSE(gb.shared_words_per_cycle.has_value());
  EXPECT_EQ(gb.read_words_per_cycle, 4.0); // half of the deprecated bandwidth
  EXPECT_EQ(gb.write_words_per_cycle, 2.0);
  EXPECT_TRUE(gb.double_buffering);
}

TEST(TimeloopArchitecture, ErtPrioritiesAndArguments) {
  const std::string ert =
      with(kErt, "[{name: read, energy: 5}, {name: write, energy: 6}]",
           "[{name: read, energy: 9}, {name: random_read, energy: 5}, {name: write, energy: 9}, "
           "{name: random_write, energy: 7}, {name: update, energy: 8}, {name: idle, energy: 0}, "
           "{name: fill, energy: 9, arguments: {address_delta: 1}}, "
           "{name: fill, energy: 9, arguments: {address_delta: 0}}]");
  const StorageLevel gb = arch_of(kArch, ert).hierarchy.levels[1];
  EXPECT_EQ(gb.read_pj, 5.0);   // random_read before read
  EXPECT_EQ(gb.fill_pj, 7.0);   // random_write before fill
  EXPECT_EQ(gb.update_pj, 7.0); // random_write before update
}

TEST(TimeloopArchitecture, MeshYAndAComputeArrayOfItsOwn) {
  // The MAC alone in its own array subtree: a second fan-out, above the compute units.
  const std::string arch = with(
      with(kArch, "        - {name: MAC, class: intmac, attributes: {datawidth: 16, meshX: 4}}\n",
           "        subtree:\n"
           "        - name: lanes[0..1]\n"
           "          local:\n"
           "          - {name: MAC, class: fpmac, attributes: {meshY: 8}}\n"),
      "meshX: 4}}", "meshY: 4}}");
  const std::string ert = with(kErt, "PE[0..15].MAC", "PE[0..15].lanes[0..1].MAC");
  const Hierarchy h = arch_of(arch, ert).hierarchy;
  ASSERT_EQ(h.fanouts[1].size(), 1u);
  EXPECT_EQ(h.fanouts[1][0].x, 4); // RF: meshY 4 of 16 instances -> 4 x 4
  EXPECT_EQ(h.fanouts[1][0].y, 4);
  ASSERT_EQ(h.fanouts[2].size(), 1u);
  EXPECT_EQ(h.fanouts[2][0].name, "lanes");
  EXPECT_EQ(h.fanouts[2][0].x, 1); // MAC: 32 instances as 4 x 8
  EXPECT_EQ(h.fanouts[2][0].y, 2);
  EXPECT_EQ(h.compute_units(), 32);
}

TEST(TimeloopProblem, ReadsTheEinsum) {
  const Workload w = parse_timeloop_problem(kProblem, "problem.yaml");
  EXPECT_EQ(w.name, "GEMM");
  EXPECT_EQ(w.source_file, "problem.yaml");
  ASSERT_EQ(w.dims.size(), 3u);
  EXPECT_EQ(w.dims[2].name, "K");
  EXPECT_EQ(w.dims[2].size, 64);
  EXPECT_EQ(w.dims[2].where.line, 4);
  EXPECT_EQ(w.dims[2].where.column, 24);
  ASSERT_EQ(w.ops.size(), 1u);
  EXPECT_EQ(w.ops[0].name, "GEMM");
  EXPECT_EQ(w.ops[0].kind, OpKind::Einsum);
  EXPECT_EQ(w.ops[0].reduction_dims(), std::vector<int>{2});
}

TEST(TimeloopProblem, AffineProjectionsWithCoefficients) {
  // A 1-D convolution: O[k,p] += W[k,c,r] * I[c, 2p + r]; the instance overrides Wstride.
  const std::string conv = R"(problem:
  shape:
    name: Conv1D
    dimensions: [K, C, R, P]
    coefficients: [{name: Wstride, default: 1}, {name: Wdilation, default: 1}]
    data-spaces:
    - {name: W, projection: [K, C, R]}
    - {name: I, projection: [[[C]], [[P, Wstride], [R, Wdilation]]]}
    - {name: O, projection: [[[K]], [[P]]], read-write: True}
  instance: {K: 8, C: 4, R: 3, P: 16, Wstride: 2}
)";
  const Workload w = parse_timeloop_problem(conv, "conv.yaml");
  const Einsum &e = w.ops.at(0).einsum;
  ASSERT_EQ(e.inputs.size(), 2u);
  EXPECT_EQ(e.inputs[0].indices.size(), 3u);
  const IndexExpr &window = e.inputs[1].indices.at(1);
  ASSERT_EQ(window.terms.size(), 2u);
  EXPECT_EQ(window.terms[0].dim, 3);
  EXPECT_EQ(window.terms[0].coef, 2);
  EXPECT_EQ(window.terms[1].dim, 2);
  EXPECT_EQ(window.terms[1].coef, 1);
}

TEST(TimeloopMapping, ReadsFactorsOrdersKeepsAndSpatialAxes) {
  const OpMapping m = map_of(kMap);
  ASSERT_EQ(m.levels.size(), 3u);
  EXPECT_EQ(m.levels[0].factor, (std::vector<std::int64_t>{2, 2, 2}));
  EXPECT_EQ(m.levels[0].order, (std::vector<int>{1, 2, 0})); // MKN innermost first: N K M
  EXPECT_EQ(m.levels[0].keep, 7u);
  EXPECT_EQ(m.levels[1].factor, (std::vector<std::int64_t>{2, 2, 4}));
  EXPECT_EQ(m.levels[1].keep, 7u); // no datatype entry: keeps everything
  EXPECT_EQ(m.levels[2].factor, (std::vector<std::int64_t>{4, 4, 8}));
  EXPECT_EQ(m.levels[2].order, (std::vector<int>{1, 0, 2}));
  EXPECT_EQ(m.levels[2].keep, 4u); // Z only
  ASSERT_EQ(m.fanouts[1].size(), 1u);
  EXPECT_EQ(m.fanouts[1][0].x, (std::vector<std::int64_t>{1, 4, 1})); // split 1: N on x
  EXPECT_EQ(m.fanouts[1][0].y, (std::vector<std::int64_t>{4, 1, 1}));
  EXPECT_TRUE(m.fanouts[0].empty());
  EXPECT_TRUE(m.fanouts[2].empty());
}

TEST(TimeloopMapping, PadsPermutationsAndDefaultsSplitToX) {
  // DRAM lists only M: N and K are padded outside it in problem order (innermost first: M N K).
  std::string map =
      with(kMap, "    permutation: MKN\n    factors: M2", "    permutation: M\n    factors: M2");
  // The fan-out's factors without permutation or split: all on x.
  map = with(map, "factors: M4 N4, permutation: NMK, split: 1", "factors: M2 N2");
  map = with(map, "factors: M2 N2 K4", "factors: M4 N4 K4");
  const OpMapping m = map_of(map);
  EXPECT_EQ(m.levels[0].order, (std::vector<int>{2, 1, 0}));
  EXPECT_EQ(m.fanouts[1][0].x, (std::vector<std::int64_t>{2, 2, 1}));
  EXPECT_EQ(m.fanouts[1][0].y, (std::vector<std::int64_t>{1, 1, 1}));
}

TEST(TimeloopSections, NamesTheSectionsOfAFile) {
  EXPECT_EQ(
      timeloop_sections(kArch + kProblem, "both.yaml"),
      (std::vector<TimeloopSection>{TimeloopSection::Architecture, TimeloopSection::Problem}));
  EXPECT_EQ(timeloop_sections(kErt, "ert.yaml"),
            std::vector<TimeloopSection>{TimeloopSection::Ert});
  EXPECT_EQ(timeloop_sections(kMap + "mapper: {}\nmodel: {}\n", "map.yaml"),
            (std::vector<TimeloopSection>{TimeloopSection::Mapping, TimeloopSection::Mapper,
                                          TimeloopSection::Model}));
  EXPECT_TRUE(timeloop_sections("name: accel\nlevels: []\n", "hw.yaml").empty());
  EXPECT_TRUE(timeloop_sections("[1, 2]\n", "list.yaml").empty());
  EXPECT_EQ(timeloop_file_sections(test_common::timeloop_reference_dir() +
                                   "inputs/a16_M256_N256_K256_00/ert.yaml"),
            std::vector<TimeloopSection>{TimeloopSection::Ert});
}

// ---------------------------------------------------------------------------------------------
// One test per error message.

std::string arch_error(const std::string &arch, const std::string &ert = kErt) {
  return error_what([&] { arch_of(arch, ert); });
}

std::string problem_error(const std::string &problem) {
  return error_what([&] { parse_timeloop_problem(problem, "problem.yaml"); });
}

std::string map_error(const std::string &map, const std::string &problem = kProblem) {
  return error_what([&] { map_of(map, problem); });
}

TEST(TimeloopErrors, TopLevelKeyBesideSections) {
  EXPECT_EQ(error_what([] { timeloop_sections(kMap + "extra: 1\n", "map.yaml"); }),
            "map.yaml:13:1: error: unknown key 'extra' at the top level (expected one of: "
            "architecture, problem, mapping, ERT, mapper, model)");
}

TEST(TimeloopErrors, ArchitectureVersion) {
  EXPECT_EQ(arch_error(with(kArch, "version: 0.3", "version: 0.4")),
            "arch.yaml:2:12: error: version: 0.4 is not supported (expected 0.3)");
}

TEST(TimeloopErrors, ErtVersion) {
  EXPECT_EQ(arch_error(kArch, with(kErt, "version: 0.3", "version: 0.2")),
            "ert.yaml:2:12: error: version: 0.2 is not supported (expected 0.3 or 0.4)");
}

TEST(TimeloopErrors, BlockAndClusterSize) {
  EXPECT_EQ(arch_error(with(kArch, "word-bits: 16, shared_bandwidth: 4",
                            "word-bits: 16, block-size: 4, shared_bandwidth: 4")),
            "arch.yaml:6:73: error: component 'DRAM': block-size must be 1, got 4");
  EXPECT_EQ(arch_error(with(kArch, "{entries: 16,", "{cluster-size: 2, entries: 16,")),
            "arch.yaml:14:65: error: component 'RF': cluster-size must be 1, got 2");
}

TEST(TimeloopErrors, AddressGenerationEnergy) {
  EXPECT_EQ(arch_error(with(kArch, "{entries: 16,", "{addr-gen-energy: 0.5, entries: 16,")),
            "arch.yaml:14:68: error: component 'RF': addr-gen-energy must be 0 (dse charges no "
            "address generation), got 0.5");
}

TEST(TimeloopErrors, UnknownClassAndKeys) {
  EXPECT_EQ(arch_error(with(kArch, "class: SRAM", "class: wire")),
            "arch.yaml:10:27: error: component 'GB': unknown class 'wire' (expected one naming "
            "DRAM, SRAM, regfile, smartbuffer, storage, mac, intmac, fpmac or compute)");
  EXPECT_EQ(arch_error(with(kArch, "{datawidth: 16,", "{datawidth: 16, network: X,")),
            "arch.yaml:15:66: error: unknown key 'network' in component 'MAC' (expected one of: "
            "datawidth, meshX, meshY, instances, technology)");
  EXPECT_EQ(arch_error(with(kArch, "{word-bits: 16, shared", "{width: 64, word-bits: 16, shared")),
            "arch.yaml:6:46: error: unknown key 'width' in component 'DRAM' (expected one of: "
            "word-bits, entries, depth, shared_bandwidth, read_bandwidth, write_bandwidth, "
            "bandwidth, multiple-buffering, block-size, cluster-size, addr-gen-energy, meshX, "
            "meshY, instances, technology)");
}

TEST(TimeloopErrors, SecondComputeUnit) {
  const std::string arch = kArch + "        - {name: MAC2, class: fpmac, attributes: {meshX: 4}}\n";
  EXPECT_EQ(arch_error(arch), "arch.yaml:16:18: error: component 'MAC2': a second compute unit "
                              "(the first is 'MAC'); dse reads one compute unit per leaf");
}

TEST(TimeloopErrors, ComputeOutsideTheInnermostSubtree) {
  const std::string arch =
      with(kArch, "      subtree:\n",
           "      - {name: MAC0, class: mac, attributes: {}}\n      subtree:\n");
  EXPECT_EQ(
      arch_error(arch, kErt + "  - {name: system.chip.MAC0, actions: [{name: mac, energy: 1}]}\n"),
      "arch.yaml:11:16: error: subtree 'chip': the compute unit 'MAC0' must be in the "
      "innermost subtree");
}

TEST(TimeloopErrors, ErtTableWithoutComponent) {
  EXPECT_EQ(arch_error(kArch, kErt + "  - {name: system.chip.Bus, actions: []}\n"),
            "ert.yaml:8:12: error: ERT table 'system.chip.Bus' matches no component of the "
            "architecture");
}

TEST(TimeloopErrors, ComponentWithoutErtTable) {
  EXPECT_EQ(arch_error(kArch, with(kErt, "name: system.chip.GB", "name: system.GB")),
            "arch.yaml:10:16: error: component 'GB': no ERT table named 'system.chip.GB'");
}

TEST(TimeloopErrors, ComponentWithoutEnergyForAnAction) {
  EXPECT_EQ(arch_error(kArch, with(kErt, ", {name: write, energy: 100}", "")),
            "ert.yaml:4:12: error: ERT table 'system.DRAM': no energy for fills (actions "
            "random_fill, random_write, fill or write)");
  EXPECT_EQ(
      arch_error(kArch, with(kErt, "{name: mac_random, energy: 2}", "{name: idle, energy: 0}")),
      "ert.yaml:7:12: error: ERT table 'system.chip.PE[0..15].MAC': no energy for MACs "
      "(actions mac_random, mult_random, mac, mult or compute)");
}

TEST(TimeloopErrors, ErtUnknownAction) {
  EXPECT_EQ(arch_error(kArch, with(kErt, "{name: read, energy: 5}", "{name: mac, energy: 5}")),
            "ert.yaml:5:45: error: ERT table 'system.chip.GB': unknown action 'mac' (expected one "
            "of: random_read, read, random_fill, random_write, fill, write, random_update, update, "
            "idle or leak)");
}

TEST(TimeloopErrors, ErtIdleOrLeakageEnergy) {
  EXPECT_EQ(arch_error(kArch, with(kErt, "{name: mac_gated, energy: 0}",
                                   "{name: mac_gated, energy: 0.1}")),
            "ert.yaml:7:108: error: ERT table 'system.chip.PE[0..15].MAC': action 'mac_gated' "
            "costs 0.1 pJ; dse models no idle, leakage, gated or skipped energy (set it to 0)");
}

TEST(TimeloopErrors, ErtActionVariantsOfDifferentEnergies) {
  const std::string ert =
      with(kErt, "{name: read, energy: 100}",
           "{name: read, energy: 100, arguments: {d: 0}}, {name: read, energy: 90}");
  EXPECT_EQ(arch_error(kArch, ert),
            "ert.yaml:4:102: error: ERT table 'system.DRAM': action 'read' has energies 100 and "
            "90 for different arguments; dse needs one energy per action");
}

TEST(TimeloopErrors, ErtDuplicateTable) {
  EXPECT_EQ(arch_error(kArch, kErt + "  - {name: system.DRAM, actions: []}\n"),
            "ert.yaml:8:12: error: duplicate ERT table 'system.DRAM'");
}

TEST(TimeloopErrors, WordBits) {
  EXPECT_EQ(
      arch_error(with(kArch, "{entries: 1024, word-bits: 16", "{entries: 1024, word-bits: 8")),
      "arch.yaml:10:72: error: component 'GB': word-bits 8 differs from the 16 of 'DRAM' "
      "(dse needs one word size)");
  EXPECT_EQ(arch_error(with(kArch, "{word-bits: 16, shared", "{word-bits: 12, shared")),
            "arch.yaml:6:57: error: component 'DRAM': word-bits must be a multiple of 8, got 12");
}

TEST(TimeloopErrors, Capacities) {
  EXPECT_EQ(arch_error(with(kArch, "{word-bits: 16, shared", "{entries: 8, word-bits: 16, shared")),
            "arch.yaml:6:46: error: component 'DRAM': the outermost level is unbounded and takes "
            "no entries or depth");
  EXPECT_EQ(arch_error(with(kArch, "{entries: 16, word-bits", "{word-bits")),
            "arch.yaml:14:50: error: component 'RF': an on-chip level needs exactly one of entries "
            "or depth (its capacity in words)");
}

TEST(TimeloopErrors, MultipleBuffering) {
  EXPECT_EQ(arch_error(with(kArch, "{entries: 16,", "{multiple-buffering: 3, entries: 16,")),
            "arch.yaml:14:71: error: component 'RF': multiple-buffering must be 1 or 2, got 3");
}

TEST(TimeloopErrors, Meshes) {
  EXPECT_EQ(arch_error(with(kArch, "word-bits: 16, meshX: 4}", "word-bits: 16, meshX: 3}")),
            "arch.yaml:14:86: error: component 'RF': meshX 3 does not divide the 16 instances");
  EXPECT_EQ(
      arch_error(with(kArch, "word-bits: 16, meshX: 4}", "word-bits: 16, meshX: 4, meshY: 2}")),
      "arch.yaml:14:96: error: component 'RF': meshX 4 by meshY 2 does not make the 16 "
      "instances");
  EXPECT_EQ(arch_error(with(kArch, "{datawidth: 16, meshX: 4}", "{datawidth: 16, meshX: 2}")),
            "arch.yaml:15:50: error: component 'MAC': its 2 x 8 mesh is not a multiple of the 4 x "
            "4 mesh above it");
  EXPECT_EQ(
      arch_error(with(kArch, "{datawidth: 16,", "{instances: 8, datawidth: 16,")),
      "arch.yaml:15:62: error: component 'MAC': instances 8 differs from the 16 instances its "
      "subtrees make");
}

TEST(TimeloopErrors, SubtreeShapes) {
  EXPECT_EQ(arch_error(with(kArch, "PE[0..15]", "PE[15..0]")),
            "arch.yaml:12:15: error: subtree 'PE[15..0]': name 'PE[15..0]' must be a plain name or "
            "name[first..last]");
  EXPECT_EQ(arch_error(with(kArch, "PE[0..15]", "PE[0..4294967295]")),
            "arch.yaml:12:15: error: subtree 'PE[0..4294967295]': makes 4294967296 instances in "
            "all; at most 2147483648 are supported");
  EXPECT_EQ(arch_error(with(kArch, "    subtree:\n    - name: chip",
                            "    subtree:\n    - name: "
                            "chip\n    - name: io")),
            "arch.yaml:8:5: error: subtree 'system': subtree lists 2 trees; Timeloop reads exactly "
            "one per level");
  EXPECT_EQ(
      arch_error(with(kArch, "    - name: chip\n      local:\n      - {name: GB",
                      "    - name: chip[0..1]\n      # {name: GB")),
      "arch.yaml:8:13: error: subtree 'chip[0..1]': an array subtree must hold a component (a "
      "storage level or the compute unit)");
  EXPECT_EQ(arch_error(with(kArch, "  - name: system", "  - name: system[0..1]")),
            "arch.yaml:4:11: error: subtree 'system[0..1]': an array subtree must be below the "
            "outermost storage level");
  EXPECT_EQ(arch_error(with(kArch, "{name: RF,", "{name: \"RF[0..1]\",")),
            "arch.yaml:14:18: error: component 'RF[0..1]': arrays of components are not supported; "
            "put the component in a subtree named like 'PE[0..255]'");
}

TEST(TimeloopErrors, DuplicateNames) {
  EXPECT_EQ(
      arch_error(with(kArch, "{name: RF,", "{name: GB,"), with(kErt, ".RF\"", ".GB\"")),
      "arch.yaml:14:18: error: component 'GB': the name 'GB' is used twice; level and fan-out "
      "names must be unique");
}

TEST(TimeloopErrors, LevelCountAndCompute) {
  const std::string one_level = R"(architecture:
  version: 0.3
  subtree:
  - name: system
    local:
    - {name: DRAM, class: DRAM, attributes: {word-bits: 16}}
    - {name: MAC, class: mac}
)";
  const std::string ert = R"(ERT:
  version: 0.3
  tables:
  - {name: system.DRAM, actions: [{name: read, energy: 1}, {name: write, energy: 1}]}
  - {name: system.MAC, actions: [{name: mac, energy: 1}]}
)";
  EXPECT_EQ(arch_error(one_level, ert),
            "arch.yaml:2:3: error: dse reads 2 to 5 storage levels (the outermost "
            "and one to four on-chip levels); the architecture has 1");
  const std::string ert_without_mac = with(kErt, "- {name: \"system.chip.PE[0..15].MAC\"", "#");
  EXPECT_EQ(arch_error(with(kArch, "- {name: MAC,", "# {name: MAC,"), ert_without_mac),
            "arch.yaml:2:3: error: the architecture has no compute unit (a component "
            "of class mac, intmac, fpmac or compute)");
}

TEST(TimeloopErrors, ProblemReadWriteSpaces) {
  EXPECT_EQ(problem_error(with(kProblem, ", read-write: True}", "}")),
            "problem.yaml:6:5: error: shape: no read-write data space (the einsum's output)");
  EXPECT_EQ(problem_error(with(kProblem, "[[[K]], [[N]]]}", "[[[K]], [[N]]], read-write: True}")),
            "problem.yaml:8:57: error: data space 'Z': a second read-write data space (the first "
            "is 'B'); dse reads one output");
}

TEST(TimeloopErrors, ProblemReadOnlySpaces) {
  const std::string three =
      with(kProblem, "    - {name: Z,", "    - {name: C, projection: [[[M]]]}\n    - {name: Z,");
  EXPECT_EQ(problem_error(three), "problem.yaml:6:5: error: shape: 3 read-only data spaces; dse "
                                  "reads one or two (the einsum's operands)");
}

TEST(TimeloopErrors, ProblemOutputIndexNotBare) {
  const std::string problem =
      with(with(kProblem,
                "    data-spaces:", "    coefficients: [{name: S, default: 2}]\n    data-spaces:"),
           "[[[M]], [[N]]], read-write", "[[[M, S]], [[N]]], read-write");
  EXPECT_EQ(problem_error(problem),
            "problem.yaml:9:30: error: data space 'Z': the output's index 1 must be a bare "
            "dimension");
}

TEST(TimeloopErrors, ProblemOutputDimensionNotRead) {
  EXPECT_EQ(problem_error(with(kProblem, "[[[K]], [[N]]]}", "[[[K]]]}")),
            "problem.yaml:8:37: error: data space 'Z': output dimension 'N' indexes no read-only "
            "data space");
}

TEST(TimeloopErrors, ProblemDensitiesAndUnknownKeys) {
  EXPECT_EQ(problem_error(with(kProblem, "{M: 64,", "{densities: {A: 0.5}, M: 64,")),
            "problem.yaml:9:14: error: instance: key 'densities' is not supported: dse models "
            "dense tensors");
  EXPECT_EQ(problem_error(with(kProblem, "{M: 64,", "{Q: 2, M: 64,")),
            "problem.yaml:9:14: error: unknown key 'Q' in instance (expected one of: M, N, K)");
  EXPECT_EQ(problem_error(with(kProblem, "    name: GEMM", "    name: GEMM\n    flatten: []")),
            "problem.yaml:4:5: error: unknown key 'flatten' in shape (expected one of: name, "
            "dimensions, coefficients, data-spaces)");
}

TEST(TimeloopErrors, ProblemSizesOutOfRange) {
  EXPECT_EQ(problem_error(with(kProblem, "M: 64", "M: 0")),
            "problem.yaml:9:17: error: instance: M must be a positive integer, got 0");
  EXPECT_EQ(problem_error(with(kProblem, "M: 64", "M: 2147483648")),
            "problem.yaml:9:17: error: instance: M must be at most 2147483647, got 2147483648");
  EXPECT_EQ(problem_error(with(with(kProblem, "M: 64", "M: 2147483647"), "K: 64", "K: 2147483647")),
            "problem.yaml:6:29: error: data space 'A': more than 1125899906842624 (2^50) elements");
}

TEST(TimeloopErrors, ProblemDimensions) {
  EXPECT_EQ(problem_error(with(kProblem, "[M, N, K]", "[M, NN, K]")),
            "problem.yaml:4:21: error: shape: dimension name 'NN' must be one letter (Timeloop "
            "spells permutations one letter per dimension)");
  EXPECT_EQ(problem_error(with(kProblem, "[M, N, K]", "[M, N, K, M]")),
            "problem.yaml:4:27: error: shape: duplicate dimension 'M'");
  EXPECT_EQ(problem_error(with(kProblem, "[M, N, K]", "[]")),
            "problem.yaml:4:17: error: shape: dimensions must list at least one dimension");
  EXPECT_EQ(
      problem_error(with(with(kProblem, "[M, N, K]", "[M, N, K, Q]"), "K: 64}", "K: 64, Q: 2}")),
      "problem.yaml:4:27: error: dimension 'Q' indexes no data space");
}

TEST(TimeloopErrors, ProblemProjections) {
  EXPECT_EQ(problem_error(with(kProblem, "[[[M]], [[K]]]", "[[[M]], [[Q]]]")),
            "problem.yaml:6:39: error: data space 'A': unknown dimension 'Q' (the problem has M, N "
            "and K)");
  EXPECT_EQ(problem_error(with(kProblem, "[[[M]], [[K]]]", "[[[M]], [[M]]]")),
            "problem.yaml:6:39: error: data space 'A': dimension 'M' repeats in one data space");
  EXPECT_EQ(problem_error(with(kProblem, "[[[M]], [[K]]]", "[[[M]], [[K, W]]]")),
            "problem.yaml:6:42: error: data space 'A': unknown coefficient 'W'");
  EXPECT_EQ(problem_error(with(kProblem, "[[[M]], [[K]]]", "[[[M]], {K: 1}]")),
            "problem.yaml:6:37: error: data space 'A': an index must be a dimension or a list of "
            "terms [dim] or [dim, coefficient], got a map");
  EXPECT_EQ(problem_error(with(kProblem, "[[[M]], [[K]]]", "[[[M]], [K]]")),
            "problem.yaml:6:38: error: data space 'A': a term must be [dim] or [dim, coefficient], "
            "got 'K'");
  EXPECT_EQ(problem_error(with(kProblem, "{name: B,", "{name: A,")),
            "problem.yaml:7:14: error: shape: duplicate data space 'A'");
  const std::string twice = with(kProblem, "    data-spaces:",
                                 "    coefficients: [{name: S, default: 1}, {name: S, default: "
                                 "1}]\n    data-spaces:");
  EXPECT_EQ(problem_error(twice),
            "problem.yaml:5:50: error: coefficient: the name 'S' is used twice");
}

TEST(TimeloopErrors, MappingImperfectFactorisation) {
  EXPECT_EQ(map_error(with(kMap, "factors: M2 N2 K2", "factors: M3 N2 K2"),
                      with(kProblem, "M: 64", "M: 100")),
            "map.yaml:12:14: error: factors of M multiply to 96; the problem has M = 100 "
            "(imperfect factorisation is not supported)");
  EXPECT_EQ(map_error(with(kMap, "factors: M4 N4 K8", "factors: M4 N4 K16")),
            "map.yaml:12:20: error: factors of K multiply to 128; the problem has K = 64 "
            "(imperfect factorisation is not supported)");
}

TEST(TimeloopErrors, MappingSpatialBeyondTheFanout) {
  EXPECT_EQ(map_error(with(
                with(kMap, "factors: M4 N4, permutation: NMK", "factors: M2 N8, permutation: NMK"),
                "factors: M4 N4 K8", "factors: M8 N2 K8")),
            "map.yaml:4:42: error: spatial factors on x multiply to 8; fan-out 'PE' has x = 4");
}

TEST(TimeloopErrors, MappingTargetsTypesAndKeys) {
  EXPECT_EQ(map_error(with(kMap, "{target: RF, type: temporal", "{target: Reg, type: temporal")),
            "map.yaml:3:14: error: unknown target 'Reg' (levels: DRAM, GB and RF)");
  EXPECT_EQ(map_error(with(kMap, "type: datatype", "type: skew")),
            "map.yaml:2:24: error: type must be temporal, spatial or datatype, got 'skew'");
  EXPECT_EQ(map_error(with(kMap, "type: datatype,", "type: datatype, no_coalesce: [A],")),
            "map.yaml:2:34: error: unknown key 'no_coalesce' in mapping[0] (expected one of: "
            "target, type, keep, bypass)");
  EXPECT_EQ(map_error(with(kMap, "{target: GB, type: spatial", "{target: RF, type: spatial")),
            "map.yaml:4:14: error: 0 fan-outs below 'RF'; a spatial entry maps exactly one");
}

TEST(TimeloopErrors, MappingDuplicates) {
  EXPECT_EQ(map_error(kMap + "  - {target: GB, type: temporal, factors: M1}\n"),
            "map.yaml:13:14: error: a second temporal entry for 'GB' (the first is at line 5)");
  EXPECT_EQ(map_error(with(kMap, "factors: M4 N4 K8", "factors: M4 N4 K8 M1")),
            "map.yaml:3:52: error: dimension 'M' appears twice in factors");
  EXPECT_EQ(map_error(with(kMap, "permutation: KMN", "permutation: KMK")),
            "map.yaml:3:68: error: dimension 'K' appears twice in permutation");
  EXPECT_EQ(map_error(with(kMap, "bypass: [A, B]", "bypass: [A, Z]")),
            "map.yaml:2:57: error: tensor 'Z' is listed twice");
}

TEST(TimeloopErrors, MappingUnknownNames) {
  EXPECT_EQ(map_error(with(kMap, "factors: M4 N4 K8", "factors: M4 N4 Q8")),
            "map.yaml:3:49: error: unknown dimension 'Q' in factors (the problem has M, N and K)");
  EXPECT_EQ(map_error(with(kMap, "permutation: KMN", "permutation: K M Q")),
            "map.yaml:3:70: error: unknown dimension 'Q' in permutation (the problem has M, N "
            "and K)");
  EXPECT_EQ(map_error(with(kMap, "keep: [Z]", "keep: [Y]")),
            "map.yaml:2:41: error: unknown tensor 'Y' (the problem has A, B and Z)");
  EXPECT_EQ(map_error(with(kMap, "factors: M4 N4 K8", "factors: \"M4 N4 K8,2\"")),
            "map.yaml:3:50: error: malformed factor 'K8,2' (expected a dimension and a positive "
            "integer, as in M4)");
}

TEST(TimeloopErrors, MappingOutermostBypass) {
  EXPECT_EQ(map_error(kMap + "  - {target: DRAM, type: datatype, bypass: [A]}\n"),
            "map.yaml:13:45: error: the outermost level keeps every tensor; it cannot bypass 'A'");
}

TEST(TimeloopErrors, MappingOfAWorkloadThatIsNotOneEinsum) {
  Workload two = parse_timeloop_problem(kProblem, "problem.yaml");
  two.ops.push_back(two.ops.front());
  EXPECT_EQ(error_what([&] { parse_timeloop_mapping(kMap, "map.yaml", arch_of(kArch), two); }),
            "map.yaml:2:3: error: workload 'GEMM' is not one einsum (a Timeloop mapping maps a "
            "single einsum)");
}

} // namespace
} // namespace dse
