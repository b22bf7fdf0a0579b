// Soundness of symbolic pruning (docs/DESIGN.md §4.4): every dataflow the pruned space drops is
// matched by a kept one that is no worse in every metric at random tilings; and
// provably_less_equal units.
#include "dse/search/candidate_space.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "dse/model/candidate_generation.hpp"
#include "dse/model/metrics.hpp"
#include "dse/model/posynomial.hpp"
#include "dse/model/tiling.hpp"
#include "search/test_problems.hpp"

namespace dse {
namespace {

using test::TestProblem;

constexpr int kTilings = 200;
constexpr std::int64_t kArraySide = 4;

using DataflowKey = std::tuple<std::vector<int>, std::vector<std::vector<int>>, std::vector<int>,
                               std::vector<std::vector<int>>>;
DataflowKey key_of(const Dataflow &d) { return {d.prefix, d.subnests, d.retention, d.cached}; }

/// Random tile sizes (any integer up to the dimension's size, so padding is exercised).
std::vector<AtomTable> random_tilings(const Problem &problem, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<std::int64_t> sizes = test::dim_sizes(*problem.workload);
  std::vector<AtomTable> out;
  for (int i = 0; i < kTilings; ++i) {
    Tiling t{std::vector<std::int64_t>(sizes.size(), 1)};
    for (int d : problem.dims)
      t.tile[static_cast<size_t>(d)] =
          std::uniform_int_distribution<std::int64_t>(1, sizes[static_cast<size_t>(d)])(rng);
    out.push_back(atom_table(sizes, t, kArraySide, kArraySide));
  }
  return out;
}

void append_values(const Posynomial &p, const std::vector<AtomTable> &tables,
                   std::vector<double> &out) {
  for (const AtomTable &t : tables)
    out.push_back(evaluate(p, t));
}

/// DRAM reads, writes and buffer words per op at every sampled tiling.
std::vector<double> dataflow_values(const DataflowMetrics &m,
                                    const std::vector<AtomTable> &tables) {
  std::vector<double> out;
  for (const Posynomial &p : m.as_vector())
    append_values(p, tables, out);
  return out;
}

/// Every compute metric of every spatial combination at every sampled tiling.
std::vector<double> compute_values(const Problem &problem, const std::vector<int> &recompute,
                                   const std::vector<std::vector<int>> &cached,
                                   const std::vector<AtomTable> &tables) {
  std::vector<double> out;
  for (const std::vector<SpatialMapping> &spatial : spatial_combinations(problem)) {
    const ComputeMetrics cm = compute_metrics(problem, recompute, cached, spatial);
    for (size_t o = 0; o < cm.macs.size(); ++o) {
      append_values(cm.macs[o], tables, out);
      append_values(cm.cycles[o], tables, out);
    }
    for (const Posynomial *p : {&cm.gb_reads, &cm.gb_writes, &cm.vector_ops})
      append_values(*p, tables, out);
  }
  return out;
}

bool all_le(const std::vector<double> &u, const std::vector<double> &v) {
  for (size_t i = 0; i < u.size(); ++i)
    if (u[i] > v[i] + 1e-9 * std::abs(v[i]))
      return false;
  return true;
}

std::vector<int> sorted(std::vector<int> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// Every dataflow of the unpruned space, enumerated directly (what Pruning::None keeps).
std::vector<Dataflow> all_dataflows(const Problem &problem) {
  std::vector<Dataflow> out;
  for (const PrefixChoice &choice : enumerate_prefix_choices(problem)) {
    std::vector<std::vector<LocalPlan>> plans;
    for (size_t o = 0; o < problem.ops.size(); ++o)
      plans.push_back(enumerate_local_plans(problem, choice, static_cast<int>(o)));
    std::vector<size_t> pick(plans.size(), 0);
    for (bool more = true; more;) {
      std::vector<const LocalPlan *> parts;
      for (size_t o = 0; o < plans.size(); ++o)
        parts.push_back(&plans[o][pick[o]]);
      out.push_back(assemble_dataflow(problem, choice, parts));
      size_t o = 0;
      while (o < pick.size() && ++pick[o] == plans[o].size())
        pick[o++] = 0;
      more = o < pick.size();
    }
  }
  return out;
}

/// The kept dataflows' values, and a lookup of compute values by recompute loops.
class PrunedSpace {
public:
  PrunedSpace(const TestProblem &tp, bool db, const std::vector<AtomTable> &tables)
      : tp_(tp), db_(db), tables_(tables),
        space_(build_candidate_space(tp.problem, db, Pruning::Symbolic)) {
    for (size_t i = 0; i < space_.dataflows.size(); ++i) {
      kept_.insert(key_of(space_.dataflows[i]));
      values_.push_back(dataflow_values(space_.metrics[i], tables_));
    }
  }

  const CandidateSpace &space() const { return space_; }
  bool kept(const Dataflow &d) const { return kept_.count(key_of(d)) > 0; }

  /// Index of a kept dataflow (other than `skip`) no worse than `dropped` at every sampled
  /// tiling, or -1.
  long dominator_of(const Dataflow &dropped, size_t skip = SIZE_MAX) {
    const std::vector<double> v =
        dataflow_values(dataflow_metrics(tp_.problem, dropped, db_), tables_);
    const std::vector<double> &cv = compute(dropped);
    for (size_t i = 0; i < space_.dataflows.size(); ++i)
      if (i != skip && all_le(values_[i], v) && all_le(compute(space_.dataflows[i]), cv))
        return static_cast<long>(i);
    return -1;
  }

private:
  /// The compute values of a dataflow's recompute loops and cached halo dims.
  const std::vector<double> &compute(const Dataflow &d) {
    const std::pair key{sorted(d.recompute_dims(tp_.problem)), d.cached};
    auto it = compute_.find(key);
    if (it == compute_.end())
      it = compute_.emplace(key, compute_values(tp_.problem, key.first, key.second, tables_)).first;
    return it->second;
  }

  const TestProblem &tp_;
  bool db_;
  const std::vector<AtomTable> &tables_;
  CandidateSpace space_;
  std::set<DataflowKey> kept_;
  std::vector<std::vector<double>> values_;
  std::map<std::pair<std::vector<int>, std::vector<std::vector<int>>>, std::vector<double>>
      compute_;
};

/// Groups tile the space contiguously, every member has the group's recompute loops, the stored
/// metrics are the dataflow's, and every kept dataflow is legal.
void expect_consistent_groups(const Problem &problem, const CandidateSpace &space, bool db) {
  size_t next = 0;
  std::set<std::pair<std::vector<int>, std::vector<std::vector<int>>>> seen;
  for (const RecomputeGroup &g : space.groups) {
    EXPECT_EQ(g.first, next);
    EXPECT_GT(g.count, 0U);
    EXPECT_TRUE(seen.insert({g.recompute_dims, g.cached_dims}).second)
        << "two groups with the same loops";
    for (size_t i = g.first; i < g.first + g.count; ++i) {
      const Dataflow &d = space.dataflows.at(i);
      EXPECT_EQ(sorted(d.recompute_dims(problem)), sorted(g.recompute_dims));
      EXPECT_EQ(d.cached, g.cached_dims);
      EXPECT_EQ(legality_problem(problem, d), "");
      EXPECT_TRUE(space.metrics.at(i).as_vector() == dataflow_metrics(problem, d, db).as_vector());
    }
    next = g.first + g.count;
  }
  EXPECT_EQ(next, space.dataflows.size());
  EXPECT_EQ(space.metrics.size(), space.dataflows.size());
  EXPECT_EQ(space.stats.dataflows_kept, space.dataflows.size());
}

/// Checks every dropped dataflow (or `sample` of them, when positive) for a kept dominator.
void check_pruning(const TestProblem &tp, bool db, bool use_none_space, size_t sample = 0) {
  SCOPED_TRACE(tp.name + (db ? " (double buffering)" : ""));
  const std::vector<AtomTable> tables = random_tilings(tp.problem, 7 + tp.name.size());
  PrunedSpace pruned(tp, db, tables);
  expect_consistent_groups(tp.problem, pruned.space(), db);

  const std::vector<Dataflow> all =
      use_none_space ? build_candidate_space(tp.problem, db, Pruning::None).dataflows
                     : all_dataflows(tp.problem);
  ASSERT_EQ(all.size(), pruned.space().stats.dataflows_enumerated);
  std::vector<const Dataflow *> dropped;
  size_t kept_found = 0;
  for (const Dataflow &d : all) {
    if (pruned.kept(d))
      ++kept_found;
    else
      dropped.push_back(&d);
  }
  EXPECT_EQ(kept_found, pruned.space().dataflows.size()) << "a kept dataflow is not in the space";
  EXPECT_LT(pruned.space().dataflows.size() * 5, all.size()) << "pruning removed little";
  if (sample > 0 && dropped.size() > sample) {
    std::mt19937_64 rng(99);
    std::shuffle(dropped.begin(), dropped.end(), rng);
    dropped.resize(sample);
  }
  // Negative control: the check can fail (some kept dataflows have no other kept dominator).
  size_t undominated = 0;
  for (size_t i = 0; i < pruned.space().dataflows.size(); ++i)
    undominated += pruned.dominator_of(pruned.space().dataflows[i], i) < 0;
  EXPECT_GT(undominated, 0U);

  size_t failures = 0;
  for (const Dataflow *d : dropped) {
    if (pruned.dominator_of(*d) >= 0)
      continue;
    if (++failures <= 3)
      ADD_FAILURE() << "no kept dataflow dominates "
                    << describe(tp.problem, {*d, pruned.space().spatial.front()});
  }
  EXPECT_EQ(failures, 0U) << "of " << dropped.size() << " dropped dataflows checked";
}

TEST(PruningSoundness, SingleGemm) {
  check_pruning(test::single_problem("gemm", test::gemm_yaml(18, 8, 12)), false, true);
  check_pruning(test::single_problem("gemm", test::gemm_yaml(7, 5, 6)), true, true);
}

TEST(PruningSoundness, FusedGemmPairs) {
  check_pruning(test::fused_problem("pair fusion", test::gemm_pair_yaml(4, 3, 6, 2)), false, true);
  check_pruning(test::fused_problem("pair recompute", test::gemm_pair_yaml(4, 1, 8, 8)), false,
                true);
  check_pruning(test::fused_problem("pair large", test::gemm_pair_yaml(30, 17, 24, 40)), true,
                true);
}

TEST(PruningSoundness, FusedConv1dPairWithHalo) {
  const TestProblem tp = test::fused_problem("conv1d", test::conv1d_pair_yaml());
  check_pruning(tp, false, true);
  check_pruning(tp, true, true);
}

TEST(PruningSoundness, FusedPairsThroughAWindow) {
  const TestProblem tp = test::fused_problem("window pair", test::window_pair_yaml());
  check_pruning(tp, false, true);
  check_pruning(tp, true, true);
  check_pruning(test::fused_problem("window conv pair", test::window_conv_pair_yaml()), false,
                false, 1000);
  for (const bool pointwise : {false, true}) {
    const TestProblem padded =
        test::fused_problem("padded window pair", test::padded_window_pair_yaml(pointwise));
    check_pruning(padded, false, true);
    check_pruning(padded, true, true);
  }
}

// Chains of three operators (docs/DEPTH_FIRST.md §2): a recompute loop over two links, and two
// composed windows, each cached or recomputed per link.
TEST(PruningSoundness, FusedChainsOfThree) {
  check_pruning(test::chain_problem("gemm chain", test::scaled_gemm_chain_yaml()), false, true);
  const TestProblem windows = test::chain_problem("window chain", test::window_chain_yaml());
  check_pruning(windows, false, true);
  check_pruning(windows, true, true);
}

TEST(PruningSoundness, FusedResidualBlock) {
  const TestProblem block = test::chain_problem("residual block", test::residual_block_yaml());
  check_pruning(block, false, true);
  check_pruning(block, true, true);
}

TEST(PruningSoundness, FusedAttentionWithoutHeads) {
  check_pruning(test::fused_problem("attention", test::attention_yaml(0, 4, 2)), false, true);
}

/// Among dataflows with identical metrics and recompute loops, the pruned space keeps the one
/// that comes first in the unpruned enumeration (docs/DESIGN.md §4.4: output is deterministic).
void expect_lowest_index_representatives(const TestProblem &tp, bool db) {
  SCOPED_TRACE(tp.name);
  const CandidateSpace none = build_candidate_space(tp.problem, db, Pruning::None);
  const CandidateSpace pruned = build_candidate_space(tp.problem, db, Pruning::Symbolic);
  std::set<DataflowKey> kept;
  for (const Dataflow &d : pruned.dataflows)
    kept.insert(key_of(d));
  std::vector<std::string> names;
  for (const Dimension &d : tp.workload->dims)
    names.push_back(d.name);
  std::map<std::pair<std::vector<int>, std::string>, size_t> first_of_class;
  size_t twins = 0;
  for (size_t i = 0; i < none.dataflows.size(); ++i) {
    std::string metrics;
    for (const Posynomial &p : none.metrics[i].as_vector())
      metrics += p.to_string(names) + ";";
    const auto cls = std::make_pair(sorted(none.dataflows[i].recompute_dims(tp.problem)), metrics);
    const auto [it, first] = first_of_class.emplace(cls, i);
    if (first)
      continue;
    ++twins;
    EXPECT_EQ(kept.count(key_of(none.dataflows[i])), 0U)
        << "dataflow " << i << " kept although identical to the earlier " << it->second;
  }
  EXPECT_GT(twins, 0U);
}

TEST(PruningSoundness, IdenticalDataflowsKeepTheLowestIndex) {
  expect_lowest_index_representatives(test::single_problem("gemm", test::gemm_yaml(4, 4, 4)), true);
  expect_lowest_index_representatives(test::single_problem("conv", test::strided_conv_yaml()),
                                      false);
  expect_lowest_index_representatives(test::fused_problem("pair", test::gemm_pair_yaml(4, 4, 4, 4)),
                                      false);
}

// Four shared-prefix dims: 1.4e5 and 2.5e5 dataflows, enumerated directly (building the None
// space takes seconds) and a fixed random sample of the dropped ones checked.
TEST(PruningSoundness, FusedConvPairWithHaloSampled) {
  check_pruning(test::fused_problem("conv", test::conv_pair_yaml()), false, false, 1000);
}

TEST(PruningSoundness, FusedAttentionWithHeadsSampled) {
  check_pruning(test::fused_problem("attention h", test::attention_yaml(2, 8, 4)), false, false,
                1000);
}

// --- provably_less_equal -------------------------------------------------------------------

Posynomial atom(int dim, Atom a) { return Posynomial::atom(dim, a); }
Posynomial constant(double c) { return Posynomial::constant(c); }
const Posynomial kT = atom(0, Atom::Tile);
const Posynomial kTrips = atom(0, Atom::Trips);
const Posynomial kTm1 = atom(0, Atom::TileMinus1);
const Posynomial kU = atom(1, Atom::Tile);
const Posynomial kCeil = atom(1, Atom::CeilRows);

TEST(ProvablyLessEqual, TrueCases) {
  EXPECT_TRUE(provably_less_equal(kT, kT));
  EXPECT_TRUE(provably_less_equal(Posynomial{}, kT));
  EXPECT_TRUE(provably_less_equal(kT, kT * kTrips));      // t >= 1
  EXPECT_TRUE(provably_less_equal(constant(1), kT * kU)); // every factor >= 1
  EXPECT_TRUE(provably_less_equal(kT, kT * kT));          // T^2 >= T
  EXPECT_TRUE(provably_less_equal(kT * 2.0, kT * 3.0));
  EXPECT_TRUE(provably_less_equal(kT, kT + kTm1)); // (T-1) >= 0
  EXPECT_TRUE(provably_less_equal(kU, kU * kCeil * kT));
}

TEST(ProvablyLessEqual, FalseCases) {
  EXPECT_FALSE(provably_less_equal(kT * kTrips, kT));
  EXPECT_FALSE(provably_less_equal(kT, kU)); // different dimensions
  EXPECT_FALSE(provably_less_equal(kT * 3.0, kT * 2.0));
  EXPECT_FALSE(provably_less_equal(constant(1), kTm1)); // (T-1) may be 0
  EXPECT_FALSE(provably_less_equal(kT, kT * kTm1));     // a (T-1) factor is not >= 1
  EXPECT_FALSE(provably_less_equal(kTm1, kTm1 * kTm1));
  EXPECT_FALSE(provably_less_equal(kTrips, kTm1 * kTrips)); // fails at T = 1
  EXPECT_FALSE(provably_less_equal(kT + kU, kT * 1.5));
}

TEST(ProvablyLessEqual, NegativeTermsCoveredByMultiples) {
  // rhs - lhs with negative terms whose mass must be carried by positive multiples of them.
  EXPECT_TRUE(provably_less_equal(constant(0), kT * kTrips - constant(1)));
  EXPECT_TRUE(provably_less_equal(constant(0), kT - constant(1)));
  EXPECT_TRUE(provably_less_equal(kT * 2.0, kT * kTrips * kU * 3.0));
  EXPECT_FALSE(provably_less_equal(kT * 2.0, kT * kTrips)); // not enough mass
  // One donor shared by two negative terms: T*t covers T (times t) and t (times T).
  EXPECT_TRUE(provably_less_equal(kT + kTrips, kT * kTrips * 2.0));
  EXPECT_FALSE(provably_less_equal(kT + kTrips, kT * kTrips * 1.5));
  // Partial-sum read-backs: writes - |output| + writes' compared with a larger write count.
  const Posynomial writes = kT * kTrips * kU;
  const Posynomial reads = writes - kT * kTrips;
  EXPECT_TRUE(provably_less_equal(reads, writes));
  EXPECT_TRUE(provably_less_equal(reads + writes, writes * 2.0));
  EXPECT_FALSE(provably_less_equal(writes, reads));
  // A negative (T-1) term is covered by (T-1)*t but not by a T-only monomial.
  EXPECT_TRUE(provably_less_equal(constant(0), kTm1 * kTrips - kTm1));
  EXPECT_FALSE(provably_less_equal(kTm1, kT));
}

TEST(ProvablyLessEqual, RandomizedSoundness) {
  // Whenever the check says lhs <= rhs, it must hold at random points of the atoms' domain.
  std::mt19937_64 rng(5);
  const std::vector<Posynomial> atoms{kT, kTrips, kTm1, kU, kCeil, atom(1, Atom::SpanMinus1)};
  auto random_posynomial = [&] {
    Posynomial p;
    const int terms = std::uniform_int_distribution<int>(0, 3)(rng);
    for (int i = 0; i < terms; ++i) {
      Posynomial m = constant(std::uniform_int_distribution<int>(-2, 3)(rng));
      const int degree = std::uniform_int_distribution<int>(0, 2)(rng);
      for (int k = 0; k < degree; ++k)
        m = m * atoms[std::uniform_int_distribution<size_t>(0, atoms.size() - 1)(rng)];
      p += m;
    }
    return p;
  };
  int proved = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const Posynomial lhs = random_posynomial();
    const Posynomial rhs = lhs + random_posynomial();
    if (!provably_less_equal(lhs, rhs))
      continue;
    ++proved;
    for (int point = 0; point < 20; ++point) {
      // Every atom independent in its range, including the corners 1 and 0.
      AtomTable table{std::vector<AtomValues>(2)};
      for (AtomValues &v : table.per_dim)
        for (int a = 0; a < kAtomCount; ++a) {
          const double x = point < 2 ? 1.0 : std::uniform_real_distribution<double>(1, 9)(rng);
          v[static_cast<size_t>(a)] = atom_at_least_one(static_cast<Atom>(a)) ? x : x - 1;
        }
      ASSERT_LE(evaluate(lhs, table), evaluate(rhs, table) + 1e-9)
          << lhs.to_string({"x", "y"}) << " <= " << rhs.to_string({"x", "y"});
    }
  }
  EXPECT_GT(proved, 1000);
}

} // namespace
} // namespace dse
