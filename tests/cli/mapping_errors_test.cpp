// Bad mapping files given to `dse eval`: names that do not resolve, illegal loop trees and
// retention depths, missing or oversized tiles, one test per error message.
#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

const std::string kWorkload = R"(name: w
dims: {m: 64, k: 32, n: 64, l: 16}
ops:
  - {name: up, einsum: "H[m,n] += A[m,k] * W1[k,n]"}
  - {name: down, einsum: "O[m,l] += H[m,n] * W2[n,l]"}
)";

// Both ops unfused; the first segment is the map at line 2, column 5.
const std::string kMapping = R"(segments:
  - ops: [up]
    loops: {up: [m, k, n]}
    retention: {A: 2, W1: 3, H: 1}
    spatial: {up: [m, n]}
    tiles: {m: 16, k: 32, n: 16}
  - ops: [down]
    loops: {down: [m, n, l]}
    retention: {H: 2, W2: 3, O: 1}
    spatial: {down: [m, l]}
    tiles: {m: 16, n: 16, l: 16}
)";

// Both ops fused under a prefix over m.
const std::string kFused = R"(segments:
  - ops: [up, down]
    prefix: [m]
    loops: {up: [k, n], down: [n, l]}
    retention: {A: 1, W1: 3, H: 1, W2: 3, O: 1}
    spatial: {up: [m, n], down: [m, l]}
    tiles: {m: 16, k: 32, n: 16, l: 16}
)";

class MappingErrors : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("hw.yaml", kTinyHardware);
    write("w.yaml", kWorkload);
  }
  /// `dse eval` with `mapping` as m.yaml fails with "m.yaml:<message>".
  void expect_mapping_error(const std::string &mapping, const std::string &message) const {
    write("m.yaml", mapping);
    expect_error({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"},
                 "m.yaml:" + message);
  }
  static std::string unfused(const std::string &from, const std::string &to) {
    return with(kMapping, from, to);
  }
  static std::string fused(const std::string &from, const std::string &to) {
    return with(kFused, from, to);
  }
};

TEST_F(MappingErrors, ValidMappingsAreAccepted) {
  for (const std::string &mapping : {kMapping, kFused}) {
    write("m.yaml", mapping);
    run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"});
  }
}

TEST_F(MappingErrors, MalformedYaml) {
  expect_mapping_error(unfused("n: 16}\n  -", "n: 16\n  -"),
                       "7:8: error: invalid yaml: end of map flow not found");
}

TEST_F(MappingErrors, UnknownTopLevelKey) {
  expect_mapping_error(kMapping + "version: 2\n", "12:1: error: unknown key 'version' at the top "
                                                  "level (expected one of: workload, segments)");
}

TEST_F(MappingErrors, UnknownSegmentKey) {
  expect_mapping_error(unfused("tiles: {m: 16, k: 32", "tile: {m: 16, k: 32"),
                       "6:5: error: unknown key 'tile' in segment 1 (expected one of: ops, "
                       "prefix, cache, loops, retention, spatial, tiles)");
}

TEST_F(MappingErrors, MissingSegments) {
  expect_mapping_error("workload: w\n", "1:1: error: missing required key 'segments'");
}

TEST_F(MappingErrors, NoSegments) {
  expect_mapping_error("segments: []\n",
                       "1:11: error: key 'segments' must list at least one segment");
}

TEST_F(MappingErrors, MissingLoops) {
  expect_mapping_error(unfused("    loops: {up: [m, k, n]}\n", ""),
                       "2:5: error: segment 1: missing required key 'loops'");
}

TEST_F(MappingErrors, OpsIsNotAList) {
  expect_mapping_error(unfused("ops: [up]", "ops: up"),
                       "2:10: error: segment 1: key 'ops' must be a list of names, got 'up'");
}

TEST_F(MappingErrors, OpsMappedTwiceOrNone) {
  expect_mapping_error(unfused("ops: [up]", "ops: [up, down, up]"),
                       "2:21: error: op 'up' is mapped twice");
  expect_mapping_error(unfused("ops: [up]", "ops: []"),
                       "2:10: error: segment 1: key 'ops' must name one operator or a chain of "
                       "them");
}

TEST_F(MappingErrors, TileIsText) {
  expect_mapping_error(unfused("k: 32, n: 16}", "k: 32, n: big}"),
                       "6:30: error: tiles of segment 1: key 'n' must be an integer, got 'big'");
}

TEST_F(MappingErrors, UnknownOp) {
  expect_mapping_error(unfused("ops: [up]", "ops: [upp]"),
                       "2:11: error: 'upp' is not an einsum op of workload 'w'");
}

