// Partition-axis propagation: per-node rules (fixed axes or axis maps), domains narrowed to a
// fixed point with contradicting constraints cut, an assignment, and the copies it needs.
#include "dse/graph/bank_mapping.hpp"

#include <algorithm>
#include <set>

namespace dse {

namespace {

using AxisSet = std::set<int>;

/// A node's partition rule for input `k`: a fixed axis it needs (`required` >= 0), or a map
/// from the input's axes to its output's axes (-1: that input axis cannot be the partition).
struct InputRule {
  int required = -1;
  std::vector<int> to_out;
};

int rank_of(const Graph &g, int t) { return static_cast<int>(g.tensor(t).shape.size()); }

/// Reshape/Flatten: an input axis survives when the elements before it and its extent match.
std::vector<int> reshape_map(const Shape &in, const Shape &out) {
  std::vector<int> map(in.size(), -1);
  std::int64_t before_in = 1;
  for (size_t a = 0; a < in.size(); ++a) {
    std::int64_t before_out = 1;
    for (size_t b = 0; b < out.size(); before_out *= out[b], ++b)
      if (before_out == before_in && out[b] == in[a] && in[a] > 1)
        map[a] = static_cast<int>(b);
    before_in *= in[a];
  }
  return map;
}

InputRule input_rule(const Graph &g, int node, size_t k, int out) {
  const GraphNode &n = g.node(node);
  const int t = n.inputs[k];
  const Shape &in = g.tensor(t).shape, &os = g.tensor(out).shape;
  const int ri = rank_of(g, t), ro = rank_of(g, out);
  const NodeAttributes &a = n.attrs;
  switch (n.kind) {
  case NodeKind::Conv:
  case NodeKind::MaxPool:
  case NodeKind::AveragePool:
  case NodeKind::GlobalAveragePool:
    return {1, {}};
  case NodeKind::Gemm:
    return {k == 0 ? (a.trans_a ? 0 : 1) : (a.trans_b ? 1 : 0), {}};
  case NodeKind::MatMul:
    return {k == 0 ? ri - 1 : ri - 2, {}};
  case NodeKind::Reshape:
  case NodeKind::Flatten:
    return {-1, reshape_map(in, os)};
  case NodeKind::Transpose: {
    std::vector<int> map(in.size(), -1);
    for (size_t o = 0; o < a.perm.size(); ++o)
      map[static_cast<size_t>(a.perm[o])] = static_cast<int>(o);
    return {-1, map};
  }
  case NodeKind::Concat:
  case NodeKind::Slice:
  case NodeKind::Split: { // a placement along the axis: each bank keeps its range
    std::vector<int> map(in.size());
    for (size_t d = 0; d < in.size(); ++d)
      map[d] = static_cast<int>(d);
    return {-1, map};
  }
  case NodeKind::BatchNorm:
  case NodeKind::Elementwise:
  case NodeKind::Identity:
  case NodeKind::Softmax:
  case NodeKind::LayerNorm:
  case NodeKind::ReduceMean:
    break;
  }
  std::vector<int> map(in.size(), -1);
  int removed = 0;
  for (int d = 0; d < ri; ++d) {
    const bool reduced = (n.kind == NodeKind::Softmax && d == a.axis) ||
                         (n.kind == NodeKind::LayerNorm && d >= a.axis) ||
                         (n.kind == NodeKind::ReduceMean &&
                          std::find(a.axes.begin(), a.axes.end(), d) != a.axes.end());
    const int o = d + (ro - ri) - removed;
    if (reduced)
      removed += n.kind == NodeKind::ReduceMean && !a.keepdims ? 1 : 0;
    else if (o >= 0 && o < ro && os[static_cast<size_t>(o)] == in[static_cast<size_t>(d)])
      map[static_cast<size_t>(d)] = o;
  }
  return {-1, map};
}

/// The fixed partition axis of a node's output, or -1 if it follows its inputs.
int fixed_output(const Graph &g, int node, int out) {
  const NodeKind kind = g.node(node).kind;
  if (kind == NodeKind::Gemm || kind == NodeKind::MatMul)
    return rank_of(g, out) - 2;
  const bool channel = kind == NodeKind::Conv || kind == NodeKind::MaxPool ||
                       kind == NodeKind::AveragePool || kind == NodeKind::GlobalAveragePool;
  return channel ? 1 : -1;
}

struct Constraint {
  int node = 0;
  int in = 0;  // tensor
  int out = 0; // tensor
  InputRule rule;
  bool cut = false;
};

class BankMapper {
public:
  explicit BankMapper(const Graph &g)
      : g_(g), domain_(g.tensors.size()), constraints_of_(g.tensors.size()),
        first_fixed_reader_(g.tensors.size(), -1), first_writer_(g.tensors.size(), -1) {
    for (size_t t = 0; t < g.tensors.size(); ++t)
      for (int d = 0; d < rank_of(g, static_cast<int>(t)); ++d)
        domain_[t].insert(d);
    for (size_t v = 0; v < g.nodes.size(); ++v)
      for (int out : g.nodes[v].outputs) {
        if (const int f = fixed_output(g, static_cast<int>(v), out); f >= 0)
          domain_[static_cast<size_t>(out)] = {f};
        for (size_t k = 0; k < g.nodes[v].inputs.size(); ++k)
          if (g.tensor(g.nodes[v].inputs[k]).kind != TensorKind::Weight)
            add_constraint({static_cast<int>(v), g.nodes[v].inputs[k], out,
                            input_rule(g, static_cast<int>(v), k, out), false});
      }
  }

