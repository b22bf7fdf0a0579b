// End-to-end tests of `dse eval`: a small fused attention mapping whose breakdown is checked
// against numbers worked out by hand from the cost model, as JSON and as text.
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

// 32x32 PEs at 1 GHz, 16-bit words, 60 GB/s DRAM, 64 words/cycle GB.
const std::string kHardware = R"(name: hand
clock_ghz: 1.0
word_bytes: 2
pe_array: {rows: 32, cols: 32, mac_energy_pj: 1.5}
levels:
  - {name: DRAM, bandwidth_gbps: 60, read_energy_pj: 320.0, write_energy_pj: 320.0}
  - {name: GlobalBuffer, capacity_kib: 1024, bandwidth_words_per_cycle: 64,
     read_energy_pj: 25.0, write_energy_pj: 25.0}
  - {name: RegFile, capacity_words: 64, read_energy_pj: 1.5, write_energy_pj: 1.5}
)";

const std::string kWorkload = test_common::attention_workload("attention", 2, 16, 16, 8, 8);

// Fused under a prefix over h (2 trips); every other dimension is one whole tile.
const std::string kMapping = R"(segments:
  - ops: [qk, pv]
    prefix: [h]
    loops: {qk: [n, k, m], pv: [m, l, n]}
    retention: {Q: 4, K: 3, S: 1, V: 4, O: 3}
    spatial: {qk: [m, n], pv: [m, n]}
    tiles: {h: 1, m: 16, n: 16, k: 8, l: 8}
)";

class EvalCommand : public CliTest {
protected:
  void SetUp() override {
    CliTest::SetUp();
    write("hw.yaml", kHardware);
    write("w.yaml", kWorkload);
    write("m.yaml", kMapping);
  }
  static std::vector<std::string> eval(const std::vector<std::string> &extra) {
    return concat({"eval", "--hw", "hw.yaml", "--workload", "w.yaml", "--mapping", "m.yaml"},
                  extra);
  }
  /// Evaluates two 1-D convolutions fused through the second's 3-wide window (it reads
  /// `Y[k, <read>]`; Y has `p` positions), prefix [a] in tiles of 2, caching a when `cache`;
  /// returns the JSON report's segment.
  nlohmann::json eval_window_pair(const std::string &p, const std::string &read, bool cache) {
    write("w.yaml", "name: w\ndims: {p: " + p + ", c: 2, k: 2, r: 3, a: 8, u: 3, j: 2}\nops:\n" +
                        "  - {name: conv3a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n" +
                        "  - {name: conv3b, einsum: \"Z[j,a] += W2[j,k,u] * Y[k," + read +
                        "]\"}\n");
    write("m.yaml", std::string("segments:\n  - ops: [conv3a, conv3b]\n    prefix: [a]\n") +
                        (cache ? "    cache: [a]\n" : "") +
                        "    loops: {conv3a: [k, c], conv3b: [j, k]}\n"
                        "    retention: {W1: 0, X: 1, Y: 1, W2: 0, Z: 1}\n"
                        "    spatial: {conv3a: [k, c], conv3b: [j, k]}\n"
                        "    tiles: {a: 2, k: 2, c: 2, j: 2}\n");
    return nlohmann::json::parse(run_ok(eval({"--json"})).out).at("segments")[0];
  }
};

TEST_F(EvalCommand, TensorTrafficMatchesHandComputation) {
  const nlohmann::json doc = nlohmann::json::parse(run_ok(eval({"--json"})).out);
  EXPECT_EQ(doc.at("workload"), "attention");
  EXPECT_EQ(doc.at("hardware"), "hand");
  ASSERT_EQ(doc.at("segments").size(), 1u);
  const nlohmann::json &seg = doc.at("segments")[0];
  EXPECT_EQ(seg.at("dataflow"), "fused prefix[h] | qk: n k m | pv: m l n | keep Q@4 K@3 S@1 V@4 "
                                "O@3 | spatial qk(m,n) pv(m,n)");
  // Each input tile (one h slice, 128 words) is loaded once per h trip; S stays on chip whole
  // per h slice (16 x 16); O is written once.
  const nlohmann::json expected = nlohmann::json::parse(R"([
    {"name": "Q", "role": "input", "retention_depth": 4, "footprint_words": 128.0,
     "dram_reads": 256.0, "dram_writes": 0.0},
    {"name": "K", "role": "input", "retention_depth": 3, "footprint_words": 128.0,
     "dram_reads": 256.0, "dram_writes": 0.0},
    {"name": "S", "role": "intermediate", "retention_depth": 1, "footprint_words": 256.0,
     "dram_reads": 0.0, "dram_writes": 0.0},
    {"name": "V", "role": "input", "retention_depth": 4, "footprint_words": 128.0,
     "dram_reads": 256.0, "dram_writes": 0.0},
    {"name": "O", "role": "output", "retention_depth": 3, "footprint_words": 128.0,
     "dram_reads": 0.0, "dram_writes": 256.0}])");
  EXPECT_EQ(seg.at("tensors"), expected);
  // 2*16*16*8 MACs per op; 16x16 of the 32x32 array busy: 8 k steps x 2 h trips = 16 cycles.
  for (const nlohmann::json &op : seg.at("operators")) {
    EXPECT_EQ(op.at("macs"), 4096.0);
    EXPECT_EQ(op.at("cycles"), 16.0);
    EXPECT_EQ(op.at("utilisation"), 0.25);
    EXPECT_EQ(op.at("gb_words"), 512.0); // Q, K tiles + whole S slice (qk); S + V + O (pv)
  }
  // Softmax: 4 ops per element of S (512) plus one online rescale of O (256) per n tile.
  EXPECT_EQ(seg.at("vector_ops"), 4.0 * 512 + 256);
  EXPECT_EQ(seg.at("softmax_pass_words"), 0.0);
}

