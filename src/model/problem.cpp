// Builds search problems from chain links: tensors, tiled and window dimensions, prefix dims.
#include "dse/model/problem.hpp"

#include <algorithm>
#include <set>
#include <sstream>

#include "dse/support/check.hpp"
#include "dse/support/contains.hpp"

namespace dse {

const Operator &Problem::op(int i) const {
  return workload->ops.at(static_cast<size_t>(ops.at(static_cast<size_t>(i)).workload_op));
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

/// Whether a producer's result may stay on chip as far as residuals go: it starts from zero (no
/// residual of its own in DRAM to start from) and no einsum adds it as a residual (which reads it
/// from DRAM).
bool residuals_allow_fusion(const Workload &workload, const ChainLink &producer) {
  if (!workload.ops.at(static_cast<size_t>(producer.einsum_op)).einsum.residual.empty())
    return false;
  const std::string result = link_result_tensor(workload, producer);
  return std::none_of(workload.ops.begin(), workload.ops.end(),
                      [&](const Operator &op) { return op.einsum.residual == result; });
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

/// Whether the padding of a halo index lies in the first and last windows only: at most the
/// stride and less than the window on each side, with some position left to compute.
bool padding_is_in_border_windows(const HaloRange &range, std::int64_t stride,
                                  std::int64_t window) {
  const std::int64_t pad = std::max(range.pad_before, range.pad_after);
  return range.begin < range.end && pad <= stride && pad < window;
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
  if (slot < 0 || !residuals_allow_fusion(workload, producer))
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
  if (slot < 0 || !writes_bare_dims(workload, producer) ||
      !residuals_allow_fusion(workload, producer))
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
    if (!e.is_plain() && (h < 0 || !padding_is_in_border_windows(
                                       read_range(workload, e, workload.dim_size(written)),
                                       e.coefficient(h), halo_index_window(workload, e, h))))
      return false;
    // The read's dims replace the written one: none may be another of the producer's dims.
    for (const IndexTerm &t : e.terms)
      if (t.dim != written && contains(producer_dims, t.dim))
        return false;
  }
  return true;
}

namespace {

/// Rewrites operator `o` in its consumer's dims: each dim it writes becomes the consumer's
/// index at that position (`read`, already in the last operator's dims), so that its tiles are
/// the windows the consumer reads (tile plus halo). A bare read of the dims written changes
/// nothing.
void read_producer_through(Problem &p, int o, const TensorAccess &read) {
  ProblemOp &prod = p.ops[static_cast<size_t>(o)];
  const TensorAccess &written = p.op(o).einsum.output;
  auto rewrite = [&](const IndexExpr &e) {
    IndexExpr out;
    out.offset = e.offset;
    for (const IndexTerm &t : e.terms) {
      const auto hit = std::find_if(written.indices.begin(), written.indices.end(),
                                    [&](const IndexExpr &w) { return w.terms[0].dim == t.dim; });
      if (hit == written.indices.end()) {
        out.terms.push_back(t);
        continue;
      }
      const IndexExpr &by = read.indices[static_cast<size_t>(hit - written.indices.begin())];
      for (const IndexTerm &u : by.terms)
        out.terms.push_back({u.dim, u.coef * t.coef});
      out.offset += by.offset * t.coef;
    }
    return out;
  };
  for (IndexExpr &e : prod.iteration)
    e = rewrite(e);
  for (TensorAccess &a : prod.accesses)
    for (IndexExpr &e : a.indices)
      e = rewrite(e);
  for (size_t i = 0; i < prod.tensors.size(); ++i)
    if (p.tensors[static_cast<size_t>(prod.tensors[i])].owner == o)
      p.tensors[static_cast<size_t>(prod.tensors[i])].access = prod.accesses[i];
  prod.dims.clear();
  prod.tiled_dims.clear();
  for (const IndexExpr &e : prod.iteration)
    for (const IndexTerm &t : e.terms)
      if (!contains(prod.dims, t.dim)) {
        prod.dims.push_back(t.dim);
        if (!p.is_window[static_cast<size_t>(t.dim)])
          prod.tiled_dims.push_back(t.dim);
      }
}

/// A range of positions [first, second).
using Span = std::pair<std::int64_t, std::int64_t>;

/// The range `index` takes when each of its dims runs over its span in `spans` (per workload
/// dim), clipped to the `written` positions.
Span index_span(const IndexExpr &index, const std::vector<Span> &spans, std::int64_t written) {
  std::int64_t lo = index.offset;
  std::int64_t hi = index.offset;
  for (const IndexTerm &t : index.terms) {
    lo += t.coef * spans[static_cast<size_t>(t.dim)].first;
    hi += t.coef * (spans[static_cast<size_t>(t.dim)].second - 1);
  }
  return {std::max<std::int64_t>(lo, 0), std::min(hi + 1, written)};
}

/// A builder of fused chains: operators rewritten from the last back, each link's halo taken
/// from its consumer's (rewritten) read.
class ChainBuilder {
public:
  ChainBuilder(const Workload &workload, const std::vector<ChainLink> &links)
      : w_(workload), links_(links) {}

  Problem build() {
    p_.workload = &w_;
    p_.is_window.assign(w_.dims.size(), false);
    for (const ChainLink &link : links_)
      mark_window_dims(w_.ops.at(static_cast<size_t>(link.einsum_op)), p_.is_window);
    for (const ChainLink &link : links_)
      p_.ops.push_back(make_problem_op(w_, link, p_.is_window));
    add_tensors();
    // The positions each operator computes, per workload dim (the last one: all of them).
    std::vector<Span> spans;
    for (const Dimension &d : w_.dims)
      spans.emplace_back(0, d.size);
    for (int i = static_cast<int>(links_.size()) - 2; i >= 0; --i)
      spans = add_link(i, spans);
    collect_dims(p_);
    collect_prefix_dims();
    find_held_residual();
    return std::move(p_);
  }

private:
  void add_tensors() {
    for (size_t o = 0; o < p_.ops.size(); ++o) {
      const Operator &op = p_.op(static_cast<int>(o));
      const int slot = o == 0 ? -1 : intermediate_input(w_, links_[o - 1], links_[o]);
      for (size_t i = 0; i < op.einsum.inputs.size(); ++i) {
        if (static_cast<int>(i) != slot) {
          add_tensor(p_, static_cast<int>(o), op.einsum.inputs[i], TensorRole::Input);
          continue;
        }
        // The previous link's intermediate, read here as this operator indexes it.
        p_.ops[o].tensors.push_back(p_.links.back().intermediate);
        p_.ops[o].accesses.push_back(op.einsum.inputs[i]);
      }
      if (o + 1 == p_.ops.size()) {
        add_tensor(p_, static_cast<int>(o), op.einsum.output, TensorRole::Output);
        continue;
      }
      ProblemLink link;
      link.producer = static_cast<int>(o);
      link.intermediate =
          add_tensor(p_, static_cast<int>(o), op.einsum.output, TensorRole::Intermediate);
      p_.links.push_back(std::move(link));
    }
  }

  /// Rewrites link i's producer through its consumer's read and records the link's halo.
  /// `consumed` holds the positions the consumer computes per workload dim; returns the
  /// producer's.
  std::vector<Span> add_link(int i, const std::vector<Span> &consumed) {
    ProblemLink &link = p_.links[static_cast<size_t>(i)];
    const ProblemOp &consumer = p_.ops[static_cast<size_t>(i) + 1];
    const auto slot = static_cast<size_t>(
        std::find(consumer.tensors.begin(), consumer.tensors.end(), link.intermediate) -
        consumer.tensors.begin());
    const TensorAccess read = consumer.accesses[slot]; // in the last operator's dims
    const TensorAccess &original =
        p_.op(i + 1).einsum.inputs[static_cast<size_t>(intermediate_input(
            w_, links_[static_cast<size_t>(i)], links_[static_cast<size_t>(i) + 1]))];
    const TensorAccess &written = p_.op(i).einsum.output;
    read_producer_through(p_, i, read);
    std::vector<Span> produced(w_.dims.size());
    for (size_t d = 0; d < w_.dims.size(); ++d)
      produced[d] = {0, w_.dims[d].size};
    for (size_t j = 0; j < read.indices.size(); ++j) {
      const int dim = written.indices[j].terms[0].dim;
      const Span span = index_span(original.indices[j], consumed, w_.dim_size(dim));
      produced[static_cast<size_t>(dim)] = span;
      const IndexExpr &e = read.indices[j];
      if (e.is_plain())
        continue;
      link.halo_dims.push_back(halo_dim(e, p_.is_window));
      link.halo_reads.push_back(e);
      link.halo_ranges.push_back(halo_range_of(e, span));
    }
    return produced;
  }

  /// The halo range of composed index `e` whose positions computed are `span`: what its
  /// windows over the last operator's whole dims read before and after them is padding.
  HaloRange halo_range_of(const IndexExpr &e, Span span) const {
    std::int64_t last = e.offset;
    for (const IndexTerm &t : e.terms)
      last += t.coef * (w_.dim_size(t.dim) - 1);
    return {span.first, span.second, span.first - e.offset, last + 1 - span.second};
  }

  /// Problem::held_residual.
  void find_held_residual() {
    const std::string &residual = p_.op(static_cast<int>(p_.ops.size()) - 1).einsum.residual;
    if (residual.empty())
      return;
    const TensorAccess &read = p_.tensors[static_cast<size_t>(p_.ops.back().tensors.back())].access;
    for (size_t t = 0; t < p_.tensors.size(); ++t) {
      const ProblemTensor &x = p_.tensors[t];
      if (x.owner != 0 || x.role != TensorRole::Input || x.access.tensor != residual ||
          x.access.indices.size() != read.indices.size())
        continue;
      bool covered = true;
      for (size_t i = 0; i < read.indices.size(); ++i)
        covered = covered && holds(x.access.indices[i], read.indices[i]);
      if (covered)
        p_.held_residual = static_cast<int>(t);
    }
  }

  /// Whether the positions of `held` over a tile of every shared dim (and all of every other)
  /// contain those of `read` over the same tiles.
  bool holds(const IndexExpr &held, const IndexExpr &read) const {
    if (!read.is_plain())
      return false;
    const int dim = read.terms[0].dim;
    const auto shared = [&](int d) { return contains(p_.prefix_dims, d); };
    if (held.is_plain() && !shared(held.terms[0].dim))
      return w_.dim_size(held.terms[0].dim) >= w_.dim_size(dim);
    std::int64_t reach = held.offset;
    bool has_dim = false;
    for (const IndexTerm &term : held.terms) {
      if (term.dim == dim && term.coef == 1 && !has_dim) {
        has_dim = true;
        continue;
      }
      if (shared(term.dim) || term.coef < 0)
        return false;
      reach += term.coef * (w_.dim_size(term.dim) - 1);
    }
    return has_dim && held.offset <= 0 && reach >= 0;
  }

  /// Prefix dims: the last operator's tiled dims that no earlier operator reduces over (each
  /// one that has the dim writes it), and per link the ones its producer lacks.
  void collect_prefix_dims() {
    for (int d : p_.ops.back().tiled_dims) {
      bool eligible = true;
      for (const ProblemLink &link : p_.links) {
        const ProblemOp &prod = p_.ops[static_cast<size_t>(link.producer)];
        if (contains(prod.dims, d) &&
            !p_.tensors[static_cast<size_t>(link.intermediate)].access.uses(d))
          eligible = false;
      }
      if (!eligible)
        continue;
      p_.prefix_dims.push_back(d);
      for (ProblemLink &link : p_.links)
        if (!contains(p_.ops[static_cast<size_t>(link.producer)].dims, d)) {
          link.recompute_dims.push_back(d);
          if (!contains(p_.recompute_dims, d))
            p_.recompute_dims.push_back(d);
        }
    }
    for (const ProblemLink &link : p_.links)
      for (int h : link.halo_dims)
        if (h >= 0 && !contains(p_.halo_dims, h))
          p_.halo_dims.push_back(h);
    std::sort(p_.halo_dims.begin(), p_.halo_dims.end());
  }

  const Workload &w_;
  const std::vector<ChainLink> &links_;
  Problem p_;
};

/// Why a built chain cannot be searched fused (empty when it can).
std::string composed_chain_defect(const Problem &p) {
  for (const ProblemLink &link : p.links) {
    const std::string name = p.tensors[static_cast<size_t>(link.intermediate)].name;
    for (size_t j = 0; j < link.halo_dims.size(); ++j) {
      const int h = link.halo_dims[j];
      if (h < 0)
        return "an index of '" + name + "' composed down the chain has no single tiled dim";
      if (std::count(link.halo_dims.begin(), link.halo_dims.end(), h) != 1)
        return "'" + name + "' is read through two windows over '" + p.dim_name(h) + "'";
      if (!contains(p.prefix_dims, h))
        return "'" + name + "' is read through a window over '" + p.dim_name(h) +
               "', which an earlier operator reduces over";
      const HaloRange &range = link.halo_ranges[j];
      if (range.begin >= range.end || std::max(range.pad_before, range.pad_after) >=
                                          halo_index_window(*p.workload, link.halo_reads[j], h))
        return "the windows composed down the chain read a whole window of padding of '" + name +
               "' along '" + p.dim_name(h) + "'";
    }
    // The composed windows replace the dims the producer writes: none may be another of its own.
    const ProblemOp &rewritten = p.ops[static_cast<size_t>(link.producer)];
    const std::string prod = p.op(link.producer).name;
    std::vector<int> seen;
    for (const IndexExpr &e : rewritten.iteration)
      for (const IndexTerm &t : e.terms) {
        if (contains(seen, t.dim))
          return "'" + prod + "' iterates '" + p.dim_name(t.dim) +
                 "' twice once rewritten in the last operator's dims";
        seen.push_back(t.dim);
      }
  }
  return {};
}

} // namespace

namespace {

/// Why the links cannot be built into a chain at all (empty when every pair can fuse).
std::string pairwise_defect(const Workload &workload, const std::vector<ChainLink> &links) {
  if (links.size() < 2)
    return "a fused chain needs two operators or more";
  for (size_t i = 0; i + 1 < links.size(); ++i)
    if (!can_fuse_with_halo(workload, links[i], links[i + 1]))
      return "'" + workload.ops.at(static_cast<size_t>(links[i].einsum_op)).name +
             "' cannot be fused with '" +
             workload.ops.at(static_cast<size_t>(links[i + 1].einsum_op)).name + "'";
  return {};
}

} // namespace

std::string chain_fusion_problem(const Workload &workload, const std::vector<ChainLink> &links) {
  const std::string why = pairwise_defect(workload, links);
  return why.empty() ? composed_chain_defect(ChainBuilder(workload, links).build()) : why;
}

Problem make_chain_problem(const Workload &workload, const std::vector<ChainLink> &links) {
  std::string why = pairwise_defect(workload, links);
  Problem p;
  if (why.empty()) {
    p = ChainBuilder(workload, links).build();
    why = composed_chain_defect(p);
  }
  DSE_CHECK(why.empty(), "fused problem of operators that cannot be fused: " + why);
  return p;
}

Problem make_fused_problem(const Workload &workload, const ChainLink &producer,
                           const ChainLink &consumer) {
  return make_chain_problem(workload, {producer, consumer});
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
    if (!workload->ops.at(static_cast<size_t>(op.workload_op)).einsum.residual.empty())
      out << "r"; // the output starts from a residual read from DRAM
    if (&op == &ops.back() && held_residual >= 0)
      out << "h" << held_residual; // ... or from the chain's input held on chip
    for (int a : op.attached_ops) {
      // A softmax's normalised dim decides where its running state lives (fused metrics).
      const Operator &attached = workload->ops.at(static_cast<size_t>(a));
      out << "a" << static_cast<int>(attached.kind) << "@" << attached.over_dim;
    }
    out << "}";
  }
  for (int d : dims)
    out << (is_window[static_cast<size_t>(d)] ? "w" : "d") << d;
  // The producer's positions along a halo dim beyond stride * (X - 1) are constants of its
  // counts, and its padding decides whether the halo can be cached.
  for (size_t l = 0; l < links.size(); ++l)
    for (int h : links[l].halo_dims) {
      const HaloRange &range = links[l].halo_range(h);
      out << "h" << l << ":" << h << ":" << halo_positions_offset(static_cast<int>(l), h) << ","
          << halo_window(static_cast<int>(l), h) << "," << range.pad_before << ","
          << range.pad_after;
    }
  return out.str();
}

} // namespace dse
