// Tests of src/graph/elimination_solver.cpp: node and edge elimination equals brute force on
// random series-parallel graphs and dynamic programming on long paths; the fallback is exact
// with enough branches and flagged inexact without them.
#include "dse/graph/elimination_solver.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>

namespace dse {
namespace {

class RandomCosts {
public:
  explicit RandomCosts(unsigned seed) : rng_(seed) {}

  int add_node(CostGraph &g, int min_options = 1) {
    std::vector<double> costs(static_cast<size_t>(pick(min_options, 3)));
    for (double &c : costs)
      c = value();
    g.node_costs.push_back(costs);
    return static_cast<int>(g.node_costs.size()) - 1;
  }

  void add_edge(CostGraph &g, int a, int b) {
    CostEdge e{a, b, {}};
    for (size_t i = 0; i < g.node_costs[static_cast<size_t>(a)].size(); ++i) {
      std::vector<double> row;
      for (size_t j = 0; j < g.node_costs[static_cast<size_t>(b)].size(); ++j)
        row.push_back(value());
      e.cost.push_back(row);
    }
    // Edges go either way round, as graph edges do.
    if (pick(0, 1) == 0) {
      g.edges.push_back(std::move(e));
      return;
    }
    CostEdge r{b, a, CostMatrix(e.cost[0].size(), std::vector<double>(e.cost.size()))};
    for (size_t i = 0; i < e.cost.size(); ++i)
      for (size_t j = 0; j < e.cost[i].size(); ++j)
        r.cost[j][i] = e.cost[i][j];
    g.edges.push_back(std::move(r));
  }

  /// A two-terminal series-parallel graph between `s` and `t` of about `size` compositions.
  void series_parallel(CostGraph &g, int s, int t, int size) {
    if (size <= 0) {
      add_edge(g, s, t);
      return;
    }
    const int left = pick(0, size - 1);
    if (pick(0, 1) == 0) {
      const int mid = add_node(g);
      series_parallel(g, s, mid, left);
      series_parallel(g, mid, t, size - 1 - left);
    } else {
      series_parallel(g, s, t, left);
      series_parallel(g, s, t, size - 1 - left);
    }
  }

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

private:
  double value() { return std::uniform_int_distribution<int>(0, 20)(rng_); }
  std::mt19937 rng_;
};

double brute_force(const CostGraph &g) {
  std::vector<int> option(g.node_costs.size(), 0);
  double best = std::numeric_limits<double>::infinity();
  std::function<void(size_t)> walk = [&](size_t v) {
    if (v == option.size()) {
      best = std::min(best, assignment_cost(g, option));
      return;
    }
    for (size_t o = 0; o < g.node_costs[v].size(); ++o) {
      option[v] = static_cast<int>(o);
      walk(v + 1);
    }
  };
  walk(0);
  return best;
}

TEST(EliminationSolver, EqualsBruteForceOnSeriesParallelGraphs) {
  for (unsigned seed = 0; seed < 300; ++seed) {
    RandomCosts r(seed);
    CostGraph g;
    const int s = r.add_node(g), t = r.add_node(g);
    r.series_parallel(g, s, t, r.pick(0, 7));
    if (r.pick(0, 2) == 0) // a pendant tree hanging off the graph, and a lone node
      r.add_edge(g, r.add_node(g), s);
    r.add_node(g);
    const EliminationResult e = solve_min_plus(g);
    EXPECT_TRUE(e.exact);
    EXPECT_EQ(e.branched_nodes, 0) << "seed " << seed;
    EXPECT_EQ(e.cost, brute_force(g)) << "seed " << seed;
    EXPECT_EQ(e.cost, assignment_cost(g, e.option));
  }
}

/// The optimum of a path 0 - 1 - ... - n-1 (edge i joins i and i+1) by dynamic programming.
double path_optimum(const CostGraph &g) {
  std::vector<double> best = g.node_costs[0];
  for (size_t v = 1; v < g.node_costs.size(); ++v) {
    const CostEdge &e = g.edges[v - 1];
    std::vector<double> next(g.node_costs[v].size(), std::numeric_limits<double>::infinity());
    for (size_t a = 0; a < best.size(); ++a)
      for (size_t b = 0; b < next.size(); ++b) {
        const double edge = e.from == static_cast<int>(v) ? e.cost[b][a] : e.cost[a][b];
        next[b] = std::min(next[b], best[a] + edge + g.node_costs[v][b]);
      }
    best = std::move(next);
  }
  return *std::min_element(best.begin(), best.end());
}

TEST(EliminationSolver, EqualsDynamicProgrammingOnLongPaths) {
  for (unsigned seed = 0; seed < 5; ++seed) {
    RandomCosts r(seed);
    CostGraph g;
    r.add_node(g);
    for (int v = 1; v < 5000; ++v)
      r.add_edge(g, v - 1, r.add_node(g));
    const EliminationResult e = solve_min_plus(g);
    EXPECT_TRUE(e.exact);
    EXPECT_EQ(e.cost, path_optimum(g)) << "seed " << seed;
    EXPECT_EQ(e.cost, assignment_cost(g, e.option));
  }
}

TEST(EliminationSolver, BranchesExactlyOnNonSeriesParallelGraphs) {
  for (unsigned seed = 0; seed < 50; ++seed) {
    RandomCosts r(seed);
    CostGraph g;
    for (int v = 0; v < 5; ++v)
      r.add_node(g, 2);         // one option would be folded away
    for (int a = 0; a < 5; ++a) // K5: no elimination applies
      for (int b = a + 1; b < 5; ++b)
        r.add_edge(g, a, b);
    const EliminationResult e = solve_min_plus(g);
    EXPECT_TRUE(e.exact);
    EXPECT_GT(e.branched_nodes, 0);
    EXPECT_EQ(e.cost, brute_force(g)) << "seed " << seed;
    const EliminationResult greedy = solve_min_plus(g, 0);
    EXPECT_GE(greedy.cost, e.cost);
    EXPECT_EQ(greedy.cost, assignment_cost(g, greedy.option));
  }
}

} // namespace
} // namespace dse
