// Builds einsum workloads from graph segments. Axes of extent 1 are dropped (they are loops of
// one trip); tensors get canonical names so that equal layers give equal workloads.
#include "dse/graph/lowering.hpp"

#include <algorithm>
#include <map>
#include <sstream>

namespace dse {

namespace {

constexpr int kUnit = -1;      // an axis of extent 1: no index
constexpr int kComposite = -2; // an axis that is several dims (grouped channels): not plain

/// Per tensor axis: the workload dim that indexes it, kUnit or kComposite.
using AxisDims = std::vector<int>;

class SegmentLowering {
public:
  explicit SegmentLowering(const Graph &graph) : graph_(graph) {}

  /// Adds compute node `node` (Conv, Gemm or MatMul); with `reads_result`, its first input is
  /// the current result. False if the node cannot read that result.
  bool add_compute(int node, bool reads_result) {
    const GraphNode &n = graph_.node(node);
    op_ = static_cast<int>(w_.ops.size());
    Operator op;
    op.name = n.name;
    op.kind = OpKind::Einsum;
    const bool ok = n.kind == NodeKind::Conv ? conv(n, reads_result, op.einsum)
                                             : matmul(n, reads_result, op.einsum);
    if (!ok)
      return false;
    result_ = op.einsum.output.tensor;
    last_node_ = node;
    w_.ops.push_back(std::move(op));
    // A third input is a bias: an elementwise add of the result, one operation per element.
    if ((n.kind == NodeKind::Gemm || n.kind == NodeKind::Conv) && n.inputs.size() == 3)
      attach(n.name + ".bias", 1, -1);
    return true;
  }

  void add_attached(int node) {
    const GraphNode &n = graph_.node(node);
    if (const int other = residual_operand(graph_, node, graph_.node(last_node_).outputs[0]);
        other >= 0) {
      // The einsum's output starts from the other operand: the add's result is the einsum's.
      // A tensor the segment already reads (a block's input) keeps its name, so that the chain
      // may hold it on chip for the add (Problem::held_residual).
      const auto read = std::find_if(operands_.begin(), operands_.end(),
                                     [&](const auto &operand) { return operand.second == other; });
      const std::string name = read != operands_.end() ? read->first : tensor_name("R");
      w_.ops[static_cast<size_t>(op_)].einsum.residual = name;
      operands_[name] = other;
      last_node_ = node;
      return;
    }
    const int over =
        n.kind == NodeKind::Softmax ? result_dims_.at(static_cast<size_t>(n.attrs.axis)) : kUnit;
    attach(n.name, n.attrs.ops_per_element, over);
    last_node_ = node;
  }

  /// The graph tensor behind each of the workload's tensors read or written outside it: the
  /// inputs the segment reads from the graph, and its result.
  std::map<std::string, int> graph_tensors() const {
    std::map<std::string, int> out = operands_;
    // The last einsum's output and what its attached operators write are one tensor in place:
    // the last node's result.
    out[result_] = graph_.node(last_node_).outputs[0];
    out[w_.ops[static_cast<size_t>(op_)].einsum.output.tensor] = out[result_];
    return out;
  }

  Workload take(const std::string &name) {
    w_.name = name;
    return std::move(w_);
  }

private:
  int dim(const std::string &base, std::int64_t size) {
    if (size == 1)
      return kUnit;
    std::string name = base;
    for (int i = 2; w_.dim_index(name) >= 0; ++i)
      name = base + std::to_string(i);
    w_.dims.push_back({name, size, {}});
    return static_cast<int>(w_.dims.size()) - 1;
  }

  /// An index `sum coef*dim` over the dims that exist; empty when all are of extent 1.
  static IndexExpr expr(std::initializer_list<std::pair<int, std::int64_t>> terms) {
    IndexExpr e;
    for (const auto &[d, coef] : terms)
      if (d >= 0)
        e.terms.push_back({d, coef});
    return e;
  }

  TensorAccess access(const std::string &name, const std::vector<IndexExpr> &indices) {
    TensorAccess a;
    a.tensor = name;
    for (const IndexExpr &e : indices)
      if (!e.terms.empty())
        a.indices.push_back(e);
    if (a.indices.empty()) // a scalar tensor: give it a loop of one trip
      a.indices.push_back(expr({{add_unit_dim(), 1}}));
    return a;
  }

  int add_unit_dim() {
    w_.dims.push_back({"u" + std::to_string(w_.dims.size()), 1, {}});
    return static_cast<int>(w_.dims.size()) - 1;
  }

  std::string tensor_name(const char *role) const { return role + std::to_string(op_); }

  /// Binds the compute node's first operand (unless it is the current result) and its second.
  void bind_operands(const GraphNode &n, bool reads_result, const char *first, const char *second) {
    if (!reads_result)
      operands_[tensor_name(first)] = n.inputs[0];
    operands_[tensor_name(second)] = n.inputs[1];
  }

