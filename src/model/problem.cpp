// Builds search problems from chain links: tensors, tiled and window dimensions, prefix dims.
#include "dse/model/problem.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "dse/support/check.hpp"

namespace dse {

namespace {

bool contains(const std::vector<int> &v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace

const Operator &Problem::op(int i) const {
  return workload->ops.at(static_cast<size_t>(ops.at(static_cast<size_t>(i)).workload_op));
}

bool Problem::encloses_intermediate(int dim) const {
  return contains(consumer_only_dims, dim) || contains(halo_dims, dim);
}

std::vector<int> Problem::overlapping_halo_dims() const {
  std::vector<int> out;
  for (int h : halo_dims)
    if (halo_window(h) > halo_stride(h))
      out.push_back(h);
  std::sort(out.begin(), out.end());
  return out;
}

bool Problem::runs_without_recompute(const std::vector<int> &prefix,
                                     const std::vector<int> &cached) const {
  const std::vector<int> overlapping = overlapping_halo_dims();
  return std::none_of(prefix.begin(), prefix.end(),
                      [&](int d) { return contains(consumer_only_dims, d); }) &&
         std::includes(cached.begin(), cached.end(), overlapping.begin(), overlapping.end());
}

namespace {

size_t halo_position(const std::vector<int> &halo_dims, int dim) {
  const auto at = std::find(halo_dims.begin(), halo_dims.end(), dim);
  DSE_CHECK(at != halo_dims.end(), "halo query on a dimension that is not a halo dim");
  return static_cast<size_t>(at - halo_dims.begin());
}

/// The window of a halo index (1 + sum over its terms but `dim`'s of coef * (size - 1)).
std::int64_t window_of(const Workload &workload, const IndexExpr &read, int dim) {
  std::int64_t window = 1;
  for (const IndexTerm &t : read.terms)
    if (t.dim != dim)
      window += t.coef * (workload.dim_size(t.dim) - 1);
  return window;
}

/// Whether some term of `index` is not a term of `read`: the producer's own window on top of
/// the consumer's (`r` of `a+u+r`).
bool has_own_window(const IndexExpr &index, const IndexExpr &read) {
  return std::any_of(index.terms.begin(), index.terms.end(),
                     [&](const IndexTerm &t) { return read.coefficient(t.dim) == 0; });
}

} // namespace

const IndexExpr &Problem::halo_read(int dim) const {
  return halo_reads[halo_position(halo_dims, dim)];
}

const HaloRange &Problem::halo_range(int dim) const {
  return halo_ranges[halo_position(halo_dims, dim)];
}

std::int64_t Problem::halo_stride(int dim) const { return halo_read(dim).coefficient(dim); }

std::int64_t Problem::halo_window(int dim) const {
  return window_of(*workload, halo_read(dim), dim);
}

std::vector<int> Problem::cacheable_halo_dims() const {
  std::vector<int> out;
  for (int h : halo_dims) {
    const IndexExpr &read = halo_read(h);
    const std::int64_t stride = halo_stride(h);
    bool once = true; // every producer access holds h's read at most once (`p+r`, not `2*p+r`)
    bool own_window = false;
    for (const TensorAccess &a : ops[0].accesses)
      for (const IndexExpr &e : a.indices) {
        once = once && e.coefficient(h) <= stride;
        own_window = own_window || (e.coefficient(h) > 0 && has_own_window(e, read));
      }
    // With padding after the last position as wide as the stride, the last step may compute no
    // position yet read its own window.
    const bool last_step_computes = halo_range(h).pad_after < stride || !own_window;
    if (once && halo_window(h) > stride && last_step_computes)
      out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string Problem::dim_name(int dim) const {
  return workload->dims.at(static_cast<size_t>(dim)).name;
}

namespace {

void write_access(std::ostringstream &out, const TensorAccess &a) {
  out << "[";
  for (const IndexExpr &e : a.indices) {
    for (const IndexTerm &t : e.terms)
      out << t.coef << "*" << t.dim << "+";
    out << e.offset << ",";
  }
  out << "]";
}

/// Reduction dims that appear inside a compound (halo or strided) index: filter windows.
void mark_window_dims(const Operator &op, std::vector<bool> &is_window) {
  const std::vector<int> reductions = op.reduction_dims();
  for (const TensorAccess &in : op.einsum.inputs)
    for (const IndexExpr &e : in.indices) {
      if (e.is_plain())
        continue;
      for (const IndexTerm &t : e.terms)
        if (contains(reductions, t.dim))
          is_window[static_cast<size_t>(t.dim)] = true;
    }
}

ProblemOp make_problem_op(const Workload &workload, const ChainLink &link,
                          const std::vector<bool> &is_window) {
  const Operator &op = workload.ops.at(static_cast<size_t>(link.einsum_op));
  ProblemOp pop;
  pop.workload_op = link.einsum_op;
  pop.dims = op.dims();
  for (int d : pop.dims)
    if (!is_window[static_cast<size_t>(d)])
      pop.tiled_dims.push_back(d);
  pop.attached_ops = link.attached_ops;
  for (int d : pop.dims)
    pop.iteration.push_back(IndexExpr{{{d, 1}}});
  return pop;
}

int add_tensor(Problem &p, int owner, const TensorAccess &access, TensorRole role) {
  p.tensors.push_back({access.tensor, access, owner, role});
  ProblemOp &op = p.ops[static_cast<size_t>(owner)];
  op.tensors.push_back(static_cast<int>(p.tensors.size()) - 1);
  op.accesses.push_back(access);
  return static_cast<int>(p.tensors.size()) - 1;
}

void collect_dims(Problem &p) {
  std::set<int> dims;
  for (const ProblemOp &op : p.ops)
    dims.insert(op.dims.begin(), op.dims.end());
  p.dims.assign(dims.begin(), dims.end());
}

} // namespace

Problem make_single_problem(const Workload &workload, const ChainLink &link) {
  Problem p;
  p.workload = &workload;
  p.is_window.assign(workload.dims.size(), false);
  mark_window_dims(workload.ops.at(static_cast<size_t>(link.einsum_op)), p.is_window);
  p.ops.push_back(make_problem_op(workload, link, p.is_window));
  const Operator &op = p.op(0);
  for (const TensorAccess &in : op.einsum.inputs)
    add_tensor(p, 0, in, TensorRole::Input);
  add_tensor(p, 0, op.einsum.output, TensorRole::Output);
  collect_dims(p);
  return p;
}

namespace {

/// Index of the consumer input that reads the producer's (renamed) result, or -1.
int intermediate_input(const Workload &workload, const ChainLink &producer,
                       const ChainLink &consumer) {
  const std::string result = link_result_tensor(workload, producer);
  const Operator &cons = workload.ops.at(static_cast<size_t>(consumer.einsum_op));
  for (size_t i = 0; i < cons.einsum.inputs.size(); ++i)
    if (cons.einsum.inputs[i].tensor == result)
      return static_cast<int>(i);
  return -1;
}

const TensorAccess &intermediate_read(const Workload &workload, const ChainLink &consumer,
                                      int slot) {
  return workload.ops.at(static_cast<size_t>(consumer.einsum_op))
      .einsum.inputs[static_cast<size_t>(slot)];
}

/// The consumer's tiled dim in a compound index of the intermediate, or -1 when the index has
/// none or more than one (a window index is one tiled dim plus window dims).
int halo_dim(const IndexExpr &index, const std::vector<bool> &is_window) {
  int tiled = -1;
  for (const IndexTerm &t : index.terms) {
    if (is_window[static_cast<size_t>(t.dim)])
      continue;
    if (tiled >= 0)
      return -1;
    tiled = t.dim;
  }
  return tiled;
}

/// The positions that index `read` (over the consumer's whole dims) reads of a producer that
/// writes `written` positions there.
HaloRange read_range(const Workload &workload, const IndexExpr &read, std::int64_t written) {
  std::int64_t last = read.offset;
  for (const IndexTerm &t : read.terms)
    last += t.coef * (workload.dim_size(t.dim) - 1);
  HaloRange out;
  out.begin = std::max<std::int64_t>(read.offset, 0);
  out.end = std::min(last + 1, written);
  out.pad_before = std::max<std::int64_t>(-read.offset, 0);
  out.pad_after = std::max<std::int64_t>(last + 1 - written, 0);
  return out;
}

/// Whether the padding that halo index `read` reads lies in the first and last windows only:
/// at most the stride and less than the window on each side.
bool padding_is_in_border_windows(const Workload &workload, const IndexExpr &read, int dim,
                                  std::int64_t written) {
  const HaloRange range = read_range(workload, read, written);
  const std::int64_t stride = read.coefficient(dim);
  const std::int64_t window = window_of(workload, read, dim);
  return range.begin < range.end && std::max(range.pad_before, range.pad_after) <= stride &&
         std::max(range.pad_before, range.pad_after) < window;
}

/// Whether the producer writes distinct bare dims, none of them normalised by a softmax.
bool writes_bare_dims(const Workload &workload, const ChainLink &producer) {
  const TensorAccess &out = workload.ops.at(static_cast<size_t>(producer.einsum_op)).einsum.output;
  std::set<int> seen;
  for (const IndexExpr &e : out.indices)
    if (!e.is_plain() || !seen.insert(e.terms[0].dim).second)
      return false;
  for (int a : producer.attached_ops) {
    const Operator &op = workload.ops.at(static_cast<size_t>(a));
    if (op.kind == OpKind::Softmax && seen.count(op.over_dim) > 0)
      return false;
  }
  return true;
}

} // namespace

bool can_fuse(const Workload &workload, const ChainLink &producer, const ChainLink &consumer) {
  const int slot = intermediate_input(workload, producer, consumer);
  if (slot < 0)
    return false;
  const TensorAccess &read = intermediate_read(workload, consumer, slot);
  const TensorAccess &written =
      workload.ops.at(static_cast<size_t>(producer.einsum_op)).einsum.output;
  if (read.indices.size() != written.indices.size())
    return false;
  // Bare indices over the very dims the producer writes (another dim of the same size is read
  // through a rewrite, as a window of one position).
  for (size_t i = 0; i < read.indices.size(); ++i)
    if (!read.indices[i].is_plain() ||
        read.indices[i].terms[0].dim != written.indices[i].terms[0].dim)
      return false;
  return true;
}

bool can_fuse_with_halo(const Workload &workload, const ChainLink &producer,
                        const ChainLink &consumer) {
  if (can_fuse(workload, producer, consumer))
    return true;
  const int slot = intermediate_input(workload, producer, consumer);
  if (slot < 0 || !writes_bare_dims(workload, producer))
    return false;
  const TensorAccess &read = intermediate_read(workload, consumer, slot);
  const Operator &prod = workload.ops.at(static_cast<size_t>(producer.einsum_op));
  if (read.indices.size() != prod.einsum.output.indices.size())
    return false;
  std::vector<bool> is_window(workload.dims.size(), false);
  mark_window_dims(workload.ops.at(static_cast<size_t>(consumer.einsum_op)), is_window);
  const std::vector<int> producer_dims = prod.dims();
  for (size_t i = 0; i < read.indices.size(); ++i) {
    const IndexExpr &e = read.indices[i];
    const int written = prod.einsum.output.indices[i].terms[0].dim;
    const int h = e.is_plain() ? -1 : halo_dim(e, is_window);
    if (!e.is_plain() &&
        (h < 0 || !padding_is_in_border_windows(workload, e, h, workload.dim_size(written))))
      return false;
    // The read's dims replace the written one: none may be another of the producer's dims.
    for (const IndexTerm &t : e.terms)
      if (t.dim != written && contains(producer_dims, t.dim))
        return false;
  }
  return true;
}

namespace {

/// Rewrites the producer in the consumer's dims: each dim it writes becomes the consumer's index
/// at that position, so that its tiles are the windows the consumer reads (tile plus halo).
void read_producer_through_windows(Problem &p, const TensorAccess &read) {
  ProblemOp &prod = p.ops[0];
  const TensorAccess &written = p.op(0).einsum.output;
  std::vector<std::pair<int, IndexExpr>> substitute;
  for (size_t i = 0; i < read.indices.size(); ++i)
    substitute.emplace_back(written.indices[i].terms[0].dim, read.indices[i]);
  auto rewrite = [&](const IndexExpr &e) {
    IndexExpr out;
    out.offset = e.offset;
    for (const IndexTerm &t : e.terms) {
      const auto hit = std::find_if(substitute.begin(), substitute.end(),
                                    [&](const auto &s) { return s.first == t.dim; });
      if (hit == substitute.end()) {
        out.terms.push_back(t);
        continue;
      }
      for (const IndexTerm &u : hit->second.terms)
        out.terms.push_back({u.dim, u.coef * t.coef});
      out.offset += hit->second.offset * t.coef;
    }
    return out;
  };
  for (IndexExpr &e : prod.iteration)
    e = rewrite(e);
  for (TensorAccess &a : prod.accesses)
    for (IndexExpr &e : a.indices)
      e = rewrite(e);
  for (int t : prod.tensors)
    if (p.tensors[static_cast<size_t>(t)].owner == 0)
      p.tensors[static_cast<size_t>(t)].access = prod.accesses[static_cast<size_t>(
          std::find(prod.tensors.begin(), prod.tensors.end(), t) - prod.tensors.begin())];
  prod.dims.clear();
  prod.tiled_dims.clear();
  for (const IndexExpr &e : prod.iteration)
    for (const IndexTerm &t : e.terms)
      if (!contains(prod.dims, t.dim)) {
        prod.dims.push_back(t.dim);
        if (!p.is_window[static_cast<size_t>(t.dim)])
          prod.tiled_dims.push_back(t.dim);
      }
  for (size_t i = 0; i < read.indices.size(); ++i) {
    const IndexExpr &e = read.indices[i];
    if (e.is_plain())
      continue;
    p.halo_dims.push_back(halo_dim(e, p.is_window));
    p.halo_reads.push_back(e);
    p.halo_ranges.push_back(
        read_range(*p.workload, e, p.workload->dim_size(written.indices[i].terms[0].dim)));
  }
}

} // namespace

Problem make_fused_problem(const Workload &workload, const ChainLink &producer,
                           const ChainLink &consumer) {
  DSE_CHECK(can_fuse_with_halo(workload, producer, consumer),
            "fused problem of operators that cannot be fused");
  Problem p;
  p.workload = &workload;
  p.is_window.assign(workload.dims.size(), false);
  mark_window_dims(workload.ops.at(static_cast<size_t>(producer.einsum_op)), p.is_window);
  mark_window_dims(workload.ops.at(static_cast<size_t>(consumer.einsum_op)), p.is_window);
  p.ops.push_back(make_problem_op(workload, producer, p.is_window));
  p.ops.push_back(make_problem_op(workload, consumer, p.is_window));

  const Operator &prod = p.op(0);
  for (const TensorAccess &in : prod.einsum.inputs)
    add_tensor(p, 0, in, TensorRole::Input);
  p.intermediate = add_tensor(p, 0, prod.einsum.output, TensorRole::Intermediate);

  const int slot = intermediate_input(workload, producer, consumer);
  const Operator &cons = p.op(1);
  for (size_t i = 0; i < cons.einsum.inputs.size(); ++i) {
    if (static_cast<int>(i) == slot) {
      p.ops[1].tensors.push_back(p.intermediate);
      p.ops[1].accesses.push_back(cons.einsum.inputs[i]);
      continue;
    }
    add_tensor(p, 1, cons.einsum.inputs[i], TensorRole::Input);
  }
  // The consumer's output goes last, after the intermediate slot, like every op's output.
  add_tensor(p, 1, cons.einsum.output, TensorRole::Output);
  if (!can_fuse(workload, producer, consumer))
    read_producer_through_windows(p, cons.einsum.inputs[static_cast<size_t>(slot)]);
  collect_dims(p);

  const TensorAccess &inter = p.tensors[static_cast<size_t>(p.intermediate)].access;
  for (int d : p.ops[1].tiled_dims) {
    if (!contains(p.ops[0].dims, d))
      p.consumer_only_dims.push_back(d);
    if (inter.uses(d) || !contains(p.ops[0].dims, d))
      p.prefix_dims.push_back(d);
  }
  return p;
}

std::string Problem::structure_key() const {
  std::ostringstream out;
  for (const ProblemOp &op : ops) {
    out << "op" << op.workload_op << "{";
    for (size_t i = 0; i < op.tensors.size(); ++i) {
      out << "t" << op.tensors[i];
      write_access(out, op.accesses[i]);
    }
    if (std::any_of(op.iteration.begin(), op.iteration.end(),
                    [](const IndexExpr &e) { return !e.is_plain(); }))
      write_access(out, TensorAccess{"iteration", op.iteration});
    for (int a : op.attached_ops) {
      // A softmax's normalised dim decides where its running state lives (fused metrics).
      const Operator &attached = workload->ops.at(static_cast<size_t>(a));
      out << "a" << static_cast<int>(attached.kind) << "@" << attached.over_dim;
    }
    out << "}";
  }
  for (int d : dims)
    out << (is_window[static_cast<size_t>(d)] ? "w" : "d") << d;
  // The producer's positions along a halo dim are constants of its counts, and its padding
  // decides whether the halo can be cached.
  for (int h : halo_dims) {
    const HaloRange &range = halo_range(h);
    out << "h" << h << ":" << range.begin << "," << range.end << "," << halo_window(h) << ","
        << range.pad_before << "," << range.pad_after;
  }
  return out.str();
}

} // namespace dse
