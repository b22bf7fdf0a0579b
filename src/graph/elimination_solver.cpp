// Node and edge elimination with min-plus products, recording for every eliminated node how its
// option follows from its neighbours' so that the assignment is rebuilt in reverse order.
#include "dse/graph/elimination_solver.hpp"

#include <algorithm>
#include <limits>
#include <map>

namespace dse {

double assignment_cost(const CostGraph &graph, const std::vector<int> &option) {
  double total = 0;
  for (size_t v = 0; v < graph.node_costs.size(); ++v)
    total += graph.node_costs[v][static_cast<size_t>(option[v])];
  for (const CostEdge &e : graph.edges)
    total += e.cost[static_cast<size_t>(option[static_cast<size_t>(e.from)])]
                   [static_cast<size_t>(option[static_cast<size_t>(e.to)])];
  return total;
}

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// How an eliminated node's option (an original option id) follows from its neighbours'.
struct Record {
  int node = 0;
  int a = -1;                           // neighbour (leaf, series)
  int b = -1;                           // second neighbour (series)
  std::vector<std::vector<int>> choice; // [id of a][id of b], [id of a][0] or [0][0]
};

/// The reduced problem: remaining options (with their original ids) and edges.
struct State {
  std::vector<std::vector<double>> cost;
  std::vector<std::vector<int>> ids;
  std::vector<CostEdge> edges;
  std::vector<bool> alive;
  std::vector<Record> records;
};

/// `e`'s matrix with `node`'s options as rows.
CostMatrix oriented(const CostEdge &e, int node) {
  if (e.from == node)
    return e.cost;
  CostMatrix t(e.cost.empty() ? 0 : e.cost[0].size(), std::vector<double>(e.cost.size()));
  for (size_t i = 0; i < e.cost.size(); ++i)
    for (size_t j = 0; j < e.cost[i].size(); ++j)
      t[j][i] = e.cost[i][j];
  return t;
}

int other(const CostEdge &e, int node) { return e.from == node ? e.to : e.from; }

/// Eliminates nodes and merges parallel edges until neither applies. Removed edges are only
/// marked dead, and each node keeps the ids of its edges, so that a pass over the nodes takes
/// time linear in the graph; the edges left are compacted in their original order at the end.
class Reducer {
public:
  Reducer(State &s, const std::vector<size_t> &original_options)
      : s_(s), original_(original_options), dead_(s.edges.size(), false), edges_of_(s.cost.size()) {
    for (size_t e = 0; e < s_.edges.size(); ++e)
      index_edge(e);
  }

  void reduce() {
    for (bool changed = true; changed;) {
      changed = merge_parallel_edges();
      for (size_t v = 0; v < s_.cost.size(); ++v)
        if (s_.alive[v])
          changed |= eliminate(static_cast<int>(v));
    }
    compact_edges();
  }

private:
  void index_edge(size_t e) {
    const CostEdge &edge = s_.edges[e];
    edges_of_[static_cast<size_t>(edge.from)].push_back(e);
    if (edge.to != edge.from)
      edges_of_[static_cast<size_t>(edge.to)].push_back(e);
  }

  /// The live edges at `v`, in edge order (dead ids are dropped from its list on the way).
  std::vector<size_t> incident(int v) {
    std::vector<size_t> &ids = edges_of_[static_cast<size_t>(v)];
    std::erase_if(ids, [this](size_t e) { return dead_[e]; });
    return ids;
  }

  /// Edge elimination: parallel edges become one edge, the first, with the summed matrix (the
  /// later ones added last first).
  bool merge_parallel_edges() {
    std::map<std::pair<int, int>, std::vector<size_t>> parallel;
    for (size_t e = 0; e < s_.edges.size(); ++e)
      if (!dead_[e])
        parallel[std::minmax(s_.edges[e].from, s_.edges[e].to)].push_back(e);
    bool merged = false;
    for (const auto &[ends, ids] : parallel) {
      CostEdge &a = s_.edges[ids[0]];
      for (size_t k = ids.size(); k-- > 1;) {
        const CostMatrix m = oriented(s_.edges[ids[k]], a.from);
        for (size_t x = 0; x < a.cost.size(); ++x)
          for (size_t y = 0; y < a.cost[x].size(); ++y)
            a.cost[x][y] += m[x][y];
        dead_[ids[k]] = true;
        merged = true;
      }
    }
    return merged;
  }

