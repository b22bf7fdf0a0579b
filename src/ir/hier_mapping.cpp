// The operator's tensors as hierarchical mappings index them, and their roles.
#include "dse/ir/hier_mapping.hpp"

#include "dse/ir/hierarchy.hpp"

namespace dse {

std::int64_t FanoutMapping::factor(int dim) const {
  const auto at = static_cast<size_t>(dim);
  return (at < x.size() ? x[at] : 1) * (at < y.size() ? y[at] : 1);
}

OperatorTensors operator_tensors(const Operator &op) {
  OperatorTensors tensors;
  for (const TensorAccess &input : op.einsum.inputs)
    tensors.push_back(&input);
  tensors.push_back(&op.einsum.output);
  return tensors;
}

std::uint8_t tensor_role(const Operator &op, size_t index) {
  if (index == op.einsum.inputs.size())
    return role::kOutput;
  return index == 0 ? role::kOperand0 : role::kOperand1;
}

} // namespace dse
