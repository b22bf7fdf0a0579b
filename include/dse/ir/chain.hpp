// Producer -> consumer chains found in a workload: which einsums feed which, and which
// softmax/elementwise operators sit on each einsum's output. A workload whose einsums branch
// splits into chains in several ways, each searched.
#pragma once

#include <compare>
#include <cstdint>
#include <vector>

#include "dse/ir/workload.hpp"

namespace dse {

/// One einsum of a chain and the row-wise/elementwise operators applied to its output.
struct ChainLink {
  int einsum_op = -1;
  std::vector<int> attached_ops;

  auto operator<=>(const ChainLink &) const = default;
};

/// Einsums in producer -> consumer order: each link's output (after its attached operators) is
/// read by the next link.
struct Chain {
  std::vector<ChainLink> links;
};

/// Most ways to chain a workload's einsums that chain_splits returns.
inline constexpr std::uint64_t kMaxChainSplits = 64;

/// Every way to split the workload's einsums into chains. A link continues the chain of an
/// einsum whose result it reads when no other einsum reads that result; a result read by several
/// einsums goes through DRAM. An einsum that may continue the chains of several others continues
/// one of them in each split (the other results through DRAM), so a workload without such an
/// einsum splits one way. A workload with stacked einsums (with_sibling_stacks) splits too with
/// every set of stacks that share no member, each in place of its members, its results through
/// DRAM. Throws UserError past kMaxChainSplits splits (`dse network` plans graphs that branch
/// more) and for an einsum that reads a result produced by itself or a later op.
std::vector<std::vector<Chain>> chain_splits(const Workload &workload);

/// The one chain of `splits` when the workload splits one way into one chain (a segment that
/// runs as one), else null.
const Chain *only_chain(const std::vector<std::vector<Chain>> &splits);

/// The einsum ops of the chain's links, in order: what tells chains of different splits apart.
std::vector<int> chain_einsums(const Chain &chain);

/// Every einsum's link, with its attached operators, in workload order.
std::vector<ChainLink> workload_links(const Workload &workload);

/// Einsum `einsum`'s link: the einsum with the softmax and elementwise operators applied to its
/// output, in workload order.
ChainLink einsum_link(const Workload &workload, int einsum);

/// Whether `consumer` may continue `producer`'s chain: it reads the producer's result, which no
/// other einsum of the workload's own reads (a stacked consumer reads it for its members).
bool links_follow(const Workload &workload, const ChainLink &producer, const ChainLink &consumer);

/// The tensor that the next einsum reads from `link`: its output renamed by the attached ops.
std::string link_result_tensor(const Workload &workload, const ChainLink &link);

} // namespace dse