  void compact_edges() {
    std::vector<CostEdge> live;
    for (size_t e = 0; e < s_.edges.size(); ++e)
      if (!dead_[e])
        live.push_back(std::move(s_.edges[e]));
    s_.edges = std::move(live);
  }

  Record record(int v, int a, int b) const {
    const size_t rows = a < 0 ? 1 : original_[static_cast<size_t>(a)];
    const size_t cols = b < 0 ? 1 : original_[static_cast<size_t>(b)];
    return {v, a, b, std::vector<std::vector<int>>(rows, std::vector<int>(cols, -1))};
  }

  void remove_edges(const std::vector<size_t> &edges) {
    for (size_t e : edges)
      dead_[e] = true;
  }

  /// Folds every edge of a single-option node into its neighbours' costs.
  void fold_single_option(int v, const std::vector<size_t> &edges) {
    for (size_t e : edges) {
      const int u = other(s_.edges[e], v);
      const CostMatrix m = oriented(s_.edges[e], u);
      for (size_t a = 0; a < m.size(); ++a)
        s_.cost[static_cast<size_t>(u)][a] += m[a][0];
    }
    remove_edges(edges);
  }

  bool eliminate(int v) {
    const auto vi = static_cast<size_t>(v);
    std::vector<size_t> edges = incident(v);
    if (s_.cost[vi].size() == 1 && !edges.empty()) {
      fold_single_option(v, edges);
      edges.clear();
    }
    if (edges.size() > 2 ||
        (edges.size() == 2 && other(s_.edges[edges[0]], v) == other(s_.edges[edges[1]], v)))
      return false; // not reducible yet (parallel edges are merged first)
    if (edges.empty())
      free_node(v);
    else if (edges.size() == 1)
      leaf(v, edges[0]);
    else
      series(v, edges[0], edges[1]);
    s_.alive[vi] = false;
    return true;
  }

  void free_node(int v) {
    const std::vector<double> &c = s_.cost[static_cast<size_t>(v)];
    const size_t best = static_cast<size_t>(std::min_element(c.begin(), c.end()) - c.begin());
    Record r = record(v, -1, -1);
    r.choice[0][0] = s_.ids[static_cast<size_t>(v)][best];
    s_.records.push_back(std::move(r));
  }

  void leaf(int v, size_t edge) {
    const int u = other(s_.edges[edge], v);
    const CostMatrix m = oriented(s_.edges[edge], u);
    const std::vector<double> &cv = s_.cost[static_cast<size_t>(v)];
    Record r = record(v, u, -1);
    for (size_t a = 0; a < m.size(); ++a) {
      double best = kInf;
      size_t arg = 0;
      for (size_t b = 0; b < cv.size(); ++b)
        if (m[a][b] + cv[b] < best) {
          best = m[a][b] + cv[b];
          arg = b;
        }
      s_.cost[static_cast<size_t>(u)][a] += best;
      r.choice[static_cast<size_t>(s_.ids[static_cast<size_t>(u)][a])][0] =
          s_.ids[static_cast<size_t>(v)][arg];
    }
    s_.records.push_back(std::move(r));
    remove_edges({edge});
  }

  void series(int v, size_t e1, size_t e2) {
    const int u = other(s_.edges[e1], v), w = other(s_.edges[e2], v);
    const CostMatrix m1 = oriented(s_.edges[e1], u); // [u][v]
    const CostMatrix m2 = oriented(s_.edges[e2], v); // [v][w]
    const std::vector<double> &cv = s_.cost[static_cast<size_t>(v)];
    CostEdge merged{u, w, CostMatrix(m1.size(), std::vector<double>(m2[0].size(), kInf))};
    Record r = record(v, u, w);
    for (size_t a = 0; a < m1.size(); ++a)
      for (size_t c = 0; c < m2[0].size(); ++c) {
        size_t arg = 0;
        for (size_t b = 0; b < cv.size(); ++b) {
          const double total = m1[a][b] + cv[b] + m2[b][c];
          if (total < merged.cost[a][c]) {
            merged.cost[a][c] = total;
            arg = b;
          }
        }
        r.choice[static_cast<size_t>(s_.ids[static_cast<size_t>(u)][a])]
                [static_cast<size_t>(s_.ids[static_cast<size_t>(w)][c])] =
            s_.ids[static_cast<size_t>(v)][arg];
      }
    s_.records.push_back(std::move(r));
    remove_edges({e1, e2});
    s_.edges.push_back(std::move(merged));
    dead_.push_back(false);
    index_edge(s_.edges.size() - 1);
  }

