// A deliberately plain interpreter of graph nodes: one output element at a time, every read and
// write through the tensor's view, so split runs and view runs compute each element the same way.
#include "reference_executor.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <random>
#include <stdexcept>

namespace dse::testing {

namespace {

using Index = std::vector<std::int64_t>;

void for_each_index(const Shape &shape, size_t dim, Range range,
                    const std::function<void(const Index &)> &fn) {
  Index idx(shape.size(), 0);
  if (shape.empty())
    return fn(idx);
  idx[dim] = range.begin;
  while (true) {
    fn(idx);
    size_t d = shape.size();
    while (d-- > 0) {
      const std::int64_t end = d == dim ? range.end : shape[d];
      const std::int64_t begin = d == dim ? range.begin : 0;
      if (++idx[d] < end)
        break;
      idx[d] = begin;
      if (d == 0)
        return;
    }
  }
}

double unary(const std::string &op, double x) {
  if (op == "Relu")
    return std::max(0.0, x);
  if (op == "Clip")
    return std::clamp(x, 0.0, 6.0);
  if (op == "Sigmoid")
    return 1 / (1 + std::exp(-x));
  if (op == "Tanh")
    return std::tanh(x);
  if (op == "Sqrt")
    return std::sqrt(std::fabs(x));
  if (op == "Exp")
    return std::exp(x);
  if (op == "Erf")
    return std::erf(x);
  if (op == "Neg")
    return -x;
  if (op == "Abs")
    return std::fabs(x);
  if (op == "HardSigmoid")
    return std::clamp(0.2 * x + 0.5, 0.0, 1.0);
  if (op == "HardSwish")
    return x * std::clamp(x / 6 + 0.5, 0.0, 1.0);
  if (op == "LeakyRelu")
    return x < 0 ? 0.01 * x : x;
  if (op == "Gelu")
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  if (op == "Reciprocal")
    return 1 / (std::fabs(x) + 1);
  return x; // Cast
}

double binary(const std::string &op, double a, double b) {
  if (op == "Add")
    return a + b;
  if (op == "Sub")
    return a - b;
  if (op == "Mul")
    return a * b;
  if (op == "Div")
    return a / (std::fabs(b) + 1);
  if (op == "Pow")
    return a * a;
  if (op == "Max")
    return std::max(a, b);
  return std::min(a, b);
}

class Executor {
public:
  Executor(const Graph &graph, const TensorValues &inputs, const MovementPlan *views)
      : g_(graph), views_(views) {
    for (const auto &[t, v] : inputs)
      storage_[t] = v;
  }

  void run_all() {
    for (size_t n = 0; n < g_.nodes.size(); ++n) {
      if (views_ && views_->eliminated[n])
        continue;
      allocate_outputs(static_cast<int>(n));
      compute(static_cast<int>(n), 0, {0, 0});
    }
  }

  void allocate(int t, double fill) {
    storage_[t] = Values(static_cast<size_t>(element_count(g_.tensor(t).shape)), fill);
  }

  void allocate_outputs(int node) {
    for (int t : g_.node(node).outputs) {
      const int base = view(t).base;
      if (!storage_.count(base))
        allocate(base, 0);
    }
  }

  /// Computes the outputs of `node` whose index along `dim` is in `range` (all if empty).
  void compute(int node, size_t dim, Range range) {
    const GraphNode &n = g_.node(node);
    for (int out : n.outputs) {
      const Shape &shape = g_.tensor(out).shape;
      const Range r = range.size() > 0 ? range : Range{0, shape.empty() ? 1 : shape[dim]};
      for_each_index(shape, dim, r, [&](const Index &i) { set(out, i, element(n, out, i)); });
    }
  }

  double get(int t, const Index &i) const {
    const TensorView v = view(t);
    std::int64_t at = v.offset;
    for (size_t k = 0; k < i.size(); ++k)
      at += i[k] * v.strides[k];
    return storage_.at(v.base).at(static_cast<size_t>(at));
  }