TEST_F(EvalCommand, EnergyAndLatencyMatchHandComputation) {
  const nlohmann::json doc = nlohmann::json::parse(run_ok(eval({"--json"})).out);
  const nlohmann::json &seg = doc.at("segments")[0];
  const nlohmann::json &energy = seg.at("energy_pj");
  EXPECT_EQ(energy.at("mac"), 1.5 * 8192);
  EXPECT_EQ(energy.at("vector"), 1.5 * 2304);
  EXPECT_EQ(energy.at("dram"), 320.0 * (768 + 256));
  // DRAM reads are written into the GB, writes read from it; GB<->PE reads 1536, writes 768.
  EXPECT_EQ(energy.at("global_buffer"), 25.0 * (768 + 768) + 25.0 * (256 + 1536));
  EXPECT_EQ(energy.at("register_file"), (2 * 1.5 + 1.5) * 8192); // 2 reads + 1 write per MAC
  const double total = 12288.0 + 3456 + 327680 + 83200 + 36864;
  EXPECT_EQ(energy.at("total"), total);
  const nlohmann::json &cycles = seg.at("latency_cycles");
  EXPECT_EQ(cycles.at("compute"), 32.0 + 2304.0 / 1024); // MAC cycles + vector work
  EXPECT_TRUE(near_relative(cycles.at("dram").get<double>(), 1024.0 * 2 / 60, 1e-12));
  EXPECT_EQ(cycles.at("global_buffer"), (1536.0 + 768) / 64);
  EXPECT_EQ(cycles.at("bound"), "gb");
  EXPECT_TRUE(near_relative(seg.at("latency_s").get<double>(), 36e-9, 1e-12));
  const nlohmann::json &sum = doc.at("total");
  EXPECT_TRUE(near_relative(sum.at("latency_s").get<double>(), 36e-9, 1e-12));
  EXPECT_EQ(sum.at("energy_pj"), total);
  EXPECT_TRUE(near_relative(sum.at("edp_pj_s").get<double>(), 36e-9 * total, 1e-12));
  EXPECT_EQ(sum.at("dram_words"), 1024.0);
  EXPECT_EQ(sum.at("gb_words"), 512.0);
}

TEST_F(EvalCommand, SequentialLatencyAddsTheParts) {
  const nlohmann::json doc =
      nlohmann::json::parse(run_ok(eval({"--json", "--latency-model", "sequential"})).out);
  const double cycles = 34.25 + 1024.0 * 2 / 60 + 36;
  EXPECT_TRUE(near_relative(doc.at("total").at("latency_s").get<double>(), cycles * 1e-9, 1e-12));
}

TEST_F(EvalCommand, TextReportShowsTheBreakdownExactly) {
  const std::string text = run_ok(eval({})).out;
  for (const char *line :
       {"segment: fused prefix[h] | qk: n k m | pv: m l n | keep Q@4 K@3 S@1 V@4 O@3 | spatial "
        "qk(m,n) pv(m,n)\n",
        "  S               intermediate     1          256              0              0\n",
        "  energy (pJ): mac 12288, vector 3456, dram 327680, global buffer 83200, register file "
        "36864; total 463488\n",
        // Every number exact: the latency reads back as the double the JSON holds.
        "  latency (cycles): compute 34.25, dram 34.13333333333333, global buffer 36; bound by gb; "
        "3.6000000000000005e-08 s\n",
        "total: latency 3.6000000000000005e-08 s, energy 463488 pJ, EDP 0.016685568 pJ*s, DRAM "
        "1024 words, GB need 512 words\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "in:\n" << text;
}

TEST_F(EvalCommand, OutputFileHoldsWhatStdoutShows) {
  const RunResult to_stdout = run_ok(eval({"--json"}));
  const RunResult to_file = run_ok(eval({"--json", "-o", "report.json"}));
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read("report.json"), to_stdout.out);
}

// The same hardware with DMA units of 1 (load), 0.5 (store) and 0.5 (both) words per cycle.
const std::string kDmaUnits = R"(dma_units:
  - {name: ld, direction: load, bandwidth_gbps: 2}
  - {name: st, direction: store, bandwidth_gbps: 1}
  - {name: io, direction: both, bandwidth_gbps: 1}
)";

