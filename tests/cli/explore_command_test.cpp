// End-to-end tests of `dse explore`: the front CSV and JSON, determinism across thread counts,
// objectives, tile menus and --verbose.
#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_fixture.hpp"
#include "common/workloads.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kGemm = repo_file("workloads/gemm-small-64.yaml");
const std::string kFfn = repo_file("workloads/ffn-2048x768x3072x768.yaml");

constexpr double kFfnMacs = 2.0 * 2048 * 768 * 3072; // both GEMMs, no recompute

using ExploreCommand = CliTest;

/// Every field count matches the header, and `point` counts rows from 0.
void expect_well_formed(const Csv &csv) {
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_EQ(csv.rows[i].size(), csv.header.size()) << "row " << i;
    EXPECT_EQ(csv.text(i, "point"), std::to_string(i));
    EXPECT_TRUE(near_relative(csv.number(i, "edp_pj_s"),
                              csv.number(i, "latency_s") * csv.number(i, "energy_pj"), 1e-12));
    const std::string fused = csv.text(i, "fused");
    EXPECT_TRUE(fused == "yes" || fused == "no") << fused;
    const double utilisation = csv.number(i, "pe_utilisation");
    EXPECT_GT(utilisation, 0.0);
    EXPECT_LE(utilisation, 1.0);
  }
}

/// The largest per-operator GB need of a row: the `buffer` objective.
double buffer_words(const Csv &csv, size_t row) {
  double words = 0;
  for (size_t c = 0; c < csv.header.size(); ++c)
    if (csv.header[c].rfind("gb_words_", 0) == 0)
      words = std::max(words, std::strtod(csv.rows[row][c].c_str(), nullptr));
  return words;
}

/// Tile sizes named in a dataflow field ("... | tiles m=32 k=64 ; ... | tiles n=8").
std::vector<std::pair<std::string, long>> tiles_of(const std::string &dataflow) {
  std::vector<std::pair<std::string, long>> out;
  for (size_t at = dataflow.find("tiles "); at != std::string::npos;
       at = dataflow.find("tiles ", at + 1)) {
    std::istringstream in(dataflow.substr(at + 6, dataflow.find(" ;", at) - at - 6));
    for (std::string item; in >> item;) {
      const size_t eq = item.find('=');
      out.emplace_back(item.substr(0, eq), std::stol(item.substr(eq + 1)));
    }
  }
  return out;
}

TEST_F(ExploreCommand, GemmFrontHasTheDocumentedColumns) {
  const std::string out = run_ok({"explore", "--hw", kHw, "--workload", kGemm}).out;
  EXPECT_EQ(out.substr(0, out.find('\n')), "point,latency_s,energy_pj,edp_pj_s,dram_read_words,"
                                           "dram_write_words,gb_words_gemm,macs,pe_utilisation,"
                                           "fused,dataflow");
  const Csv csv = parse_csv(out);
  ASSERT_FALSE(csv.rows.empty());
  expect_well_formed(csv);
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_EQ(csv.number(i, "macs"), 64.0 * 64 * 64);
    EXPECT_EQ(csv.text(i, "fused"), "no");
    EXPECT_EQ(csv.text(i, "dataflow").rfind("single | gemm: ", 0), 0u) << csv.text(i, "dataflow");
  }
}

TEST_F(ExploreCommand, FfnFrontIsSortedByLatencyWithEnergyStrictlyDecreasing) {
  const std::string out = run_ok({"explore", "--hw", kHw, "--workload", kFfn}).out;
  EXPECT_EQ(out.substr(0, out.find('\n')), "point,latency_s,energy_pj,edp_pj_s,dram_read_words,"
                                           "dram_write_words,gb_words_up,gb_words_down,macs,"
                                           "pe_utilisation,fused,dataflow");
  const Csv csv = parse_csv(out);
  ASSERT_GE(csv.rows.size(), 2u) << "a latency/energy trade-off is expected";
  expect_well_formed(csv);
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    EXPECT_GE(csv.number(i, "macs"), kFfnMacs);
    EXPECT_LE(buffer_words(csv, i), 1024.0 * 1024 / 2) << "row " << i << " exceeds the buffer";
    if (i == 0)
      continue;
    EXPECT_GT(csv.number(i, "latency_s"), csv.number(i - 1, "latency_s")) << "row " << i;
    EXPECT_LT(csv.number(i, "energy_pj"), csv.number(i - 1, "energy_pj")) << "row " << i;
  }
}

