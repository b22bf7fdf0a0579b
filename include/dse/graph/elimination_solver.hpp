// Min-plus node and edge elimination (CoMCU): choose one option per node minimising the node
// costs plus the edge cost matrices. Parallel edges are summed (edge elimination); a node with
// one neighbour is folded into it and a node with two is replaced by an edge (node
// elimination, min-plus products). On series-parallel graphs this eliminates every node and
// the result is exact.
#pragma once

#include <vector>

namespace dse {

using CostMatrix = std::vector<std::vector<double>>; // [option of `from`][option of `to`]

struct CostEdge {
  int from = 0;
  int to = 0;
  CostMatrix cost;
};

struct CostGraph {
  std::vector<std::vector<double>> node_costs; // [node][option]; every node has an option
  std::vector<CostEdge> edges;
};

struct EliminationResult {
  std::vector<int> option; // per node
  double cost = 0;
  /// True unless the fallback had to fix a node greedily (see solve_min_plus).
  bool exact = true;
  int branched_nodes = 0; // nodes of degree >= 3 the fallback conditioned on
};

/// Fallback when no elimination applies (the graph is not series-parallel): the remaining node
/// of highest degree is conditioned on each of its options in turn (each branch fixed and
/// solved recursively; exact) while the number of branches stays within `max_branches`;
/// beyond it, the node is fixed to its best option against its neighbours' cheapest options
/// (greedy, and the result is marked inexact).
EliminationResult solve_min_plus(const CostGraph &graph, long max_branches = 4096);

/// The cost of one assignment of options.
double assignment_cost(const CostGraph &graph, const std::vector<int> &option);

} // namespace dse