TEST_F(EvalCommand, DmaUnitsBalanceTheTransfers) {
  write("hw.yaml", kHardware + kDmaUnits);
  const nlohmann::json doc = nlohmann::json::parse(run_ok(eval({"--json"})).out);
  const nlohmann::json &seg = doc.at("segments")[0];
  // 768 reads, 256 writes: max(768 / 1.5, 256 / 1, 1024 / 2) = 512 cycles, far above the DRAM's
  // 1024 * 2 / 60. The load unit carries 512 reads, the store unit all 256 writes and the
  // bidirectional unit the other 256 reads: all three busy 512 cycles.
  EXPECT_EQ(seg.at("latency_cycles").at("dram"), 512.0);
  EXPECT_EQ(seg.at("latency_cycles").at("bound"), "dram");
  EXPECT_TRUE(near_relative(seg.at("latency_s").get<double>(), 512e-9, 1e-12));
  const nlohmann::json expected = nlohmann::json::parse(R"([
    {"name": "ld", "read_words": 512.0, "write_words": 0.0, "cycles": 512.0},
    {"name": "st", "read_words": 0.0, "write_words": 256.0, "cycles": 512.0},
    {"name": "io", "read_words": 256.0, "write_words": 0.0, "cycles": 512.0}])");
  EXPECT_EQ(seg.at("dma_units"), expected);
  const std::string text = run_ok(eval({})).out;
  for (const char *line : {"; bound by dram; 5.12e-07 s\n",
                           "  dma unit ld: reads 512, writes 0 words; busy 512 cycles\n",
                           "  dma unit st: reads 0, writes 256 words; busy 512 cycles\n",
                           "  dma unit io: reads 256, writes 0 words; busy 512 cycles\n"})
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "in:\n" << text;
}

TEST_F(EvalCommand, NoDmaUnitsNoDmaBreakdown) {
  const nlohmann::json doc = nlohmann::json::parse(run_ok(eval({"--json"})).out);
  EXPECT_FALSE(doc.at("segments")[0].contains("dma_units"));
  EXPECT_EQ(run_ok(eval({})).out.find("dma unit"), std::string::npos);
}

// The window dim `a` in tiles of 2 (4 steps) with its overlap cached: the first step computes 4
// positions of Y, each later one its 2 new ones, 10 in all (the unfused count); X (window 3 of
// its own) is read 6 rows at the first step and 4 at each later one, 18 rows of 2 channels; the
// store keeps U - s = 2 positions of both channels of Y.
TEST_F(EvalCommand, CachedHaloMatchesHandComputation) {
  const nlohmann::json seg = eval_window_pair("10", "a+u", true);
  EXPECT_EQ(seg.at("overlap_store_words"), 4.0);
  EXPECT_EQ(seg.at("operators")[0].at("macs"), 2.0 * 2 * 3 * 10);
  EXPECT_EQ(seg.at("operators")[1].at("macs"), 2.0 * 2 * 3 * 8);
  const nlohmann::json &x = seg.at("tensors")[1];
  EXPECT_EQ(x.at("name"), "X");
  EXPECT_EQ(x.at("footprint_words"), 2.0 * 6);
  EXPECT_EQ(x.at("dram_reads"), 2.0 * 18);
  EXPECT_NE(run_ok(eval({})).out.find("overlap stores of the cached halos: 4 words"),
            std::string::npos);
}

// A "same" pair (a zero on each side of Y), recomputed along a: the windows of the four tiles
// are [-1, 2], [1, 4], [3, 6] and [5, 8]; without the padding, conv3a computes 3, 4, 4 and 3
// positions (14 = E + (t - 1)(U - s) = 8 + 3 * 2), and X's tiles span 2 more each.
TEST_F(EvalCommand, PaddedHaloMatchesHandComputation) {
  const nlohmann::json seg = eval_window_pair("8", "a+u-1", false);
  EXPECT_EQ(seg.at("overlap_store_words"), 0.0);
  EXPECT_EQ(seg.at("operators")[0].at("macs"), 2.0 * 2 * 3 * 14);
  EXPECT_EQ(seg.at("operators")[1].at("macs"), 2.0 * 2 * 3 * 8);
  const nlohmann::json &x = seg.at("tensors")[1];
  EXPECT_EQ(x.at("name"), "X");
  EXPECT_EQ(x.at("footprint_words"), 2.0 * 6); // a tile's whole window: its allocation
  EXPECT_EQ(x.at("dram_reads"), 2.0 * (5 + 6 + 6 + 5));
}

} // namespace
} // namespace dse::testing