TEST_F(MappingErrors, LoopsOfAnotherSegmentsOp) {
  expect_mapping_error(unfused("{up: [m, k, n]}", "{up: [m, k, n], down: [m]}"),
                       "2:5: error: 'down' is not an op of this segment");
}

TEST_F(MappingErrors, OpMappedTwice) {
  expect_mapping_error(unfused("ops: [down]", "ops: [up]"), "7:11: error: op 'up' is mapped twice");
}

TEST_F(MappingErrors, OpNotMapped) {
  expect_mapping_error(kMapping.substr(0, kMapping.find("  - ops: [down]")),
                       " error: op 'down' is not mapped by any segment");
}

TEST_F(MappingErrors, MappingOfAnotherWorkload) {
  expect_mapping_error("workload: other\n" + kMapping,
                       " error: mapping is for workload 'other', not 'w'");
}

TEST_F(MappingErrors, NotAFusablePair) {
  expect_mapping_error(fused("ops: [up, down]", "ops: [down, up]"),
                       "2:17: error: ops 'down' and 'up' are not a fusable producer -> consumer "
                       "pair");
}

TEST_F(MappingErrors, UnknownTensor) {
  expect_mapping_error(unfused("H: 1}", "H: 1, X: 1}"),
                       "4:39: error: 'X' is not a tensor of this segment");
}

TEST_F(MappingErrors, IllegalRetentionDepth) {
  expect_mapping_error(unfused("{A: 2,", "{A: 3,"),
                       "2:5: error: illegal mapping: retention depth 3 of tensor 'A' is not 0 or "
                       "right below a loop that indexes it");
}

TEST_F(MappingErrors, IllegalIntermediateDepth) {
  expect_mapping_error(fused("H: 1,", "H: 2,"),
                       "2:5: error: illegal mapping: retention depth 2 of tensor 'H' is not 0 or "
                       "right below a loop that indexes it within the shared prefix");
}

// Two 1-D convolutions, the second reading the first's result through its window.
const std::string kWindowPair = R"(name: w
dims: {p: 6, c: 2, k: 2, r: 3, a: 4, u: 3, j: 2}
ops:
  - {name: conv3a, einsum: "Y[k,p] += W1[k,c,r] * X[c,p+r]"}
  - {name: conv3b, einsum: "Z[j,a] += W2[j,k,u] * Y[k,a+u]"}
)";

const std::string kWindowFused = R"(segments:
  - ops: [conv3a, conv3b]
    prefix: [a]
    loops: {conv3a: [k, c], conv3b: [j, k]}
    retention: {W1: 0, X: 1, Y: 1, W2: 0, Z: 1}
    spatial: {conv3a: [k, c], conv3b: [j, k]}
    tiles: {a: 2, k: 2, c: 2, j: 2}
)";

TEST_F(MappingErrors, WindowLoopsAreSharedAndEncloseTheIntermediate) {
  write("w.yaml", kWindowPair);
  write("m.yaml", kWindowFused);
  run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"});
  expect_mapping_error(
      with(with(kWindowFused, "prefix: [a]", "prefix: []"), "conv3b: [j, k]", "conv3b: [j, k, a]"),
      "2:5: error: illegal mapping: dimension 'a' reads an intermediate "
      "through a window and must be in the shared prefix");
  expect_mapping_error(with(kWindowFused, "Y: 1,", "Y: 0,"),
                       "2:5: error: illegal mapping: halo loop 'a' lies below the "
                       "retention depth of 'Y'");
}

const std::string kNothingToCache =
    " has no halo overlap of 'Y' to keep on chip (a halo dim whose windows overlap, read once by "
    "every "
    "producer access; when padding as wide as the stride follows the intermediate's last "
    "position, the producer has no window of its own along it)";

// A "same" pair (`Y[k, a+u-1]`, a zero on each side): the producer computes only what the
// consumer reads, recomputing the overlap; its own window rules caching out.
TEST_F(MappingErrors, PaddedHaloWithTheProducersOwnWindowIsRecomputed) {
  write("w.yaml", with(with(kWindowPair, "a+u]", "a+u-1]"), "a: 4", "a: 6"));
  write("m.yaml", kWindowFused);
  EXPECT_NE(run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"})
                .out.find("conv3a"),
            std::string::npos);
  expect_mapping_error(with(kWindowFused, "    prefix: [a]\n", "    prefix: [a]\n    cache: [a]\n"),
                       "2:5: error: illegal mapping: dimension 'a'" + kNothingToCache);
}