TEST_F(ExploreCommand, JsonHasTheSamePointsAsCsv) {
  const Csv csv = parse_csv(run_ok({"explore", "--hw", kHw, "--workload", kFfn}).out);
  const nlohmann::json doc =
      nlohmann::json::parse(run_ok({"explore", "--hw", kHw, "--workload", kFfn, "--json"}).out);
  EXPECT_EQ(doc.at("workload"), "ffn-2048x768x3072x768");
  EXPECT_EQ(doc.at("hardware"), "sim-1g-1mb-60gbps");
  const nlohmann::json &points = doc.at("points");
  ASSERT_EQ(points.size(), csv.rows.size());
  for (size_t i = 0; i < csv.rows.size(); ++i) {
    const nlohmann::json &p = points[i];
    EXPECT_EQ(p.at("point").get<size_t>(), i);
    for (const char *key : {"latency_s", "energy_pj", "edp_pj_s", "dram_read_words",
                            "dram_write_words", "macs", "pe_utilisation"})
      EXPECT_EQ(p.at(key).get<double>(), csv.number(i, key)) << key << " of point " << i;
    for (const char *op : {"up", "down"})
      EXPECT_EQ(p.at("gb_words").at(op).get<double>(),
                csv.number(i, std::string("gb_words_") + op));
    EXPECT_EQ(p.at("fused").get<bool>(), csv.text(i, "fused") == "yes");
    EXPECT_EQ(p.at("dataflow").get<std::string>(), csv.text(i, "dataflow"));
  }
}

TEST_F(ExploreCommand, ThreadCountDoesNotChangeTheOutput) {
  const RunResult one = run_ok({"explore", "--hw", kHw, "--workload", kFfn, "--threads", "1"});
  const RunResult two = run_ok({"explore", "--hw", kHw, "--workload", kFfn, "--threads", "2"});
  EXPECT_FALSE(one.out.empty());
  EXPECT_EQ(one.out, two.out);
}

TEST_F(ExploreCommand, OutputFileHoldsWhatStdoutShows) {
  const RunResult to_stdout = run_ok({"explore", "--hw", kHw, "--workload", kGemm});
  const RunResult to_file = run_ok({"explore", "--hw", kHw, "--workload", kGemm, "-o", "f.csv"});
  EXPECT_EQ(to_file.out, "");
  EXPECT_EQ(read("f.csv"), to_stdout.out);
  EXPECT_EQ(listing(), std::vector<std::string>{"f.csv"}) << "no temporary file may remain";
}

TEST_F(ExploreCommand, EdpAndBufferObjectivesGiveTheirOwnFront) {
  const Csv front = parse_csv(
      run_ok({"explore", "--hw", kHw, "--workload", kFfn, "--objectives", "edp,buffer"}).out);
  ASSERT_GE(front.rows.size(), 2u);
  expect_well_formed(front);
  for (size_t i = 1; i < front.rows.size(); ++i) {
    EXPECT_GT(front.number(i, "edp_pj_s"), front.number(i - 1, "edp_pj_s")) << "row " << i;
    EXPECT_LT(buffer_words(front, i), buffer_words(front, i - 1)) << "row " << i;
  }
  // EDP is monotone in latency and energy: its minimum lies on the latency/energy front.
  const Csv default_front = parse_csv(run_ok({"explore", "--hw", kHw, "--workload", kFfn}).out);
  double best_edp = default_front.number(0, "edp_pj_s");
  for (size_t i = 0; i < default_front.rows.size(); ++i)
    best_edp = std::min(best_edp, default_front.number(i, "edp_pj_s"));
  EXPECT_EQ(front.number(0, "edp_pj_s"), best_edp);
}

/// Tile sizes each --tiles menu searches for a dimension of size `size` on a 32-wide array: of
/// the menu's sizes with the same trip count, the smallest.
std::vector<long> menu(const std::string &name, long size) {
  std::vector<long> out;
  for (long t = 1; t <= size; ++t) {
    const bool pow2 = (t & (t - 1)) == 0;
    const bool offered = t == size || (name == "divisors" && size % t == 0) ||
                         (name == "pow2" && pow2) || name == "all" ||
                         (name == "array" && ((t < 32 && pow2) || t % 32 == 0));
    const auto trips = [size](long tile) { return (size + tile - 1) / tile; };
    if (offered && (out.empty() || trips(out.back()) != trips(t)))
      out.push_back(t);
  }
  return out;
}

