// Sibling detection (einsums equal up to a renaming of dimensions, sharing one input) and the
// stacked einsums appended for every subset of a group.
#include "dse/ir/sibling_stack.hpp"

#include <algorithm>
#include <bit>
#include <set>

#include "dse/ir/chain.hpp"
#include "dse/ir/einsum_renaming.hpp"

namespace dse {

namespace {

/// Every tensor some operator writes.
std::set<std::string> produced_tensors(const Workload &w) {
  std::set<std::string> out;
  for (const Operator &op : w.ops)
    out.insert(op.kind == OpKind::Einsum ? op.einsum.output.tensor : op.out);
  return out;
}

/// Einsums of the workload's own that may be stacked: two inputs, no residual, no attached
/// operators.
std::vector<int> stackable_einsums(const Workload &w) {
  std::vector<int> out;
  for (const ChainLink &link : workload_links(w)) {
    const Operator &op = w.ops[static_cast<size_t>(link.einsum_op)];
    if (link.attached_ops.empty() && op.einsum.inputs.size() == 2 && op.einsum.residual.empty() &&
        op.stacked.empty())
      out.push_back(link.einsum_op);
  }
  return out;
}

/// Whether einsum `b` is a sibling of `a` that reads a's input `shared` (the other input of each
/// a weight of its own): equal accesses up to a renaming of dimensions.
bool siblings(const Workload &w, const std::set<std::string> &produced, int a, int b,
              size_t shared) {
  const Einsum &ea = w.ops[static_cast<size_t>(a)].einsum;
  const Einsum &eb = w.ops[static_cast<size_t>(b)].einsum;
  const std::string &x = ea.inputs[shared].tensor;
  const auto at = std::find_if(eb.inputs.begin(), eb.inputs.end(),
                               [&](const TensorAccess &in) { return in.tensor == x; });
  if (at == eb.inputs.end())
    return false;
  const TensorAccess &wa = ea.inputs[1 - shared];
  const TensorAccess &wb = eb.inputs[at == eb.inputs.begin() ? 1 : 0];
  if (wa.tensor == wb.tensor || wa.tensor == x || wb.tensor == x || produced.count(wa.tensor) ||
      produced.count(wb.tensor) || ea.output.tensor == eb.output.tensor)
    return false;
  DimRenaming renaming(w);
  return renaming.aligns(ea.output, eb.output) && renaming.aligns(ea.inputs[shared], *at) &&
         renaming.aligns(wa, wb);
}

/// The position in einsum `op`'s inputs of the tensor at position `shared` of einsum `first`'s.
size_t shared_index(const Workload &w, int op, int first, size_t shared) {
  const std::string &x = w.ops[static_cast<size_t>(first)].einsum.inputs[shared].tensor;
  return w.ops[static_cast<size_t>(op)].einsum.inputs[0].tensor == x ? 0 : 1;
}

/// A group of pairwise siblings and the input of its first member that they share.
struct SiblingGroup {
  std::vector<int> ops;
  size_t shared = 0;
};

/// The groups of two or more pairwise siblings, each einsum in one group at most, in workload
/// order.
std::vector<SiblingGroup> sibling_groups(const Workload &w) {
  const std::set<std::string> produced = produced_tensors(w);
  const std::vector<int> candidates = stackable_einsums(w);
  std::set<int> grouped;
  std::vector<SiblingGroup> out;
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (grouped.count(candidates[i]))
      continue;
    for (size_t shared = 0; shared < 2; ++shared) {
      SiblingGroup group{{candidates[i]}, shared};
      for (size_t j = i + 1; j < candidates.size(); ++j)
        if (!grouped.count(candidates[j]) &&
            std::all_of(group.ops.begin(), group.ops.end(), [&](int member) {
              return siblings(w, produced, member, candidates[j],
                              shared_index(w, member, candidates[i], shared));
            }))
          group.ops.push_back(candidates[j]);
      if (group.ops.size() < 2)
        continue;
      grouped.insert(group.ops.begin(), group.ops.end());
      out.push_back(std::move(group));
      break;
    }
  }
  return out;
}

/// The member sets stacked from a group: every subset of two or more, largest first, for a
/// group of up to kMaxStackedSubsetGroup; the whole group only for a larger one.
std::vector<std::vector<int>> stacked_subsets(const std::vector<int> &group) {
  if (group.size() > kMaxStackedSubsetGroup)
    return {group};
  std::vector<unsigned> masks;
  for (unsigned mask = 1; mask < (1u << group.size()); ++mask)
    if (std::popcount(mask) >= 2)
      masks.push_back(mask);
  std::stable_sort(masks.begin(), masks.end(),
                   [](unsigned x, unsigned y) { return std::popcount(x) > std::popcount(y); });
  std::vector<std::vector<int>> out;
  for (unsigned mask : masks) {
    std::vector<int> members;
    for (size_t m = 0; m < group.size(); ++m)
      if (mask & (1u << m))
        members.push_back(group[m]);
    out.push_back(std::move(members));
  }
  return out;
}

/// `name(op)` of each member joined by '+'.
template <class Name> std::string joined(const std::vector<int> &members, Name &&name) {
  std::string out;
  for (int m : members)
    out += (out.empty() ? "" : "+") + name(m);
  return out;
}

/// Every operator and tensor name of the workload (a stack's names must be new).
std::set<std::string> taken_names(const Workload &w) {
  std::set<std::string> out;
  for (const Operator &op : w.ops) {
    out.insert(op.name);
    if (op.kind != OpKind::Einsum) {
      out.insert({op.tensor, op.out});
      continue;
    }
    out.insert({op.einsum.output.tensor, op.einsum.residual});
    for (const TensorAccess &in : op.einsum.inputs)
      out.insert(in.tensor);
  }
  return out;
}

/// A dimension name not yet in the workload: `stack`, `stack2`, ...
std::string new_dim_name(const Workload &w) {
  for (int k = 1;; ++k) {
    std::string name = k == 1 ? "stack" : "stack" + std::to_string(k);
    if (w.dim_index(name) < 0)
      return name;
  }
}

/// The stacked einsum of `members` over dimension `stack`: the first member's einsum with the
/// stack index in front of its weight's and its output's, which take joined names.
Operator stacked_op(const Workload &w, const std::vector<int> &members, size_t shared, int stack) {
  const Operator &first = w.ops[static_cast<size_t>(members[0])];
  const std::string &x = first.einsum.inputs[shared].tensor;
  const auto weight = [&](int m) {
    for (const TensorAccess &in : w.ops[static_cast<size_t>(m)].einsum.inputs)
      if (in.tensor != x)
        return in.tensor;
    return x;
  };
  Operator op = first;
  op.name = joined(members, [&](int m) { return w.ops[static_cast<size_t>(m)].name; });
  op.stacked = members;
  const IndexExpr s{{IndexTerm{stack, 1}}, 0};
  TensorAccess &out = op.einsum.output;
  out.tensor =
      joined(members, [&](int m) { return w.ops[static_cast<size_t>(m)].einsum.output.tensor; });
  out.indices.insert(out.indices.begin(), s);
  TensorAccess &in = op.einsum.inputs[1 - shared];
  in.tensor = joined(members, weight);
  in.indices.insert(in.indices.begin(), s);
  return op;
}

} // namespace

