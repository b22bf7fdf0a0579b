// The candidate cache directory (--cache-dir): entries as files, every corrupt or stale file
// rebuilt and rewritten, an unwritable directory reported once; and end to end, fronts
// byte-identical with and without the cache, cold and warm, on every command that searches.
#include "dse/cli/candidate_directory.hpp"

#include <cstdlib>
#include <fstream>
#include <tbb/task_arena.h>

#include "cli/cli_fixture.hpp"
#include "common/candidate_spaces.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/ir/chain.hpp"
#include "dse/search/candidate_entry.hpp"

namespace dse::testing {
namespace {

const std::string kHw = repo_file("hw_configs/sim-1g-1mb-60gbps.yaml");
const std::string kAttention = repo_file("workloads/gpt3-6.7b-attention-s2048.yaml");

/// A 3x3 convolution (halo indices) feeding a 1x1 one: windows and a fused pair, small sizes.
const std::string kConvPair = "name: conv-pair\ndims: {p: 8, q: 8, c: 4, k: 8, r: 3, s: 3, j: 4}\n"
                              "ops:\n"
                              "  - {name: conv3x3, einsum: \"Y[k,p,q] += W1[k,c,r,s] * "
                              "X[c,p+r,q+s]\"}\n"
                              "  - {name: conv1x1, einsum: \"Z[j,p,q] += W2[j,k] * Y[k,p,q]\"}\n";

using CandidateDirectoryTest = CliTest;

std::vector<std::filesystem::path> entries_in(const std::filesystem::path &dir) {
  std::vector<std::filesystem::path> out;
  for (const auto &e : std::filesystem::directory_iterator(dir))
    out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string slurp(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void overwrite(const std::filesystem::path &path, const std::string &bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST_F(CandidateDirectoryTest, RebuildsAndRewritesEveryFileItCannotTrust) {
  const Workload w = parse_workload(kConvPair, "conv.yaml");
  const Chain chain = chain_splits(w).front().at(0);
  const Problem problem = make_fused_problem(w, chain.links[0], chain.links[1]);
  const std::string key = candidate_space_key(problem, false, Pruning::Symbolic, true);
  const CandidateSpace fresh = build_candidate_space(problem, false, Pruning::Symbolic);
  const std::string good = encode_candidate_entry(key, fresh);
  const auto directory = std::make_shared<CandidateDirectory>(
      dir_ / "a" / "b", [](const std::string &why) { ADD_FAILURE() << why; });
  const std::filesystem::path file = directory->entry_path(key);
  {
    CandidateCache cold(directory);
    test_common::expect_same_space(*cold.get(problem, false, Pruning::Symbolic), fresh);
    EXPECT_EQ(entries_in(dir_ / "a" / "b"), std::vector<std::filesystem::path>{file});
    EXPECT_EQ(slurp(file), good);
  }
  std::string edited = good;
  edited[good.size() - 7] ^= 0x01;
  std::string version = good;
  version[8] = static_cast<char>(kCandidateEntryVersion + 1);
  const std::pair<std::string, std::string> cases[] = {
      {good.substr(0, good.size() - 1), "truncated"},
      {edited, "checksum mismatch"},
      {version, "format version " + std::to_string(kCandidateEntryVersion + 1) + ", expected " +
                    std::to_string(kCandidateEntryVersion)},
      {encode_candidate_entry(candidate_space_key(problem, true, Pruning::Symbolic, true), fresh),
       "written for another key"}};
  for (const auto &[bytes, why] : cases) {
    SCOPED_TRACE(why);
    overwrite(file, bytes);
    CandidateCache cache(directory);
    test_common::expect_same_space(*cache.get(problem, false, Pruning::Symbolic), fresh);
    EXPECT_EQ(cache.counts().rejected, std::vector<std::string>{why});
    EXPECT_EQ(cache.counts().built, 1U);
    EXPECT_EQ(slurp(file), good) << "the file is rewritten";
  }
  CandidateCache warm(directory);
  test_common::expect_same_space(*warm.get(problem, false, Pruning::Symbolic), fresh);
  EXPECT_EQ(warm.counts().loaded, 1U);

  // What is not a regular file is neither read nor replaced; the cache goes on without saving.
  std::filesystem::remove(file);
  std::filesystem::create_directory(file);
  std::vector<std::string> warnings;
  const auto blocked = std::make_shared<CandidateDirectory>(
      dir_ / "a" / "b", [&](const std::string &why) { warnings.push_back(why); });
  EXPECT_EQ(blocked->load(key), std::nullopt);
  CandidateCache cache(blocked);
  test_common::expect_same_space(*cache.get(problem, false, Pruning::Symbolic), fresh);
  EXPECT_TRUE(std::filesystem::is_directory(file));
  EXPECT_EQ(warnings, std::vector<std::string>{"'" + file.string() + "' is not a regular file"});
}

TEST_F(CandidateDirectoryTest, AnUnwritableDirectoryIsReportedOnceAndTheCacheGoesOn) {
  write("blocker", "a file where the cache directory should be\n");
  std::vector<std::string> warnings;
  std::mutex mutex;
  const auto directory =
      std::make_shared<CandidateDirectory>(dir_ / "blocker" / "cache", [&](const std::string &why) {
        std::lock_guard lock(mutex);
        warnings.push_back(why);
      });
  const Workload w = parse_workload(kConvPair, "conv.yaml");
  const Chain chain = chain_splits(w).front().at(0);
  const Problem fused = make_fused_problem(w, chain.links[0], chain.links[1]);
  const Problem first = make_single_problem(w, chain.links[0]);
  const Problem second = make_single_problem(w, chain.links[1]);
  CandidateCache cache(directory);
  tbb::task_arena(2).execute([&] {
    cache.prepare({&fused, &first, &second}, false, Pruning::Symbolic);
  });
  test_common::expect_same_space(*cache.get(first, false, Pruning::Symbolic),
                                 build_candidate_space(first, false, Pruning::Symbolic));
  EXPECT_EQ(cache.counts().built, 3U);
  ASSERT_EQ(warnings.size(), 1U);
  EXPECT_EQ(warnings[0].rfind(
                "cannot create directory '" + (dir_ / "blocker" / "cache").string() + "': ", 0),
            0U)
      << warnings[0];
}

/// explore of `workload` writing `output`, with `extra` arguments.
std::vector<std::string> explore(const std::string &workload, const std::string &output,
                                 const std::vector<std::string> &extra = {}) {
  return concat({"explore", "--hw", kHw, "--workload", workload, "-o", output, "--threads", "2"},
                extra);
}

TEST_F(CandidateDirectoryTest, ExploreWritesTheSameFrontWithoutColdAndWarm) {
  write("conv.yaml", kConvPair);
  for (const std::string &workload : {kAttention, std::string("conv.yaml")}) {
    SCOPED_TRACE(workload);
    std::filesystem::remove_all(dir_ / "cache");
    run_ok(explore(workload, "plain.csv"));
    run_ok(explore(workload, "cold.csv", {"--cache-dir", "cache"}));
    EXPECT_EQ(entries_in(dir_ / "cache").size(), 3U); // both operators and the fused pair
    const RunResult warm = run(explore(workload, "warm.csv", {"--cache-dir", "cache", "-v"}));
    EXPECT_EQ(warm.exit_code, 0);
    EXPECT_NE(warm.err.find("\ncandidate cache 'cache': 3 read, 0 built\n"), std::string::npos)
        << warm.err;
    EXPECT_EQ(read("cold.csv"), read("plain.csv"));
    EXPECT_EQ(read("warm.csv"), read("plain.csv"));
  }
}

TEST_F(CandidateDirectoryTest, ExploreRebuildsCorruptEntriesAndRewritesThem) {
  run_ok(explore(kAttention, "plain.csv", {"--cache-dir", "cache"}));
  const std::vector<std::filesystem::path> files = entries_in(dir_ / "cache");
  ASSERT_EQ(files.size(), 3U);
  const std::string whole = slurp(files[0]);
  overwrite(files[0], whole.substr(0, whole.size() / 3));
  std::string edited = slurp(files[1]);
  edited[edited.size() - 1] ^= 0x40;
  overwrite(files[1], edited);

  const RunResult repaired =
      run(explore(kAttention, "repaired.csv", {"--cache-dir", "cache", "-v"}));
  EXPECT_EQ(repaired.exit_code, 0);
  EXPECT_NE(repaired.err.find("\ncandidate cache 'cache': 1 read, 2 built (2 refused: checksum "
                              "mismatch, truncated)\n"),
            std::string::npos)
      << repaired.err;
  EXPECT_EQ(read("repaired.csv"), read("plain.csv"));
  EXPECT_EQ(slurp(files[0]), whole);
  const RunResult warm = run(explore(kAttention, "warm.csv", {"--cache-dir", "cache", "-v"}));
  EXPECT_NE(warm.err.find("\ncandidate cache 'cache': 3 read, 0 built\n"), std::string::npos)
      << warm.err;
  EXPECT_EQ(read("warm.csv"), read("plain.csv"));
}

TEST_F(CandidateDirectoryTest, AnUnwritableCacheDirectoryWarnsOnceAndTheRunSucceeds) {
  write("blocker", "not a directory\n");
  run_ok(explore(kAttention, "plain.csv"));
  const RunResult r = run(explore(kAttention, "front.csv", {"--cache-dir", "blocker/cache"}));
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "warning: candidate cache: cannot create directory 'blocker/cache': Not a "
                   "directory; candidate spaces are not saved\n");
  EXPECT_EQ(read("front.csv"), read("plain.csv"));
}

TEST_F(CandidateDirectoryTest, TheEnvironmentNamesTheDirectoryUnlessTheOptionDoes) {
  ::setenv("DSE_CACHE_DIR", "from-env", 1);
  run_ok(explore(kAttention, "env.csv"));
  run_ok(explore(kAttention, "option.csv", {"--cache-dir", "from-option"}));
  ::unsetenv("DSE_CACHE_DIR");
  EXPECT_EQ(entries_in(dir_ / "from-env").size(), 3U);
  EXPECT_EQ(entries_in(dir_ / "from-option").size(), 3U);
  EXPECT_EQ(read("env.csv"), read("option.csv"));
}

TEST_F(CandidateDirectoryTest, SweepEmitAndNetworkShareTheDirectory) {
  const std::vector<std::string> sweep = {"sweep",
                                          "--hw",
                                          kHw,
                                          "--workload",
                                          kAttention,
                                          "--set",
                                          "GlobalBuffer.capacity_kib=256,1024"};
  run_ok(concat(sweep, {"-o", "plain.csv"}));
  run_ok(concat(sweep, {"-o", "cached.csv", "--cache-dir", "cache"}));
  EXPECT_EQ(entries_in(dir_ / "cache").size(), 3U);
  EXPECT_EQ(read("cached.csv"), read("plain.csv"));
  EXPECT_EQ(read("cached-summary.csv"), read("plain-summary.csv"));

  const std::vector<std::string> emit = {"emit",     "--hw",    kHw, "--workload",
                                         kAttention, "--point", "0"};
  EXPECT_EQ(run_ok(concat(emit, {"--cache-dir", "cache"})).out, run_ok(emit).out);
  EXPECT_EQ(entries_in(dir_ / "cache").size(), 3U) << "the sweep's entries serve emit";

  const std::vector<std::string> network = {
      "network", "--hw", kHw, "--model", repo_file("networks/tiny-cnn.yaml"), "--threads", "2"};
  run_ok(concat(network, {"-o", "plain"}));
  run_ok(concat(network, {"-o", "cached", "--cache-dir", "cache"}));
  EXPECT_GT(entries_in(dir_ / "cache").size(), 3U);
  for (const char *file : {"segments.csv", "network_front.csv", "layout.csv"})
    EXPECT_EQ(read(std::string("cached/") + file), read(std::string("plain/") + file)) << file;
}

} // namespace
} // namespace dse::testing
