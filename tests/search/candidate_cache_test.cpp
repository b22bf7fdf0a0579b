// The candidate cache: spaces shared by structure, made ready in parallel, and read from a store
// only when the entry is exactly what this build wrote for the key; anything else is rebuilt and
// the entry rewritten.
#include "dse/search/candidate_cache.hpp"

#include <gtest/gtest.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "common/candidate_spaces.hpp"
#include "common/suite_scale.hpp"
#include "dse/search/candidate_entry.hpp"
#include "dse/search/problem_search.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using test_common::expect_same_space;

/// A store in memory, counting what is saved.
class MemoryStore : public CandidateStore {
public:
  std::optional<std::string> load(const std::string &key) override {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    return it == entries_.end() ? std::nullopt : std::optional<std::string>(it->second);
  }
  void save(const std::string &key, const std::string &entry) override {
    std::lock_guard lock(mutex_);
    entries_[key] = entry;
    ++saves_;
  }
  std::map<std::string, std::string> &entries() { return entries_; }
  int saves() const { return saves_; }

private:
  std::mutex mutex_;
  std::map<std::string, std::string> entries_;
  int saves_ = 0;
};

TEST(CandidateCache, SharesSpacesAcrossSizesOnly) {
  CandidateCache cache;
  const test::TestProblem small = test::fused_problem("s", test::gemm_pair_yaml(4, 4, 4, 4));
  const test::TestProblem large = test::fused_problem("l", test::gemm_pair_yaml(64, 96, 32, 80));
  const auto first = cache.get(small.problem, false, Pruning::Symbolic);
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(cache.get(large.problem, false, Pruning::Symbolic), first);
  EXPECT_EQ(cache.get(small.problem, false, Pruning::Symbolic), first);

  const auto doubled = cache.get(large.problem, true, Pruning::Symbolic);
  EXPECT_NE(doubled, first);
  EXPECT_EQ(cache.get(small.problem, true, Pruning::Symbolic), doubled);
  EXPECT_NE(cache.get(small.problem, false, Pruning::None), first);

  // A different structure (B transposed) is a different space.
  const test::TestProblem gemm = test::single_problem("g", test::gemm_yaml(4, 4, 4));
  const test::TestProblem transposed =
      test::single_problem("t", "name: t\ndims: {m: 4, k: 4, n: 4}\nops:\n"
                                "  - {name: gemm, einsum: \"C[m,n] += A[m,k] * B[n,k]\"}\n");
  EXPECT_NE(cache.get(gemm.problem, false, Pruning::Symbolic),
            cache.get(transposed.problem, false, Pruning::Symbolic));

  // The cached space is the one build_candidate_space makes.
  const CandidateSpace fresh = build_candidate_space(large.problem, false, Pruning::Symbolic);
  EXPECT_TRUE(first->dataflows == fresh.dataflows);
  EXPECT_EQ(first->stats.dataflows_kept, fresh.stats.dataflows_kept);
}

TEST(CandidateCache, BuildsASpaceOnceForThreadsAskingAtOnce) {
  // Searches running side by side (a network's segments) ask for one structure together: one
  // of them builds it while the others wait, and all get the same space and matrices.
  CandidateCache cache;
  const test::TestProblem tp = test::fused_problem("attention", test::attention_yaml(2, 8, 4));
  std::vector<std::shared_ptr<const CandidateSpace>> spaces(16);
  std::vector<std::shared_ptr<const SymbolicMatrices>> matrices(spaces.size());
  tbb::task_arena(4).execute([&] {
    tbb::parallel_for(size_t{0}, spaces.size(), [&](size_t i) {
      spaces[i] = cache.get(tp.problem, false, Pruning::Symbolic);
      matrices[i] = cache.matrices(tp.problem, spaces[i]);
    });
  });
  EXPECT_EQ(cache.counts().built, 1U);
  for (size_t i = 0; i < spaces.size(); ++i) {
    EXPECT_EQ(spaces[i], spaces.front());
    EXPECT_EQ(matrices[i], matrices.front());
  }
}