TEST_F(MappingErrors, OnlyHaloDimsWithAnOverlapAreCached) {
  write("w.yaml", kWindowPair);
  const std::string cached =
      with(kWindowFused, "    prefix: [a]\n", "    prefix: [a]\n    cache: [a]\n");
  write("m.yaml", cached);
  EXPECT_NE(run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"})
                .out.find("| cache a |"),
            std::string::npos);
  expect_mapping_error(with(cached, "cache: [a]", "cache: [k]"),
                       "2:5: error: illegal mapping: dimension 'k'" + kNothingToCache);
  expect_mapping_error(with(cached, "cache: [a]", "cache: [a, a]"),
                       "2:5: error: illegal mapping: a halo dim is cached twice");
  expect_mapping_error(with(cached, "cache: [a]", "cache: [z]"),
                       "4:13: error: 'z' is not a dimension of this segment");
}

TEST_F(MappingErrors, RetentionDepthOutOfRange) {
  expect_mapping_error(unfused("{A: 2,", "{A: 65,"),
                       "4:20: error: retention of segment 1: A must be at most 64, got 65");
}

TEST_F(MappingErrors, MissingRetentionDepth) {
  expect_mapping_error(unfused("W1: 3, ", ""),
                       "2:5: error: missing retention depth of tensor 'W1'");
}

TEST_F(MappingErrors, LoopsMissADimension) {
  expect_mapping_error(unfused("{up: [m, k, n]}", "{up: [m, k]}"),
                       "2:5: error: illegal mapping: the loops of op 'up' must cover each of its "
                       "tiled dimensions exactly once");
}

TEST_F(MappingErrors, LoopOverUnknownDimension) {
  expect_mapping_error(unfused("{up: [m, k, n]}", "{up: [m, k, q]}"),
                       "3:24: error: 'q' is not a dimension of this segment");
}

TEST_F(MappingErrors, PrefixOfASingleOp) {
  expect_mapping_error(unfused("    loops: {up:", "    prefix: [m]\n    loops: {up:"),
                       "2:5: error: illegal mapping: a single operator has no shared prefix");
}

TEST_F(MappingErrors, ProducerReductionInPrefix) {
  expect_mapping_error(fused("prefix: [m]\n    loops: {up: [k, n]", "prefix: [m, k]\n    loops: "
                                                                    "{up: [n]"),
                       "2:5: error: illegal mapping: dimension 'k' may not be in the shared "
                       "prefix (a producer reduction or unknown dimension)");
}

TEST_F(MappingErrors, RecomputeLoopBelowTheIntermediate) {
  expect_mapping_error(fused("prefix: [m]\n    loops: {up: [k, n], down: [n, l]}\n    retention: "
                             "{A: 1, W1: 3, H: 1, W2: 3, O: 1}",
                             "prefix: [m, l]\n    loops: {up: [k, n], down: [n]}\n    retention: "
                             "{A: 1, W1: 4, H: 1, W2: 3, O: 2}"),
                       "2:5: error: illegal mapping: recompute loop 'l' lies below the "
                       "retention depth of 'H'");
}

TEST_F(MappingErrors, SpatialIsNotAPair) {
  expect_mapping_error(unfused("{up: [m, n]}", "{up: [m]}"),
                       "5:19: error: spatial of segment 1: spatial mapping of 'up' must be "
                       "[row_dim, col_dim], got a list");
}

TEST_F(MappingErrors, SpatialOverUnknownDimension) {
  expect_mapping_error(unfused("{up: [m, n]}", "{up: [m, q]}"),
                       "5:23: error: 'q' is not a dimension of this segment");
}

// The message must point at the offending (column) dimension, not at the row dimension.
TEST_F(MappingErrors, SpatialOverAnotherOpsDimension) {
  expect_mapping_error(fused("{up: [m, n],", "{up: [m, l],"),
                       "6:23: error: spatial dimension 'l' is not a tiled dimension of op 'up'");
}

TEST_F(MappingErrors, MissingSpatialMapping) {
  expect_mapping_error(unfused("{up: [m, n]}", "{}"),
                       "2:5: error: missing spatial mapping of op 'up'");
}

TEST_F(MappingErrors, MissingTile) {
  expect_mapping_error(unfused("k: 32, n: 16}", "k: 32}"),
                       "2:5: error: missing tile size of dimension 'n'");
}

TEST_F(MappingErrors, ZeroTile) {
  expect_mapping_error(unfused("k: 32, n: 16}", "k: 0, n: 16}"),
                       "6:23: error: tiles of segment 1: k must be a positive integer, got 0");
}

TEST_F(MappingErrors, TileLargerThanItsDimension) {
  expect_mapping_error(unfused("k: 32, n: 16}", "k: 64, n: 16}"),
                       "6:23: error: tile of 'k' is 64, larger than the dimension (32)");
}