  void set(int t, const Index &i, double value) {
    const TensorView v = view(t);
    std::int64_t at = v.offset;
    for (size_t k = 0; k < i.size(); ++k)
      at += i[k] * v.strides[k];
    storage_.at(v.base).at(static_cast<size_t>(at)) = value;
  }

  TensorValues &storage() { return storage_; }

  /// The values of tensor `t` in row-major order, read through its view.
  Values read_whole(int t) const {
    Values out;
    const Shape &shape = g_.tensor(t).shape;
    for_each_index(shape, 0, {0, shape[0]}, [&](const Index &i) { out.push_back(get(t, i)); });
    return out;
  }

private:
  TensorView view(int t) const {
    if (views_)
      return views_->views.at(static_cast<size_t>(t));
    return {t, row_major_strides(g_.tensor(t).shape), 0};
  }

  const Shape &shape(int t) const { return g_.tensor(t).shape; }

  /// Reads input `t` at output index `i` with numpy broadcasting (right-aligned).
  double broadcast_get(int t, const Index &i) const {
    const Shape &s = shape(t);
    Index j(s.size());
    for (size_t k = 0; k < s.size(); ++k) {
      const std::int64_t v = i[i.size() - s.size() + k];
      j[k] = s[k] == 1 ? 0 : v;
    }
    return get(t, j);
  }

  double element(const GraphNode &n, int out, const Index &i) const {
    switch (n.kind) {
    case NodeKind::Conv:
      return conv(n, i);
    case NodeKind::MaxPool:
    case NodeKind::AveragePool:
      return pool(n, i);
    case NodeKind::GlobalAveragePool:
      return global_pool(n, i);
    case NodeKind::Gemm:
    case NodeKind::MatMul:
      return matmul(n, i);
    case NodeKind::BatchNorm:
      return batch_norm(n, i);
    case NodeKind::Elementwise:
      return elementwise(n, i);
    case NodeKind::Softmax:
      return softmax(n, i);
    case NodeKind::LayerNorm:
      return layer_norm(n, i);
    case NodeKind::ReduceMean:
      return reduce_mean(n, i);
    case NodeKind::Reshape:
    case NodeKind::Flatten:
    case NodeKind::Identity:
      return reshape(n, out, i);
    case NodeKind::Transpose:
      return transpose(n, i);
    case NodeKind::Concat:
      return concat(n, i);
    case NodeKind::Slice:
      return slice(n, i);
    case NodeKind::Split:
      return split(n, out, i);
    }
    throw std::logic_error("unknown node kind");
  }

  double conv(const GraphNode &n, const Index &i) const {
    const NodeAttributes &a = n.attrs;
    const Shape &x = shape(n.inputs[0]);
    const Shape &w = shape(n.inputs[1]);
    const std::int64_t per_group = w[0] / a.groups;
    const std::int64_t g = i[1] / per_group;
    double sum = n.inputs.size() > 2 ? get(n.inputs[2], {i[1]}) : 0.0;
    for (std::int64_t c = 0; c < w[1]; ++c)
      for (std::int64_t r = 0; r < w[2]; ++r)
        for (std::int64_t s = 0; s < w[3]; ++s) {
          const std::int64_t h = i[2] * a.strides[0] - a.pads[0] + r * a.dilations[0];
          const std::int64_t v = i[3] * a.strides[1] - a.pads[1] + s * a.dilations[1];
          if (h < 0 || h >= x[2] || v < 0 || v >= x[3])
            continue;
          sum += get(n.inputs[0], {i[0], g * w[1] + c, h, v}) * get(n.inputs[1], {i[1], c, r, s});
        }
    return sum;
  }

