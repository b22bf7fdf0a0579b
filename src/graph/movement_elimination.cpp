// Movement nodes turned into strided views, composed node by node in graph order; concat inputs
// rebased into the concat buffer so that their producers store them in place.
#include "dse/graph/movement_elimination.hpp"

namespace dse {

Shape row_major_strides(const Shape &shape) {
  Shape strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

namespace {

/// The strides of `new_shape` viewing the same elements as (`shape`, `strides`) in row-major
/// order, if no copy is needed (numpy's no-copy reshape rule); empty otherwise.
std::optional<Shape> reshape_strides(const Shape &shape, const Shape &strides,
                                     const Shape &new_shape) {
  Shape dims, steps;
  for (size_t k = 0; k < shape.size(); ++k)
    if (shape[k] != 1) {
      dims.push_back(shape[k]);
      steps.push_back(strides[k]);
    }
  Shape out(new_shape.size(), 1);
  size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < new_shape.size() && oi < dims.size()) {
    std::int64_t np = new_shape[ni], op = dims[oi];
    while (np != op) {
      if (np < op && nj < new_shape.size())
        np *= new_shape[nj++];
      else if (op < np && oj < dims.size())
        op *= dims[oj++];
      else
        return std::nullopt;
    }
    for (size_t k = oi; k + 1 < oj; ++k)
      if (steps[k] != dims[k + 1] * steps[k + 1])
        return std::nullopt; // the merged input axes are not contiguous
    out[nj - 1] = steps[oj - 1];
    for (size_t k = nj - 1; k > ni; --k)
      out[k - 1] = out[k] * new_shape[k];
    ni = nj++;
    oi = oj++;
  }
  return out;
}

class Eliminator {
public:
  explicit Eliminator(const Graph &graph) : g_(graph), viewed_(graph.tensors.size(), false) {
    plan_.eliminated.assign(graph.nodes.size(), false);
    for (size_t t = 0; t < graph.tensors.size(); ++t)
      plan_.views.push_back({static_cast<int>(t), row_major_strides(graph.tensors[t].shape), 0});
  }

  MovementPlan run() {
    for (size_t n = 0; n < g_.nodes.size(); ++n)
      if (is_movement(g_.nodes[n].kind))
        visit(static_cast<int>(n));
    return std::move(plan_);
  }

private:
  void keep(const GraphNode &n, const std::string &why) {
    plan_.kept.push_back(n.name + " (" + n.op_type + "): " + why);
  }

  void eliminate(int node) {
    const GraphNode &n = g_.node(node);
    plan_.eliminated[static_cast<size_t>(node)] = true;
    for (int out : n.outputs) {
      ++plan_.load_store_pairs_removed;
      plan_.words_removed += static_cast<double>(element_count(g_.tensor(out).shape));
      viewed_[static_cast<size_t>(view(out).base)] = true;
    }
  }

  TensorView &view(int t) { return plan_.views[static_cast<size_t>(t)]; }

  void visit(int node) {
    const GraphNode &n = g_.node(node);
    ++plan_.movement_nodes;
    plan_.load_store_pairs +=
        static_cast<int>(n.kind == NodeKind::Concat ? n.inputs.size() : n.outputs.size());
    for (int out : n.outputs)
      if (g_.tensor(out).is_output)
        return keep(n, "it stores a graph output");
    if (n.kind == NodeKind::Concat)
      return concat(node);
    const TensorView in = view(n.inputs[0]);
    const Shape &in_shape = g_.tensor(n.inputs[0]).shape;
    for (size_t o = 0; o < n.outputs.size(); ++o) {
      std::optional<TensorView> out = derived_view(n, in, in_shape, o);
      if (!out)
        return keep(n, "the strides of its input allow no view of the new shape");
      view(n.outputs[o]) = *out;
    }
    eliminate(node);
  }

  /// The view of output `o` of movement node `n` reading a tensor viewed as `in`.
  std::optional<TensorView> derived_view(const GraphNode &n, TensorView in, const Shape &in_shape,
                                         size_t o) const {
    const NodeAttributes &a = n.attrs;
    TensorView out = in;
    switch (n.kind) {
    case NodeKind::Transpose:
      for (size_t k = 0; k < a.perm.size(); ++k)
        out.strides[k] = in.strides[static_cast<size_t>(a.perm[k])];
      return out;
    case NodeKind::Slice:
      for (size_t k = 0; k < in_shape.size(); ++k) {
        out.offset += a.starts[k] * in.strides[k];
        out.strides[k] = in.strides[k] * a.steps[k];
      }
      return out;
    case NodeKind::Split:
      for (size_t k = 0; k < o; ++k)
        out.offset += a.split[k] * in.strides[static_cast<size_t>(a.axis)];
      return out;
    case NodeKind::Reshape:
    case NodeKind::Flatten:
      if (std::optional<Shape> s =
              reshape_strides(in_shape, in.strides, g_.tensor(n.outputs[o]).shape)) {
        out.strides = *s;
        return out;
      }
      return std::nullopt;
    case NodeKind::Identity:
      return out;
    case NodeKind::Concat:
    case NodeKind::Conv:
    case NodeKind::Gemm:
    case NodeKind::MatMul:
    case NodeKind::MaxPool:
    case NodeKind::AveragePool:
    case NodeKind::GlobalAveragePool:
    case NodeKind::BatchNorm:
    case NodeKind::Elementwise:
    case NodeKind::Softmax:
    case NodeKind::LayerNorm:
    case NodeKind::ReduceMean:
      break;
    }
    return std::nullopt;
  }

  /// Whether tensor `t` can be stored straight into another buffer by its producer.
  bool can_rebase(int t) const {
    const GraphTensor &tensor = g_.tensor(t);
    const TensorView &v = plan_.views[static_cast<size_t>(t)];
    return tensor.kind == TensorKind::Activation && v.base == t && !tensor.is_output &&
           !viewed_[static_cast<size_t>(t)];
  }

  void concat(int node) {
    const GraphNode &n = g_.node(node);
    const int out = n.outputs[0];
    const auto axis = static_cast<size_t>(n.attrs.axis);
    const Shape strides = row_major_strides(g_.tensor(out).shape);
    std::int64_t start = 0;
    size_t rebased = 0;
    for (int in : n.inputs) {
      if (can_rebase(in)) {
        view(in) = {out, strides, start * strides[axis]};
        ++rebased;
        ++plan_.load_store_pairs_removed;
        plan_.words_removed += static_cast<double>(element_count(g_.tensor(in).shape));
      }
      start += g_.tensor(in).shape[axis];
    }
    if (rebased > 0)
      viewed_[static_cast<size_t>(out)] = true; // its storage now holds other tensors
    if (rebased == n.inputs.size()) {
      plan_.eliminated[static_cast<size_t>(node)] = true;
      return;
    }
    keep(n, std::to_string(n.inputs.size() - rebased) +
                " of its inputs cannot be stored in place (graph inputs, views or outputs)");
  }

  const Graph &g_;
  MovementPlan plan_;
  std::vector<bool> viewed_; // tensors that some eliminated node's view reads
};

} // namespace

MovementPlan eliminate_movement(const Graph &graph) { return Eliminator(graph).run(); }

} // namespace dse