TEST(CandidateCache, SharesWindowedChainsAcrossSizes) {
  // The positions a producer computes along a halo dim grow with the dim's size, a symbolic
  // atom: "same" convolution pairs at two sizes share one space and one symbolic Q, and the
  // search of the second over them finds what brute force finds at its own sizes.
  const auto pair = [](const std::string &size) {
    return "name: same\ndims: {p: " + size + ", c: 2, k: 3, a: " + size + ", u: 3, j: 2}\nops:\n" +
           "  - {name: conv1, einsum: \"Y[k,p] += W1[k,c] * X[c,p]\"}\n" +
           "  - {name: conv3, einsum: \"Z[j,a] += W2[j,k,u] * Y[k,a+u-1]\"}\n";
  };
  const test::TestProblem small = test::fused_problem("small", pair("6"));
  const test::TestProblem large = test::fused_problem("large", pair("11"));
  EXPECT_EQ(small.problem.structure_key(), large.problem.structure_key());
  const Hardware hw = test::tiny_hardware();
  SearchOptions options;
  options.objectives = {Objective::Latency, Objective::Energy};
  options.cache = std::make_shared<CandidateCache>();
  const ProblemFront first = search_problem(small.problem, hw, options);
  const ProblemFront second = search_problem(large.problem, hw, options);
  EXPECT_EQ(first.space, second.space);
  EXPECT_EQ(options.cache->counts().built, 1U);
  EXPECT_EQ(options.cache->matrices(small.problem, first.space),
            options.cache->matrices(large.problem, second.space));

  const ProblemFront brute = brute_force_problem(large.problem, hw, options, Pruning::Symbolic);
  const std::vector<ParetoPoint> &a = brute.front.points();
  const std::vector<ParetoPoint> &b = second.front.points();
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 2U);
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_NEAR(a[i].objectives.latency_s, b[i].objectives.latency_s,
                1e-12 * a[i].objectives.latency_s);
    EXPECT_NEAR(a[i].objectives.energy_pj, b[i].objectives.energy_pj,
                1e-12 * a[i].objectives.energy_pj);
    EXPECT_EQ(a[i].candidate, b[i].candidate);
    EXPECT_EQ(a[i].tiling, b[i].tiling);
  }
}

TEST(CandidateCache, KeysTheSoftmaxDimension) {
  // Attention normalised over m instead of n keeps its running softmax state elsewhere: another
  // space, which a cache shared by both workloads must not hand out for the other.
  std::string over_m = test::attention_yaml(2, 8, 4);
  over_m.replace(over_m.find("over: n"), 7, "over: m");
  const test::TestProblem n = test::fused_problem("n", test::attention_yaml(2, 8, 4));
  const test::TestProblem m = test::fused_problem("m", over_m);
  EXPECT_NE(n.problem.structure_key(), m.problem.structure_key());
  CandidateCache cache;
  const auto sn = cache.get(n.problem, false, Pruning::Symbolic);
  const auto sm = cache.get(m.problem, false, Pruning::Symbolic);
  expect_same_space(*sn, build_candidate_space(n.problem, false, Pruning::Symbolic));
  expect_same_space(*sm, build_candidate_space(m.problem, false, Pruning::Symbolic));
  EXPECT_FALSE(sn->metrics == sm->metrics);
}

TEST(CandidateCache, KeysTheHalosPadding) {
  // Both consumers read the 8 positions of Y, but the first reads a zero after them too, which
  // keeps its halo from being cached (conv3a has a window of its own): another space.
  const auto pair = [](const std::string &a) {
    return "name: padded\ndims: {p: 8, c: 2, k: 2, r: 3, a: " + a + ", u: 3, j: 2}\nops:\n" +
           "  - {name: conv3a, einsum: \"Y[k,p] += W1[k,c,r] * X[c,p+r]\"}\n" +
           "  - {name: conv3b, einsum: \"Z[j,a] += W2[j,k,u] * Y[k,a+u-1]\"}\n";
  };
  const test::TestProblem after = test::fused_problem("padding after", pair("8"));
  const test::TestProblem before = test::fused_problem("padding before only", pair("7"));
  EXPECT_TRUE(after.problem.cacheable_halo_dims(0).empty());
  EXPECT_FALSE(before.problem.cacheable_halo_dims(0).empty());
  EXPECT_NE(after.problem.structure_key(), before.problem.structure_key());
  CandidateCache cache;
  expect_same_space(*cache.get(after.problem, false, Pruning::Symbolic),
                    build_candidate_space(after.problem, false, Pruning::Symbolic));
  expect_same_space(*cache.get(before.problem, false, Pruning::Symbolic),
                    build_candidate_space(before.problem, false, Pruning::Symbolic));
}