  double pool(const GraphNode &n, const Index &i) const {
    const NodeAttributes &a = n.attrs;
    const Shape &x = shape(n.inputs[0]);
    const bool max = n.kind == NodeKind::MaxPool;
    double acc = max ? -std::numeric_limits<double>::infinity() : 0.0;
    int count = 0;
    for (std::int64_t r = 0; r < a.kernel[0]; ++r)
      for (std::int64_t s = 0; s < a.kernel[1]; ++s) {
        const std::int64_t h = i[2] * a.strides[0] - a.pads[0] + r;
        const std::int64_t v = i[3] * a.strides[1] - a.pads[1] + s;
        if (h < 0 || h >= x[2] || v < 0 || v >= x[3])
          continue;
        const double value = get(n.inputs[0], {i[0], i[1], h, v});
        acc = max ? std::max(acc, value) : acc + value;
        ++count;
      }
    return max ? acc : acc / count;
  }

  double global_pool(const GraphNode &n, const Index &i) const {
    const Shape &x = shape(n.inputs[0]);
    double sum = 0;
    for (std::int64_t h = 0; h < x[2]; ++h)
      for (std::int64_t v = 0; v < x[3]; ++v)
        sum += get(n.inputs[0], {i[0], i[1], h, v});
    return sum / static_cast<double>(x[2] * x[3]);
  }

  double matmul(const GraphNode &n, const Index &i) const {
    const Shape &sa = shape(n.inputs[0]);
    const Shape &sb = shape(n.inputs[1]);
    const bool ta = n.kind == NodeKind::Gemm && n.attrs.trans_a;
    const bool tb = n.kind == NodeKind::Gemm && n.attrs.trans_b;
    const size_t rank = i.size();
    const std::int64_t m = i[rank - 2], col = i[rank - 1];
    const std::int64_t depth = ta ? sa[sa.size() - 2] : sa.back();
    double sum = 0;
    for (std::int64_t k = 0; k < depth; ++k) {
      Index ia(i.end() - static_cast<std::ptrdiff_t>(sa.size()), i.end());
      Index ib(i.end() - static_cast<std::ptrdiff_t>(sb.size()), i.end());
      for (size_t d = 0; d + 2 < sa.size(); ++d)
        ia[d] = sa[d] == 1 ? 0 : ia[d];
      for (size_t d = 0; d + 2 < sb.size(); ++d)
        ib[d] = sb[d] == 1 ? 0 : ib[d];
      ia[sa.size() - 2] = ta ? k : m;
      ia[sa.size() - 1] = ta ? m : k;
      ib[sb.size() - 2] = tb ? col : k;
      ib[sb.size() - 1] = tb ? k : col;
      sum += get(n.inputs[0], ia) * get(n.inputs[1], ib);
    }
    return n.inputs.size() > 2 ? sum + broadcast_get(n.inputs[2], i) : sum;
  }

  double batch_norm(const GraphNode &n, const Index &i) const {
    const double x = get(n.inputs[0], i);
    if (n.inputs.size() < 5)
      return x;
    const Index c{i[1]};
    const double var = std::fabs(get(n.inputs[4], c)) + 1e-5;
    return (x - get(n.inputs[3], c)) / std::sqrt(var) * get(n.inputs[1], c) + get(n.inputs[2], c);
  }

  double elementwise(const GraphNode &n, const Index &i) const {
    double acc = broadcast_get(n.inputs[0], i);
    if (n.inputs.size() == 1)
      return n.op_type == "Add" || n.op_type == "Sub" || n.op_type == "Mul" || n.op_type == "Div" ||
                     n.op_type == "Pow" || n.op_type == "Max" || n.op_type == "Min"
                 ? binary(n.op_type, acc, 2.0) // a scalar constant operand folded on import
                 : unary(n.op_type, acc);
    for (size_t k = 1; k < n.inputs.size(); ++k)
      acc = binary(n.op_type, acc, broadcast_get(n.inputs[k], i));
    return acc;
  }

