// Einsums equal up to a renaming of their dimensions: sibling einsums that stack
// (sibling_stack.hpp) and einsums whose searches are one search renamed.
#pragma once

#include <optional>
#include <vector>

#include "dse/ir/workload.hpp"

namespace dse {

/// A renaming of one einsum's dimensions into another's, built access by access: one-to-one,
/// between dimensions of equal sizes.
class DimRenaming {
public:
  explicit DimRenaming(const Workload &w);

  /// Whether access `b` is access `a` renamed (the renaming extended as needed): the same number
  /// of indices, each with the same coefficients and offset.
  bool aligns(const TensorAccess &a, const TensorAccess &b);
  /// Per workload dimension: the dimension it renames to (-1: none).
  const std::vector<int> &renamed() const { return to_b_; }

private:
  bool aligns(const IndexExpr &a, const IndexExpr &b);
  bool renames(int a, int b);

  const Workload &w_;
  std::vector<int> to_b_, to_a_;
};

/// When einsum `b` is einsum `a` renamed (its inputs in the same order, a residual where `a` has
/// one, one tensor wherever `a` has one tensor): per workload dimension, the dimension of `b` that
/// `a`'s renames to (-1 for dimensions `a` does not use); std::nullopt otherwise.
std::optional<std::vector<int>> einsum_renaming(const Workload &w, const Einsum &a,
                                                const Einsum &b);

} // namespace dse