  State &s_;
  const std::vector<size_t> &original_;
  std::vector<bool> dead_;                    // per edge of s_.edges
  std::vector<std::vector<size_t>> edges_of_; // per node: its edges, ascending (dead ones too)
};

/// Keeps only option `o` of node `v` (in its costs, ids and edge matrices).
void restrict(State &s, int v, size_t o) {
  const auto vi = static_cast<size_t>(v);
  s.cost[vi] = {s.cost[vi][o]};
  s.ids[vi] = {s.ids[vi][o]};
  for (CostEdge &e : s.edges) {
    if (e.from == v)
      e.cost = {e.cost[o]};
    if (e.to == v)
      for (std::vector<double> &row : e.cost)
        row = {row[o]};
  }
}

class Solver {
public:
  explicit Solver(const CostGraph &g) : g_(g) {
    for (const std::vector<double> &c : g.node_costs)
      original_.push_back(c.size());
  }

  EliminationResult solve(long budget) {
    State s;
    s.cost = g_.node_costs;
    s.edges = g_.edges;
    s.alive.assign(g_.node_costs.size(), true);
    for (size_t n : original_) {
      std::vector<int> ids(n);
      for (size_t i = 0; i < n; ++i)
        ids[i] = static_cast<int>(i);
      s.ids.push_back(std::move(ids));
    }
    EliminationResult r;
    r.option = solve_state(std::move(s), budget, r);
    r.cost = assignment_cost(g_, r.option);
    return r;
  }

private:
  std::vector<int> solve_state(State s, long budget, EliminationResult &stats) {
    Reducer(s, original_).reduce();
    int v = -1;
    size_t degree = 0;
    for (size_t n = 0; n < s.alive.size(); ++n) {
      if (!s.alive[n])
        continue;
      size_t d = 0;
      for (const CostEdge &e : s.edges)
        d += (e.from == static_cast<int>(n) || e.to == static_cast<int>(n)) ? 1 : 0;
      if (v < 0 || d > degree) {
        v = static_cast<int>(n);
        degree = d;
      }
    }
    if (v < 0)
      return rebuild(s);
    ++stats.branched_nodes;
    const size_t k = s.cost[static_cast<size_t>(v)].size();
    if (static_cast<long>(k) > budget) {
      stats.exact = false;
      State fixed = s;
      restrict(fixed, v, greedy_option(s, v));
      return solve_state(std::move(fixed), budget, stats);
    }
    std::vector<int> best;
    double best_cost = kInf;
    for (size_t o = 0; o < k; ++o) {
      State branch = s;
      restrict(branch, v, o);
      std::vector<int> option =
          solve_state(std::move(branch), budget / static_cast<long>(k), stats);
      const double cost = assignment_cost(g_, option);
      if (cost < best_cost) {
        best_cost = cost;
        best = std::move(option);
      }
    }
    return best;
  }

  /// The option of `v` that is cheapest against each neighbour's cheapest matching option.
  static size_t greedy_option(const State &s, int v) {
    std::vector<double> total = s.cost[static_cast<size_t>(v)];
    for (const CostEdge &e : s.edges) {
      if (e.from != v && e.to != v)
        continue;
      const CostMatrix m = oriented(e, v);
      for (size_t o = 0; o < total.size(); ++o)
        total[o] += *std::min_element(m[o].begin(), m[o].end());
    }
    return static_cast<size_t>(std::min_element(total.begin(), total.end()) - total.begin());
  }

  std::vector<int> rebuild(const State &s) const {
    std::vector<int> option(g_.node_costs.size(), -1);
    for (size_t i = s.records.size(); i-- > 0;) {
      const Record &r = s.records[i];
      const size_t a = r.a < 0 ? 0 : static_cast<size_t>(option[static_cast<size_t>(r.a)]);
      const size_t b = r.b < 0 ? 0 : static_cast<size_t>(option[static_cast<size_t>(r.b)]);
      option[static_cast<size_t>(r.node)] = r.choice[a][b];
    }
    return option;
  }

  const CostGraph &g_;
  std::vector<size_t> original_;
};

} // namespace

EliminationResult solve_min_plus(const CostGraph &graph, long max_branches) {
  return Solver(graph).solve(max_branches);
}

} // namespace dse