  void attach(const std::string &name, double ops_per_element, int over) {
    Operator op;
    op.name = name;
    op.kind = over >= 0 ? OpKind::Softmax : OpKind::Elementwise;
    op.over_dim = over;
    op.ops_per_element = ops_per_element;
    op.tensor = result_;
    op.out = tensor_name("Y") + "a" + std::to_string(w_.ops.size()); // unique: one op each
    result_ = op.out;
    w_.ops.push_back(std::move(op));
  }

  /// A 1x1 window of stride 1 without padding: the conv keeps its input's positions.
  static bool keeps_positions(const NodeAttributes &a) {
    for (size_t i = 0; i < 2; ++i)
      if (a.kernel[i] != 1 || a.strides[i] != 1 || a.pads[i] != 0 || a.pads[i + 2] != 0)
        return false;
    return true;
  }

  /// With `reads_result`, the conv reads the current result: a pointwise conv at its positions,
  /// any other (a depthwise one included) through its window, padding declared by a negative
  /// offset (`2*p+r-1`: zeros the producer never computes). A conv that reads a workload input
  /// reads it padded (the pads are words of the input).
  bool conv(const GraphNode &n, bool reads_result, Einsum &e) {
    const NodeAttributes &a = n.attrs;
    const Shape &x = graph_.tensor(n.inputs[0]).shape;
    const Shape &y = graph_.tensor(n.outputs[0]).shape;
    const bool depthwise = a.groups > 1 && x[1] == a.groups && y[1] == a.groups;
    if (reads_result && a.groups > 1 && !depthwise)
      return false;
    const bool same_positions = reads_result && keeps_positions(a);
    const int batch = reads_result ? result_dims_[0] : dim("n", x[0]);
    const int g = reads_result && depthwise ? result_dims_[1] : dim("g", a.groups);
    const int c = reads_result && !depthwise ? result_dims_[1] : dim("c", x[1] / a.groups);
    const int p = same_positions ? result_dims_[2] : dim("p", y[2]);
    const int q = same_positions ? result_dims_[3] : dim("q", y[3]);
    if (c == kComposite || g == kComposite || batch == kComposite)
      return false;
    const int k = dim("k", y[1] / a.groups);
    const int r = dim("r", a.kernel[0]);
    const int s = dim("s", a.kernel[1]);
    e.output = access(tensor_name("Y"), {expr({{batch, 1}}), expr({{g, 1}}), expr({{k, 1}}),
                                         expr({{p, 1}}), expr({{q, 1}})});
    e.inputs.push_back(access(tensor_name("W"), {expr({{g, 1}}), expr({{k, 1}}), expr({{c, 1}}),
                                                 expr({{r, 1}}), expr({{s, 1}})}));
    bind_operands(n, reads_result, "X", "W");
    IndexExpr rows = expr({{p, a.strides[0]}, {r, a.dilations[0]}});
    IndexExpr cols = expr({{q, a.strides[1]}, {s, a.dilations[1]}});
    if (reads_result) {
      rows.offset = -a.pads[0];
      cols.offset = -a.pads[1];
    }
    e.inputs.push_back(access(reads_result ? result_ : tensor_name("X"),
                              {expr({{batch, 1}}), expr({{g, 1}}), expr({{c, 1}}), rows, cols}));
    const int channel = a.groups == 1 ? k : (k == kUnit ? g : kComposite);
    result_dims_ = {batch, channel, p, q};
    return true;
  }

  /// Gemm and MatMul: Y[b..., m, n] += A[b..., m, k] * B[b..., k, n] (transposes swap axes).
  bool matmul(const GraphNode &n, bool reads_result, Einsum &e) {
    const Shape &sa = graph_.tensor(n.inputs[0]).shape;
    const Shape &sb = graph_.tensor(n.inputs[1]).shape;
    const Shape &sy = graph_.tensor(n.outputs[0]).shape;
    const bool ta = n.kind == NodeKind::Gemm && n.attrs.trans_a;
    const bool tb = n.kind == NodeKind::Gemm && n.attrs.trans_b;
    const size_t batch = sy.size() - 2;
    AxisDims out;
    for (size_t i = 0; i < batch; ++i)
      out.push_back(reads_result ? result_dims_[i] : dim("b", sy[i]));
    const size_t ra = sa.size();
    const int m = reads_result ? result_dims_[ta ? ra - 1 : ra - 2] : dim("m", sy[batch]);
    const int k =
        reads_result ? result_dims_[ta ? ra - 2 : ra - 1] : dim("k", sa[ta ? ra - 2 : ra - 1]);
    if (m == kComposite || k == kComposite)
      return false;
    for (int d : out)
      if (d == kComposite)
        return false;
    const int nn = dim("n", sy[batch + 1]);
    std::vector<IndexExpr> ya, aa, ba;
    for (size_t i = 0; i < batch; ++i)
      ya.push_back(expr({{out[i], 1}}));
    batch_indices(sa, out, aa);
    batch_indices(sb, out, ba);
    ya.push_back(expr({{m, 1}}));
    ya.push_back(expr({{nn, 1}}));
    aa.push_back(expr({{ta ? k : m, 1}}));
    aa.push_back(expr({{ta ? m : k, 1}}));
    ba.push_back(expr({{tb ? nn : k, 1}}));
    ba.push_back(expr({{tb ? k : nn, 1}}));
    e.output = access(tensor_name("Y"), ya);
    e.inputs.push_back(access(reads_result ? result_ : tensor_name("A"), aa));
    e.inputs.push_back(access(tensor_name("B"), ba));
    bind_operands(n, reads_result, "A", "B");
    out.push_back(m);
    out.push_back(nn);
    result_dims_ = out;
    return true;
  }