  /// Narrows the domains in sweeps over the constraints, in order, until a sweep changes
  /// nothing. A sweep evaluates only the constraints whose domains changed since their last
  /// evaluation: narrowing is idempotent, so the others would change nothing, and the sweeps
  /// and their outcome are those of evaluating every constraint, in time linear in the changes.
  BankMapping run() {
    BankMapping m;
    std::set<size_t> due, next_sweep;
    for (size_t i = 0; i < constraints_.size(); ++i)
      due.insert(i);
    std::vector<int> changed_tensors;
    for (bool changed = true; changed; ++m.iterations) {
      changed = false;
      while (!due.empty()) {
        const size_t i = *due.begin();
        due.erase(due.begin());
        if (constraints_[i].cut)
          continue;
        changed_tensors.clear();
        changed |= narrow(constraints_[i], m.conflicts, changed_tensors);
        for (int t : changed_tensors)
          for (size_t j : constraints_of_[static_cast<size_t>(t)])
            if (j != i)
              (j > i ? due : next_sweep).insert(j);
      }
      std::swap(due, next_sweep);
    }
    m.global = assign(false);
    m.local = assign(true);
    return m;
  }

private:
  void add_constraint(Constraint c) {
    const int index = static_cast<int>(constraints_.size());
    constraints_of_[static_cast<size_t>(c.in)].push_back(static_cast<size_t>(index));
    constraints_of_[static_cast<size_t>(c.out)].push_back(static_cast<size_t>(index));
    int &fixed_reader = first_fixed_reader_[static_cast<size_t>(c.in)];
    if (fixed_reader < 0 && c.rule.required >= 0)
      fixed_reader = index;
    int &writer = first_writer_[static_cast<size_t>(c.out)];
    if (writer < 0)
      writer = index;
    constraints_.push_back(std::move(c));
  }

  /// Narrows the domains of `c`'s tensors (or cuts `c`); true if anything changed. The tensors
  /// whose domain changed are appended to `changed_tensors`.
  bool narrow(Constraint &c, int &conflicts, std::vector<int> &changed_tensors) {
    AxisSet &in = domain_[static_cast<size_t>(c.in)];
    AxisSet &out = domain_[static_cast<size_t>(c.out)];
    AxisSet new_in, new_out;
    if (c.rule.required >= 0) {
      if (in.count(c.rule.required))
        new_in = {c.rule.required};
      new_out = out;
    } else {
      for (int a : in) {
        const int o = c.rule.to_out[static_cast<size_t>(a)];
        if (o >= 0 && out.count(o)) {
          new_in.insert(a);
          new_out.insert(o);
        }
      }
    }
    if (new_in.empty() || new_out.empty()) {
      c.cut = true; // a conflict: this edge will carry a copy
      ++conflicts;
      return true;
    }
    if (new_in != in)
      changed_tensors.push_back(c.in);
    if (new_out != out)
      changed_tensors.push_back(c.out);
    in = std::move(new_in);
    out = std::move(new_out);
    return !changed_tensors.empty();
  }