TEST_F(ExploreCommand, SpaceRestrictionsLeaveOutFusionOrRecompute) {
  // PaLM attention over (DRAM words, buffer words), Orojenesis-style: the full front has fused
  // points and points that recompute; each flag removes its kind and never improves the front.
  const std::vector<std::string> base = {"explore",
                                         "--hw",
                                         repo_file("hw_configs/set-32x32-16m.yaml"),
                                         "--workload",
                                         repo_file("workloads/palm-62b-attention-s2048.yaml"),
                                         "--objectives",
                                         "dram,buffer"};
  const auto count = [](const Csv &csv, const std::string &column, const std::string &text) {
    int n = 0;
    for (size_t i = 0; i < csv.rows.size(); ++i)
      n += csv.text(i, column).find(text) != std::string::npos ? 1 : 0;
    return n;
  };
  const Csv full = parse_csv(run_ok(base).out);
  const Csv no_recompute = parse_csv(run_ok(concat(base, {"--no-recompute"})).out);
  const Csv no_fusion = parse_csv(run_ok(concat(base, {"--no-fusion"})).out);
  EXPECT_GT(count(full, "fused", "yes"), 0);
  EXPECT_GT(count(full, "dataflow", "recompute"), 0);
  EXPECT_EQ(count(no_recompute, "dataflow", "recompute"), 0);
  EXPECT_GT(count(no_recompute, "fused", "yes"), 0);
  EXPECT_EQ(count(no_fusion, "fused", "yes"), 0);
  // The least DRAM traffic reachable, with everything allowed and without each decision.
  const auto least_dram = [](const Csv &csv) {
    return csv.number(0, "dram_read_words") + csv.number(0, "dram_write_words");
  };
  EXPECT_LE(least_dram(full), least_dram(no_recompute));
  EXPECT_LT(least_dram(full), least_dram(no_fusion));
}

// The Q, K and V projections of attention read one input: stacked, a dataflow may read it once
// for all three. The stacks are searched unless --no-stacking, their front points evaluate back
// through `dse eval`, and a mapping that maps a projection twice (alone or in a stack) is refused.
TEST_F(ExploreCommand, StackedProjectionsReadTheirInputOnce) {
  write("att.yaml", "name: att\ndims: {h: 2, m: 64, n: 64, k: 16, l: 16, d: 64, e: 64}\nops:\n"
                    "  - {name: q, einsum: \"Q[h,m,k] += X[m,d] * Wq[d,h,k]\"}\n"
                    "  - {name: k, einsum: \"K[h,n,k] += X[n,d] * Wk[d,h,k]\"}\n"
                    "  - {name: v, einsum: \"V[h,n,l] += X[n,d] * Wv[d,h,l]\"}\n"
                    "  - {name: qk, einsum: \"S[h,m,n] += Q[h,m,k] * K[h,n,k]\"}\n"
                    "  - {name: sm, kind: softmax, over: n, tensor: S, out: P}\n"
                    "  - {name: pv, einsum: \"O[h,m,l] += P[h,m,n] * V[h,n,l]\"}\n"
                    "  - {name: o, einsum: \"Z[m,e] += O[h,m,l] * Wo[h,l,e]\"}\n");
  const std::vector<std::string> base = {"explore",     "--hw",     kHw,
                                         "--workload",  "att.yaml", "--objectives",
                                         "dram,energy", "--tiles",  "pow2"};
  const Csv stacked = parse_csv(run_ok(base).out);
  const Csv apart = parse_csv(run_ok(concat(base, {"--no-stacking"})).out);
  expect_well_formed(stacked);
  const auto least_dram = [](const Csv &csv) {
    return csv.number(0, "dram_read_words") + csv.number(0, "dram_write_words");
  };
  EXPECT_EQ(least_dram(apart) - least_dram(stacked), 2 * 64 * 64); // X read once, not thrice
  EXPECT_NE(stacked.text(0, "dataflow").find("q+k+v:"), std::string::npos);
  for (size_t i = 0; i < apart.rows.size(); ++i)
    EXPECT_EQ(apart.text(i, "dataflow").find("q+"), std::string::npos);
  for (size_t i = 0; i < stacked.rows.size(); ++i) {
    write("m.yaml", run_ok(concat(base, {"--emit-mapping", std::to_string(i)})).out);
    const nlohmann::json eval = nlohmann::json::parse(
        run_ok({"eval", "--hw", kHw, "--workload", "att.yaml", "--mapping", "m.yaml", "--json"})
            .out);
    EXPECT_TRUE(near_relative(eval["total"]["energy_pj"].get<double>(),
                              stacked.number(i, "energy_pj"), 1e-12));
  }
  // On a general hierarchy the stacks are searched with the fused pairs, under --hier-fusion.
  write("two.yaml", "name: two\ndims: {m: 16, d: 16, k: 16}\nops:\n"
                    "  - {name: a, einsum: \"A[m,k] += X[m,d] * Wa[d,k]\"}\n"
                    "  - {name: b, einsum: \"B[m,k] += X[m,d] * Wb[d,k]\"}\n");
  const std::vector<std::string> a16 = {
      "explore", "--hw", repo_file("hw_configs/a16-timeloop.yaml"), "--workload", "two.yaml", "-v"};
  EXPECT_EQ(run(a16).err.find("a+b:"), std::string::npos);
  EXPECT_NE(run(concat(a16, {"--hier-fusion"})).err.find("a+b:"), std::string::npos);
  // Point 0's first segment, the stack, mapped again.
  const std::string mapping = run_ok(concat(base, {"--emit-mapping", "0"})).out;
  const size_t first = mapping.find("  - ops:");
  const size_t second = mapping.find("  - ops:", first + 1);
  ASSERT_NE(mapping.find("q+k+v", first), std::string::npos);
  write("twice.yaml", mapping + mapping.substr(first, second - first));
  const auto lines = std::count(mapping.begin(), mapping.end(), '\n');
  expect_error({"eval", "--hw", kHw, "--workload", "att.yaml", "--mapping", "twice.yaml"},
               "twice.yaml:" + std::to_string(lines + 1) +
                   ":11: error: op 'q' is mapped twice (here by 'q+k+v')");
}

