// Producer -> consumer chains found in a workload: which einsums feed which, and which
// softmax/elementwise operators sit on each einsum's output.
#pragma once

#include <vector>

#include "dse/ir/workload.hpp"

namespace dse {

/// One einsum of a chain and the row-wise/elementwise operators applied to its output.
struct ChainLink {
  int einsum_op = -1;
  std::vector<int> attached_ops;
};

/// Einsums in producer -> consumer order: each link's output (after its attached operators) is
/// read by the next link.
struct Chain {
  std::vector<ChainLink> links;
};

/// Splits the workload into chains. Throws UserError for graphs that branch (a tensor read by two
/// einsums, or an einsum reading two produced tensors): those belong to `dse network`.
std::vector<Chain> detect_chains(const Workload &workload);

/// The tensor that the next einsum reads from `link`: its output renamed by the attached ops.
std::string link_result_tensor(const Workload &workload, const ChainLink &link);

} // namespace dse
