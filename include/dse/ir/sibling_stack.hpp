// Sibling einsums that read one input alike, stacked into one einsum over a new dimension, so
// that a dataflow may read the shared input once for all of them (the Q, K and V projections of
// attention all read the layer input). Each stack is an extra einsum of the workload, which
// chain_splits offers in place of its members.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dse/ir/workload.hpp"

namespace dse {

/// Most siblings of a group whose every subset of two or more is stacked; a larger group is
/// stacked whole only.
inline constexpr size_t kMaxStackedSubsetGroup = 4;

/// `workload` with one stacked einsum appended per subset (two or more) of every group of
/// siblings. Siblings are einsums without a residual or attached operators that read one tensor
/// with the same indices and one weight each (a tensor no operator produces) with the same
/// indices and writes, up to a renaming of dimensions of equal sizes. A stack of siblings
/// `Y1[i] += X[..] * W1[..]`, `Y2[i] += X[..] * W2[..]` is `Y1+Y2[s, i] += X[..] * W1+W2[s, ..]`
/// over a new dimension `s` (named `stack`, or `stack2`, ... where taken) of one position per
/// member, named `op1+op2` after its members: its result stacks theirs, member by member.
Workload with_sibling_stacks(const Workload &workload);

/// The workload's own einsums that op `op` computes: its stacked members, or itself.
std::vector<int> computed_einsums(const Workload &workload, int op);

/// The results of a stack's members, member by member (slices of the stack's result); none for
/// an einsum of the workload's own.
std::vector<std::string> stacked_results(const Workload &workload, int op);

} // namespace dse