TEST_F(ExploreCommand, TileMenusRestrictTheTileSizes) {
  const std::map<std::string, long> dims{{"m", 96}, {"k", 40}, {"n", 24}};
  write("gemm.yaml", test_common::gemm_workload("gemm", 96, 40, 24, "gemm"));
  std::map<std::string, Csv> fronts;
  for (const std::string name : {"divisors", "pow2", "array", "all"}) {
    const RunResult r =
        run({"explore", "--hw", kHw, "--workload", "gemm.yaml", "--tiles", name, "-v"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    size_t tilings = 1;
    for (const auto &[dim, size] : dims)
      tilings *= menu(name, size).size();
    EXPECT_NE(r.err.find("; tilings " + std::to_string(tilings) + ";"), std::string::npos)
        << "--tiles " << name << ": " << r.err;
    const Csv &csv = fronts[name] = parse_csv(r.out);
    ASSERT_FALSE(csv.rows.empty()) << name;
    for (size_t i = 0; i < csv.rows.size(); ++i)
      for (const auto &[dim, tile] : tiles_of(csv.text(i, "dataflow"))) {
        const std::vector<long> allowed = menu(name, dims.at(dim));
        EXPECT_NE(std::find(allowed.begin(), allowed.end(), tile), allowed.end())
            << "--tiles " << name << " chose " << dim << "=" << tile;
      }
  }
  // Every menu is a subset of `all`, so the `all` front weakly dominates every other front.
  const Csv &all = fronts["all"];
  for (const auto &[name, csv] : fronts)
    for (size_t i = 0; i < csv.rows.size(); ++i) {
      bool dominated = false;
      for (size_t j = 0; j < all.rows.size() && !dominated; ++j)
        dominated = all.number(j, "latency_s") <= csv.number(i, "latency_s") &&
                    all.number(j, "energy_pj") <= csv.number(i, "energy_pj");
      EXPECT_TRUE(dominated) << "point " << i << " of --tiles " << name;
    }
}

// Op names are free text and name the gb_words_<op> columns; the header must quote them like
// the dataflow field is quoted, or a ',' in a name shifts every later column.
TEST_F(ExploreCommand, HeaderQuotesOpNames) {
  write("comma.yaml", "name: w\ndims: {m: 16, k: 16, n: 16}\nops:\n"
                      "  - {name: \"up,proj\", einsum: \"C[m,n] += A[m,k] * B[k,n]\"}\n");
  const RunResult r = run({"explore", "--hw", kHw, "--workload", "comma.yaml"});
  if (r.exit_code == 1 && r.err.rfind("comma.yaml:", 0) == 0)
    return; // rejecting such names where they are written is fine too
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Csv csv = parse_csv(r.out);
  ASSERT_FALSE(csv.rows.empty());
  EXPECT_EQ(csv.header.size(), csv.rows[0].size()) << r.out;
  EXPECT_EQ(csv.header.at(6), "gb_words_up,proj");
}

TEST_F(ExploreCommand, EveryColumnGivesTheSameFrontAsTheBoxes) {
  // GPT-3 attention: the boxes skip most of its fused pair's tilings (docs/DESIGN.md §4.3).
  const std::vector<std::string> args = {
      "explore", "--hw", kHw, "--workload", repo_file("workloads/gpt3-6.7b-attention-s2048.yaml"),
      "--json"};
  const RunResult boxes = run(concat(args, {"-v"}));
  const RunResult columns = run(concat(args, {"-v", "--every-column"}));
  ASSERT_EQ(boxes.exit_code, 0) << boxes.err;
  ASSERT_EQ(columns.exit_code, 0) << columns.err;
  EXPECT_EQ(columns.out, boxes.out);
  const auto visited = [](const std::string &err) {
    const size_t at = err.rfind("; tiling columns visited ");
    return std::stoull(err.substr(at + std::string("; tiling columns visited ").size()));
  };
  const auto tilings = [](const std::string &err) {
    const size_t at = err.rfind("; tilings ");
    return std::stoull(err.substr(at + std::string("; tilings ").size()));
  };
  EXPECT_EQ(visited(columns.err), tilings(columns.err)) << columns.err;
  EXPECT_LT(visited(boxes.err), tilings(boxes.err) / 2) << boxes.err;
}

TEST_F(ExploreCommand, VerbosePrintsSearchStatisticsOnStderr) {
  const RunResult quiet = run_ok({"explore", "--hw", kHw, "--workload", kGemm});
  const RunResult verbose = run({"explore", "--hw", kHw, "--workload", kGemm, "-v"});
  EXPECT_EQ(verbose.exit_code, 0);
  EXPECT_EQ(verbose.out, quiet.out) << "statistics must not go to stdout";
  // After the estimate printed before the search (see space_limits_test.cpp).
  EXPECT_NE(verbose.err.find("\ngemm: dataflows "), std::string::npos) << verbose.err;
  for (const char *part :
       {" (per-operator pruning) -> ", " (group pruning); spatial combinations ", "; candidates ",
        "; tilings ", "; mappings evaluated ", "; basis functions ", "; tiling boxes visited ",
        "; tiling columns visited ", " (mappings found to fit the buffer ",
        "); objectives computed for ", " mappings; Q x B ", " flops; ", " flop/s"})
    EXPECT_NE(verbose.err.find(part), std::string::npos) << part;
  const size_t last = verbose.err.rfind("\ntotal: ");
  ASSERT_NE(last, std::string::npos) << verbose.err;
  EXPECT_NE(verbose.err.find(" s, 1 front points\n", last), std::string::npos) << verbose.err;
}

TEST_F(ExploreCommand, ProgressGoesToStderrOnlyWhenAsked) {
  const RunResult quiet = run_ok({"explore", "--hw", kHw, "--workload", kGemm});
  const RunResult shown = run({"explore", "--hw", kHw, "--workload", kGemm, "--progress"});
  EXPECT_EQ(shown.exit_code, 0);
  EXPECT_EQ(shown.out, quiet.out);
  EXPECT_EQ(shown.err.rfind("\rgemm", 0), 0u) << shown.err;
  EXPECT_NE(shown.err.find("100.0%   15435/15435   mappings ETA"), std::string::npos) << shown.err;
  EXPECT_EQ(shown.err.back(), '\n');
}

TEST_F(ExploreCommand, HelpListsEveryOption) {
  const RunResult help = run_ok({"explore", "--help"});
  for (const char *option :
       {"--hw", "--workload", "-o,--output", "--json", "--threads", "--tiles", "--objectives",
        "--latency-model", "-v,--verbose", "--progress", "--emit-mapping", "--max-tilings",
        "--max-loop-nests", "--max-fused", "--no-stacking"})
    EXPECT_NE(help.out.find(option), std::string::npos) << option;
}

} // namespace
} // namespace dse::testing
