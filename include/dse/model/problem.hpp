// A search problem: one einsum, or a producer -> consumer pair searched as a fused chain, with
// the tensors each operator touches and the dimensions that can be tiled.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/chain.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

enum class TensorRole { Input, Output, Intermediate };

/// A tensor of the problem. The intermediate of a fused pair is one tensor, owned by the
/// producer (its retention depth lies in the shared prefix).
struct ProblemTensor {
  std::string name;
  TensorAccess access; // as written by its owner
  int owner = 0;       // problem op index
  TensorRole role = TensorRole::Input;
};

/// An einsum of the problem.
struct ProblemOp {
  int workload_op = -1;
  std::vector<int> dims;              // all dims it iterates (tiled and window)
  std::vector<int> tiled_dims;        // dims that are loops (window dims excluded)
  std::vector<int> tensors;           // problem tensors it touches: inputs..., output last
  std::vector<TensorAccess> accesses; // how this op indexes each of `tensors`
  std::vector<int> attached_ops;      // softmax/elementwise ops on its output
};

/// One operator, or a fused producer (ops[0]) -> consumer (ops[1]) pair.
struct Problem {
  const Workload *workload = nullptr;
  std::vector<ProblemOp> ops;
  std::vector<ProblemTensor> tensors;
  std::vector<int> dims;        // union of the ops' dims, ascending
  std::vector<bool> is_window;  // per workload dim: reduction dim inside a halo index (kept whole)
  int intermediate = -1;        // problem tensor index, fused only
  std::vector<int> prefix_dims; // dims allowed in the shared prefix (fused only)
  std::vector<int> consumer_only_dims; // consumer dims absent from the producer (fused only)

  bool fused() const { return ops.size() == 2; }
  const Operator &op(int i) const;
  /// Canonical text of everything the symbolic forms depend on (not sizes, not hardware).
  std::string structure_key() const;
  std::string dim_name(int dim) const;
};

Problem make_single_problem(const Workload &workload, const ChainLink &link);

/// Whether the pair can be searched fused: the consumer must read the intermediate with bare
/// dimensions (a halo on the intermediate would need overlapping producer tiles).
bool can_fuse(const Workload &workload, const ChainLink &producer, const ChainLink &consumer);
Problem make_fused_problem(const Workload &workload, const ChainLink &producer,
                           const ChainLink &consumer);

} // namespace dse