  double softmax(const GraphNode &n, const Index &i) const {
    const auto axis = static_cast<size_t>(n.attrs.axis);
    Index j = i;
    double top = -std::numeric_limits<double>::infinity(), sum = 0;
    for (j[axis] = 0; j[axis] < shape(n.inputs[0])[axis]; ++j[axis])
      top = std::max(top, get(n.inputs[0], j));
    for (j[axis] = 0; j[axis] < shape(n.inputs[0])[axis]; ++j[axis])
      sum += std::exp(get(n.inputs[0], j) - top);
    return std::exp(get(n.inputs[0], i) - top) / sum;
  }

  /// Mean of the input over `axes` at the index `i` (with the reduced axes ignored).
  double mean_over(int t, Index i, const std::vector<size_t> &axes, double power,
                   double shift) const {
    const Shape &s = shape(t);
    double sum = 0, count = 0;
    std::function<void(size_t)> walk = [&](size_t k) {
      if (k == axes.size()) {
        sum += std::pow(get(t, i) - shift, power);
        ++count;
        return;
      }
      for (i[axes[k]] = 0; i[axes[k]] < s[axes[k]]; ++i[axes[k]])
        walk(k + 1);
    };
    walk(0);
    return sum / count;
  }

  double layer_norm(const GraphNode &n, const Index &i) const {
    std::vector<size_t> axes;
    for (size_t d = static_cast<size_t>(n.attrs.axis); d < i.size(); ++d)
      axes.push_back(d);
    const double mean = mean_over(n.inputs[0], i, axes, 1, 0);
    const double var = mean_over(n.inputs[0], i, axes, 2, mean);
    double y = (get(n.inputs[0], i) - mean) / std::sqrt(var + 1e-5);
    if (n.inputs.size() > 1)
      y *= broadcast_get(n.inputs[1], i);
    return n.inputs.size() > 2 ? y + broadcast_get(n.inputs[2], i) : y;
  }

  double reduce_mean(const GraphNode &n, const Index &i) const {
    std::vector<size_t> axes;
    Index j;
    size_t k = 0;
    for (size_t d = 0; d < shape(n.inputs[0]).size(); ++d) {
      const bool reduced = std::find(n.attrs.axes.begin(), n.attrs.axes.end(), std::int64_t(d)) !=
                           n.attrs.axes.end();
      if (reduced)
        axes.push_back(d);
      j.push_back(reduced ? 0 : i[k]);
      k += !reduced || n.attrs.keepdims ? 1 : 0;
    }
    return mean_over(n.inputs[0], j, axes, 1, 0);
  }

  /// Reshape, Flatten, Identity: the same row-major position in the input.
  double reshape(const GraphNode &n, int out, const Index &i) const {
    const Shape os = row_major_strides(shape(out));
    std::int64_t flat = 0;
    for (size_t k = 0; k < i.size(); ++k)
      flat += i[k] * os[k];
    const Shape &in = shape(n.inputs[0]);
    Index j(in.size());
    for (size_t k = in.size(); k-- > 0;) {
      j[k] = flat % in[k];
      flat /= in[k];
    }
    return get(n.inputs[0], j);
  }

  double transpose(const GraphNode &n, const Index &i) const {
    Index j(i.size());
    for (size_t k = 0; k < i.size(); ++k)
      j[static_cast<size_t>(n.attrs.perm[k])] = i[k];
    return get(n.inputs[0], j);
  }

  double concat(const GraphNode &n, const Index &i) const {
    const auto axis = static_cast<size_t>(n.attrs.axis);
    Index j = i;
    for (int t : n.inputs) {
      if (j[axis] < shape(t)[axis])
        return get(t, j);
      j[axis] -= shape(t)[axis];
    }
    throw std::logic_error("concat index out of range");
  }

  double slice(const GraphNode &n, const Index &i) const {
    Index j(i.size());
    for (size_t k = 0; k < i.size(); ++k)
      j[k] = n.attrs.starts[k] + i[k] * n.attrs.steps[k];
    return get(n.inputs[0], j);
  }