TEST_F(MappingErrors, TileOfAFilterWindow) {
  write("w.yaml", "name: w\ndims: {p: 8, c: 4, k: 4, r: 3}\nops:\n"
                  "  - {name: conv, einsum: \"Y[k,p] += W[k,c,r] * X[c,p+r]\"}\n");
  expect_mapping_error("segments:\n  - ops: [conv]\n    loops: {conv: [k, p, c]}\n"
                       "    retention: {W: 0, X: 0, Y: 0}\n    spatial: {conv: [k, p]}\n"
                       "    tiles: {k: 4, p: 8, c: 4, r: 1}\n",
                       "6:34: error: 'r' is a filter window dimension and is kept whole (3)");
}

TEST_F(MappingErrors, MappingExceedsTheGlobalBuffer) {
  const std::string whole = unfused("{A: 2, W1: 3, H: 1}", "{A: 0, W1: 0, H: 0}");
  expect_mapping_error(with(whole, "m: 16, k: 32, n: 16", "m: 64, k: 32, n: 64"),
                       " error: mapping needs 8192 global-buffer words, more than 'GlobalBuffer' "
                       "holds (4096)");
}

// A chain of three fused (docs/DEPTH_FIRST.md §2): each intermediate's cached halo is named.
const std::string kChainOfThree = test_common::conv_stack_1d_workload("w");

const std::string kChainFused = R"(segments:
  - ops: [conv1, conv2, conv3]
    prefix: [a]
    cache: {Y1: [a]}
    loops: {conv1: [k, c], conv2: [j, k], conv3: [i, j]}
    retention: {W1: 0, X: 1, Y1: 1, W2: 0, Y2: 1, W3: 0, Z: 1}
    spatial: {conv1: [k, c], conv2: [j, k], conv3: [i, j]}
    tiles: {a: 2, k: 2, c: 2, j: 2, i: 2}
)";

// Two "same" windows composed pad the first layer's windows by 2 at stride 1: a tile of 1 puts
// padding in the second window too, which the model does not count.
TEST_F(MappingErrors, ChainTilesWhoseNeighbourWindowsReadPadding) {
  write("w.yaml", R"(name: w
dims: {p: 6, c: 2, k: 2, a: 6, u: 3, j: 2, b: 6, v: 3, i: 2}
ops:
  - {name: conv1, einsum: "Y1[k,p] += W1[k,c] * X[c,p]"}
  - {name: conv2, einsum: "Y2[j,a] += W2[j,k,u] * Y1[k,a+u-1]"}
  - {name: conv3, einsum: "Z[i,b] += W3[i,j,v] * Y2[j,b+v-1]"}
)");
  const std::string mapping = R"(segments:
  - ops: [conv1, conv2, conv3]
    prefix: [b]
    loops: {conv1: [k, c], conv2: [j, k], conv3: [i, j]}
    retention: {W1: 0, X: 1, Y1: 1, W2: 0, Y2: 1, W3: 0, Z: 1}
    spatial: {conv1: [k, c], conv2: [j, k], conv3: [i, j]}
    tiles: {b: 2, k: 2, c: 2, j: 2, i: 2}
)";
  write("m.yaml", mapping);
  run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"});
  expect_mapping_error(with(mapping, "b: 2,", "b: 1,"),
                       "7:16: error: tile 1 of 'b' leaves a first or last tile so narrow that the "
                       "next window reads the padding that the windows composed down the chain "
                       "read too (only the first and last windows may)");
}

TEST_F(MappingErrors, ChainsNameTheIntermediateOfEachCachedHalo) {
  write("w.yaml", kChainOfThree);
  write("m.yaml", kChainFused);
  run_ok({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"});
  expect_mapping_error(with(kChainFused, "cache: {Y1: [a]}", "cache: [a]"),
                       "4:12: error: a chain of 3 ops names the intermediate of each cached halo: "
                       "cache: {Y1: [...], ...}");
  expect_mapping_error(with(kChainFused, "cache: {Y1: [a]}", "cache: {Q: [a]}"),
                       "4:13: error: 'Q' is not an intermediate of this segment");
  expect_mapping_error(with(kChainFused, "cache: {Y1: [a]}", "cache: {Y2: [a]}"),
                       "2:5: error: illegal mapping: dimension 'a' has no halo overlap of 'Y2' to "
                       "keep on chip (a halo dim whose windows overlap, read once by every "
                       "producer access; when padding as wide as the stride follows the "
                       "intermediate's last position, the producer has no window of its own "
                       "along it)");
  expect_mapping_error(with(kChainFused, "ops: [conv1, conv2, conv3]", "ops: [conv1, conv3]"),
                       "2:18: error: ops 'conv1' and 'conv3' are not a fusable producer -> "
                       "consumer pair");
}

} // namespace
} // namespace dse::testing