  /// Batch indices of an operand, aligned right; broadcast axes (extent 1) get no index.
  static void batch_indices(const Shape &operand, const AxisDims &out,
                            std::vector<IndexExpr> &indices) {
    const size_t rank = operand.size() - 2;
    for (size_t j = 0; j < rank; ++j) {
      const size_t o = j + out.size() - rank;
      indices.push_back(expr({{operand[j] == 1 ? kUnit : out[o], 1}}));
    }
  }

  const Graph &graph_;
  Workload w_;
  int op_ = 0;
  std::string result_;
  AxisDims result_dims_;
  int last_node_ = -1;
  std::map<std::string, int> operands_; // workload tensor -> graph tensor, results aside
};

} // namespace

int residual_operand(const Graph &graph, int node, int result) {
  const GraphNode &n = graph.node(node);
  if (n.op_type != "Add" || n.inputs.size() != 2 || n.inputs[0] == n.inputs[1] ||
      (n.inputs[0] != result && n.inputs[1] != result))
    return -1;
  for (int t : n.inputs)
    if (graph.tensor(t).kind == TensorKind::Weight ||
        graph.tensor(t).shape != graph.tensor(n.outputs[0]).shape)
      return -1;
  // The other operand exists when the einsum runs: produced before it, or a graph input (of two
  // einsums adding their results, the later one takes the add).
  const int other = n.inputs[0] == result ? n.inputs[1] : n.inputs[0];
  return graph.tensor(other).producer < graph.tensor(result).producer ? other : -1;
}

bool is_attachable(const Graph &graph, int node) {
  const GraphNode &n = graph.node(node);
  if (n.kind != NodeKind::Elementwise && n.kind != NodeKind::BatchNorm &&
      n.kind != NodeKind::Softmax)
    return false;
  int activations = 0;
  for (int t : n.inputs)
    activations += graph.tensor(t).kind == TensorKind::Weight ? 0 : 1;
  return activations == 1 &&
         graph.tensor(n.outputs[0]).shape == graph.tensor(graph.data_input(node)).shape;
}

namespace {

/// Lowers the segment's nodes into `lowering`; false if a consumer cannot read the result.
bool lower_nodes(const SegmentNodes &segment, SegmentLowering &lowering) {
  for (size_t i = 0; i < segment.units.size(); ++i) {
    if (!lowering.add_compute(segment.units[i].node, i > 0))
      return false;
    for (int a : segment.units[i].attached)
      lowering.add_attached(a);
  }
  return true;
}

} // namespace

std::optional<Workload> lower_segment(const Graph &graph, const SegmentNodes &segment) {
  SegmentLowering lowering(graph);
  if (!lower_nodes(segment, lowering))
    return std::nullopt;
  std::string name;
  for (const SegmentUnit &u : segment.units)
    name += (name.empty() ? "" : "+") + graph.node(u.node).name;
  return lowering.take(name);
}

std::map<std::string, int> segment_graph_tensors(const Graph &graph, const SegmentNodes &segment) {
  SegmentLowering lowering(graph);
  if (!lower_nodes(segment, lowering))
    return {};
  return lowering.graph_tensors();
}

std::string workload_key(const Workload &workload) {
  std::ostringstream out;
  for (const Dimension &d : workload.dims)
    out << d.size << ",";
  const auto write = [&out](const TensorAccess &a) {
    out << a.tensor << "[";
    for (const IndexExpr &e : a.indices) {
      for (const IndexTerm &t : e.terms)
        out << t.coef << "*" << t.dim << "+";
      out << e.offset << ",";
    }
    out << "]";
  };
  for (const Operator &op : workload.ops) {
    out << "|" << static_cast<int>(op.kind) << ":";
    if (op.kind == OpKind::Einsum) {
      write(op.einsum.output);
      for (const TensorAccess &in : op.einsum.inputs)
        write(in);
      out << "+" << op.einsum.residual;
      continue;
    }
    out << op.tensor << ">" << op.out << "@" << op.over_dim << "x" << op.ops_per_element;
  }
  return out.str();
}

} // namespace dse