  double split(const GraphNode &n, int out, const Index &i) const {
    const auto axis = static_cast<size_t>(n.attrs.axis);
    Index j = i;
    for (size_t k = 0; n.outputs[k] != out; ++k)
      j[axis] += n.attrs.split[k];
    return get(n.inputs[0], j);
  }

  const Graph &g_;
  const MovementPlan *views_;
  TensorValues storage_;
};

bool leaves(const Graph &graph, const SplitRegion &r, int t) {
  const GraphTensor &tensor = graph.tensor(t);
  return tensor.is_output || tensor.consumers.empty() ||
         std::any_of(tensor.consumers.begin(), tensor.consumers.end(),
                     [&](int c) { return !r.contains(c); });
}

} // namespace

TensorValues random_inputs(const Graph &graph, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  TensorValues out;
  for (size_t t = 0; t < graph.tensors.size(); ++t) {
    const GraphTensor &tensor = graph.tensors[t];
    if (tensor.kind == TensorKind::Activation)
      continue;
    Values v(static_cast<size_t>(element_count(tensor.shape)));
    for (double &x : v)
      x = dist(rng);
    out[static_cast<int>(t)] = std::move(v);
  }
  return out;
}

TensorValues run_graph(const Graph &graph, const TensorValues &inputs) {
  Executor e(graph, inputs, nullptr);
  e.run_all();
  return e.storage();
}

TensorValues run_split(const Graph &graph, const std::vector<SplitRegion> &regions,
                       const TensorValues &inputs) {
  Executor e(graph, inputs, nullptr);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    const auto r = std::find_if(regions.begin(), regions.end(), [&](const SplitRegion &s) {
      return s.contains(static_cast<int>(v));
    });
    if (r == regions.end()) {
      e.allocate_outputs(static_cast<int>(v));
      e.compute(static_cast<int>(v), 0, {0, 0});
      continue;
    }
    if (r->nodes.front() != static_cast<int>(v))
      continue;
    TensorValues assembled;
    for (int p = 0; p < r->parts; ++p) {
      for (size_t i = 0; i < r->nodes.size(); ++i) {
        const int node = r->nodes[i];
        const int out = graph.node(node).outputs[0];
        e.allocate(out, std::numeric_limits<double>::quiet_NaN()); // this part's slab
        e.compute(node, r->dim(graph, node), r->ranges[i][static_cast<size_t>(p)]);
      }
      for (size_t i = 0; i < r->nodes.size(); ++i) { // hand on this part's share
        const int node = r->nodes[i];
        const int out = graph.node(node).outputs[0];
        const size_t dim = r->dim(graph, node);
        const Shape &s = graph.tensor(out).shape;
        const std::int64_t step = s[dim] / r->parts;
        if (!assembled.count(out))
          assembled[out] = Values(static_cast<size_t>(element_count(s)),
                                  std::numeric_limits<double>::quiet_NaN());
        const Shape strides = row_major_strides(s);
        for_each_index(s, dim, {step * p, step * (p + 1)}, [&](const Index &idx) {
          std::int64_t at = 0;
          for (size_t k = 0; k < idx.size(); ++k)
            at += idx[k] * strides[k];
          assembled[out][static_cast<size_t>(at)] = e.storage()[out][static_cast<size_t>(at)];
        });
      }
    }
    for (auto &[t, values] : assembled) {
      if (leaves(graph, *r, t))
        e.storage()[t] = std::move(values);
      else
        e.storage().erase(t); // internal: only ever existed as part slabs
    }
  }
  return e.storage();
}

TensorValues run_with_views(const Graph &graph, const MovementPlan &movement,
                            const TensorValues &inputs) {
  Executor e(graph, inputs, &movement);
  e.run_all();
  TensorValues out;
  for (int t : graph.outputs)
    out[t] = e.read_whole(t);
  return out;
}

} // namespace dse::testing
