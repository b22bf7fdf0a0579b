// `explore` over chains of three operators (docs/DEPTH_FIRST.md §2): the dynamic program over
// segment ends adds the fused run of three to the pairs and singles, so its front is never worse
// and, where depth-first execution keeps both intermediates on chip, moves fewer DRAM words; a
// run beyond the space limits is left out with a note, not an error. A residual block that holds
// its input for the add moves fewer DRAM words than one whose residual is a tensor of its own.
#include <gtest/gtest.h>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/candidate_generation.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/search/explore.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

const std::string kStack = test_common::conv_stack_1d_workload("stack");

SearchOptions options(std::size_t max_fused) {
  SearchOptions o;
  o.objectives = {Objective::Latency, Objective::Energy, Objective::Dram};
  o.max_fused = max_fused;
  return o;
}

bool weakly_dominates(const Objectives &a, const Objectives &b) {
  return a.latency_s <= b.latency_s && a.energy_pj <= b.energy_pj && a.dram_words <= b.dram_words;
}

double least_dram(const ExploreResult &r) {
  double least = r.front.at(0).objectives.dram_words;
  for (const FrontPoint &p : r.front)
    least = std::min(least, p.objectives.dram_words);
  return least;
}

Hardware small_buffer() {
  test::HardwareSpec spec;
  spec.gb_words = 160;
  return test::tiny_hardware(spec);
}

TEST(ChainExplore, ARunOfThreeNeverLosesAndMovesFewerDramWords) {
  const Workload w = parse_workload(kStack, "stack.yaml");
  const Hardware hw = small_buffer();
  const ExploreResult pairs = explore(w, hw, options(2));
  const ExploreResult runs = explore(w, hw, options(3));
  for (const FrontPoint &p : pairs.front)
    EXPECT_TRUE(std::any_of(runs.front.begin(), runs.front.end(), [&](const FrontPoint &q) {
      return weakly_dominates(q.objectives, p.objectives);
    })) << "a point of the pairs' front that no point of the runs' front matches";
  EXPECT_LT(least_dram(runs), least_dram(pairs));
  const bool three_fused = std::any_of(runs.front.begin(), runs.front.end(), [&](const auto &p) {
    return std::any_of(p.parts.begin(), p.parts.end(), [&](const MappingPart &part) {
      return runs.problems[part.problem].ops.size() == 3;
    });
  });
  EXPECT_TRUE(three_fused);
  EXPECT_TRUE(runs.notes.empty());
  // One operator at a time, the front is the --no-fusion one.
  SearchOptions unfused = options(3);
  unfused.fusion = false;
  const ExploreResult alone = explore(w, hw, options(1));
  const ExploreResult no_fusion = explore(w, hw, unfused);
  ASSERT_EQ(alone.front.size(), no_fusion.front.size());
  for (size_t i = 0; i < alone.front.size(); ++i)
    EXPECT_EQ(alone.front[i].objectives.energy_pj, no_fusion.front[i].objectives.energy_pj);
}

TEST(ChainExplore, ARunBeyondTheLimitsIsLeftOutWithANote) {
  const Workload w = parse_workload(kStack, "stack.yaml");
  const Hardware hw = small_buffer();
  SearchOptions limited = options(3);
  const std::vector<Chain> chains = chain_splits(w).front();
  const Problem pair = make_chain_problem(w, {chains[0].links[0], chains[0].links[1]});
  const Problem three = make_chain_problem(w, chains[0].links);
  // Room for the pairs' loop nests, not the run of three's.
  limited.limits.max_loop_nests = static_cast<std::uint64_t>(
      std::max(count_local_plans(pair, true, 1e12),
               count_local_plans(make_chain_problem(w, {chains[0].links[1], chains[0].links[2]}),
                                 true, 1e12)));
  ASSERT_LT(static_cast<double>(limited.limits.max_loop_nests),
            count_local_plans(three, true, 1e12));
  const ExploreResult r = explore(w, hw, limited);
  ASSERT_EQ(r.notes.size(), 1U);
  EXPECT_EQ(r.notes[0], "conv1+conv2+conv3 fused: left out, its spaces exceed the limits (raise "
                        "them with --max-tilings and --max-loop-nests, or lower --max-fused)");
  const ExploreResult pairs = explore(w, hw, options(2));
  ASSERT_EQ(r.front.size(), pairs.front.size());
  for (size_t i = 0; i < r.front.size(); ++i)
    EXPECT_EQ(r.front[i].objectives.dram_words, pairs.front[i].objectives.dram_words);
}

// A residual block whose add reads the block's input again: the fused block may hold the input's
// tiles from the first convolution's reads to the add (docs/DEPTH_FIRST.md §3). Its least DRAM
// words are then strictly fewer than the same block's whose residual is a tensor of its own, and
// the point that moves them holds the input.
TEST(ChainExplore, ABlockInputHeldForItsAddIsNotReadTwice) {
  const std::string held = test::residual_block_yaml();
  std::string apart = held;
  apart.replace(apart.find("residual: X"), 11, "residual: R");
  const Workload block = parse_workload(held, "held.yaml");
  const Workload other = parse_workload(apart, "apart.yaml");
  test::HardwareSpec spec;
  spec.gb_words = 96;
  const Hardware hw = test::tiny_hardware(spec);
  const ExploreResult r = explore(block, hw, options(2));
  const ExploreResult s = explore(other, hw, options(2));
  EXPECT_LT(least_dram(r), least_dram(s));
  bool holds = false;
  for (const FrontPoint &p : r.front)
    if (p.objectives.dram_words == least_dram(r))
      for (const MappingPart &part : p.parts)
        holds = holds || residual_held(r.problems[part.problem], part.candidate.dataflow);
  EXPECT_TRUE(holds);
}

} // namespace
} // namespace dse