Workload with_sibling_stacks(const Workload &workload) {
  Workload out = workload;
  for (const SiblingGroup &group : sibling_groups(workload))
    for (const std::vector<int> &members : stacked_subsets(group.ops)) {
      const std::set<std::string> taken = taken_names(out);
      const std::string dim = new_dim_name(out);
      out.dims.push_back({dim, static_cast<std::int64_t>(members.size()),
                          workload.ops[static_cast<size_t>(members[0])].where});
      // The shared input's position in this subset's first member.
      const size_t shared = shared_index(out, members[0], group.ops[0], group.shared);
      Operator op = stacked_op(out, members, shared, static_cast<int>(out.dims.size() - 1));
      if (taken.count(op.name) || taken.count(op.einsum.output.tensor) ||
          taken.count(op.einsum.inputs[1 - shared].tensor)) {
        out.dims.pop_back();
        continue;
      }
      out.ops.push_back(std::move(op));
    }
  return out;
}

std::vector<int> computed_einsums(const Workload &workload, int op) {
  const Operator &o = workload.ops.at(static_cast<size_t>(op));
  return o.stacked.empty() ? std::vector<int>{op} : o.stacked;
}

std::vector<std::string> stacked_results(const Workload &workload, int op) {
  std::vector<std::string> out;
  for (int m : workload.ops.at(static_cast<size_t>(op)).stacked)
    out.push_back(workload.ops[static_cast<size_t>(m)].einsum.output.tensor);
  return out;
}

} // namespace dse