  /// The input axis constraint `c` needs for output axis `out_axis`, or -1 if none gives it.
  static int needed(const Constraint &c, int out_axis) {
    if (c.rule.required >= 0)
      return c.rule.required;
    for (size_t a = 0; a < c.rule.to_out.size(); ++a)
      if (c.rule.to_out[a] == out_axis)
        return static_cast<int>(a);
    return -1;
  }

  /// The largest axis among `allowed` (ties: the lowest): an operator's own preference.
  int preferred(int t, const AxisSet &allowed) const {
    int best = -1;
    for (int a : allowed)
      if (best < 0 || g_.tensor(t).shape[static_cast<size_t>(a)] >
                          g_.tensor(t).shape[static_cast<size_t>(best)])
        best = a;
    return best < 0 ? 0 : best;
  }

  PartitionPlan assign(bool local) const {
    PartitionPlan p;
    p.axis.assign(g_.tensors.size(), -1);
    for (size_t t = 0; t < g_.tensors.size(); ++t)
      if (g_.tensors[t].kind == TensorKind::Input)
        p.axis[t] = input_axis(static_cast<int>(t), local);
    for (size_t v = 0; v < g_.nodes.size(); ++v)
      for (int out : g_.nodes[v].outputs)
        p.axis[static_cast<size_t>(out)] = output_axis(static_cast<int>(v), out, p, local);
    std::set<std::pair<int, int>> copies;
    for (const Constraint &c : constraints_) {
      const int need = needed(c, p.axis[static_cast<size_t>(c.out)]);
      if (need != p.axis[static_cast<size_t>(c.in)] && copies.insert({c.in, need}).second)
        p.copied.push_back(g_.tensor(c.in).name + " -> axis " + std::to_string(need) + " for " +
                           g_.node(c.node).name);
    }
    p.copies = static_cast<int>(copies.size());
    return p;
  }

  int input_axis(int t, bool local) const {
    if (const int c = first_fixed_reader_[static_cast<size_t>(t)]; c >= 0)
      return constraints_[static_cast<size_t>(c)].rule.required; // its first fixed consumer's
    return local ? preferred(t, domain_[static_cast<size_t>(t)])
                 : *domain_[static_cast<size_t>(t)].begin();
  }

  int output_axis(int node, int out, const PartitionPlan &p, bool local) const {
    if (const int f = fixed_output(g_, node, out); f >= 0)
      return f;
    AxisSet reachable; // output axes the first input can give
    const int c = first_writer_[static_cast<size_t>(out)];
    if (c < 0)
      return 0; // computed from weights only
    const Constraint *first = &constraints_[static_cast<size_t>(c)];
    for (int o : first->rule.to_out)
      if (o >= 0)
        reachable.insert(o);
    if (local)
      return preferred(out, reachable);
    const int follow =
        first->rule.to_out[static_cast<size_t>(p.axis[static_cast<size_t>(first->in)])];
    const AxisSet &d = domain_[static_cast<size_t>(out)];
    if (follow >= 0 && d.count(follow))
      return follow;
    return d.empty() ? 0 : *d.begin();
  }

  const Graph &g_;
  std::vector<AxisSet> domain_;
  std::vector<Constraint> constraints_;
  std::vector<std::vector<size_t>> constraints_of_; // per tensor: constraints reading or writing it
  // Per tensor, the first constraint that reads it with a fixed axis, and the first that
  // writes it (its producer's first activation input); -1 if none.
  std::vector<int> first_fixed_reader_;
  std::vector<int> first_writer_;
};

} // namespace

BankMapping map_banks(const Graph &graph) { return BankMapper(graph).run(); }

} // namespace dse