TEST(CandidateCache, ReadsWhatAnEarlierCacheSaved) {
  const test::TestProblem tp = test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8));
  const CandidateSpace fresh = build_candidate_space(tp.problem, false, Pruning::Symbolic);
  const auto store = std::make_shared<MemoryStore>();
  {
    CandidateCache first(store);
    expect_same_space(*first.get(tp.problem, false, Pruning::Symbolic), fresh);
    EXPECT_EQ(first.counts().built, 1U);
    EXPECT_EQ(store->saves(), 1);
  }
  CandidateCache second(store);
  expect_same_space(*second.get(tp.problem, false, Pruning::Symbolic), fresh);
  const CandidateCacheCounts counts = second.counts();
  EXPECT_EQ(counts.loaded, 1U);
  EXPECT_EQ(counts.built, 0U);
  EXPECT_TRUE(counts.rejected.empty());
  EXPECT_EQ(store->saves(), 1);
}

TEST(CandidateCache, RebuildsAndRewritesEveryEntryItCannotTrust) {
  const test::TestProblem tp = test::fused_problem("attention", test::attention_yaml(2, 8, 4));
  const CandidateSpace fresh = build_candidate_space(tp.problem, false, Pruning::Symbolic);
  const std::string key = candidate_space_key(tp.problem, false, Pruning::Symbolic, true);
  const std::string good = encode_candidate_entry(key, fresh);
  std::string edited = good;
  edited[edited.size() - 100] ^= 0x10;
  std::string version = good;
  version[8] = static_cast<char>(kCandidateEntryVersion + 1);
  const std::string other_key = encode_candidate_entry(key + "|other", fresh);
  const std::pair<std::string, std::string> cases[] = {
      {good.substr(0, good.size() / 2), "truncated"},
      {edited, "checksum mismatch"},
      {version, "format version " + std::to_string(kCandidateEntryVersion + 1) + ", expected " +
                    std::to_string(kCandidateEntryVersion)},
      {other_key, "written for another key"},
      {"", "not a candidate cache entry"}};
  for (const auto &[bytes, why] : cases) {
    SCOPED_TRACE(why);
    const auto store = std::make_shared<MemoryStore>();
    store->entries()[key] = bytes;
    CandidateCache cache(store);
    expect_same_space(*cache.get(tp.problem, false, Pruning::Symbolic), fresh);
    const CandidateCacheCounts counts = cache.counts();
    EXPECT_EQ(counts.built, 1U);
    EXPECT_EQ(counts.loaded, 0U);
    EXPECT_EQ(counts.rejected, std::vector<std::string>{why});
    EXPECT_EQ(store->entries()[key], good) << "the entry is rewritten";
  }
}

TEST(CandidateCache, PreparesEachDistinctStructureOnceForAnyNumberOfThreads) {
  const std::vector<test::TestProblem> problems = {
      test::fused_problem("attention", test::attention_yaml(2, 8, 4)),
      test::single_problem("gemm", test::gemm_yaml(8, 8, 8)),
      test::fused_problem("conv", test::conv_pair_yaml()),
      test::single_problem("gemm-large", test::gemm_yaml(64, 32, 16)), // the same structure
      test::fused_problem("pair", test::gemm_pair_yaml(8, 8, 8, 8))};
  std::vector<const Problem *> order;
  std::vector<CandidateSpace> built_alone;
  for (const test::TestProblem &tp : problems) {
    order.push_back(&tp.problem);
    built_alone.push_back(build_candidate_space(tp.problem, false, Pruning::Symbolic));
  }
  for (int threads : test_common::per_suite<std::vector<int>>({1, 2, 4}, {4})) {
    SCOPED_TRACE(threads);
    const auto store = std::make_shared<MemoryStore>();
    CandidateCache cache(store);
    tbb::task_arena(threads).execute([&] { cache.prepare(order, false, Pruning::Symbolic); });
    EXPECT_EQ(cache.counts().built, 4U);
    EXPECT_EQ(store->saves(), 4);
    for (size_t i = 0; i < problems.size(); ++i)
      expect_same_space(*cache.get(problems[i].problem, false, Pruning::Symbolic), built_alone[i]);
    EXPECT_EQ(cache.counts().built, 4U) << "get finds what prepare made ready";
    cache.prepare(order, false, Pruning::Symbolic);
    EXPECT_EQ(cache.counts().built, 4U);
  }
}

} // namespace
} // namespace dse
