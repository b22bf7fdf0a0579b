// The workload as plain data: named dimensions and operators written as einsums with affine
// indices, plus row-wise/elementwise operators attached to a tensor.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dse/support/error.hpp"

namespace dse {

/// A named loop dimension with its full size.
struct Dimension {
  std::string name;
  std::int64_t size = 1;
  SourceLocation where;
};

/// One term `coef * dim` of an affine index expression.
struct IndexTerm {
  int dim = 0;
  std::int64_t coef = 1;
};

/// An affine index such as `p+r`, `2*p+r` or `p+r-1`: the sum of its terms plus a constant.
/// A read at a position outside the tensor a producer writes reads zero (padding).
struct IndexExpr {
  std::vector<IndexTerm> terms;
  std::int64_t offset = 0;
  /// True for a bare dimension with coefficient 1 (no halo, no stride, no offset).
  bool is_plain() const { return terms.size() == 1 && terms[0].coef == 1 && offset == 0; }
  /// The coefficient of `dim` (0 when it is not a term).
  std::int64_t coefficient(int dim) const;
};

/// A tensor access `X[i, j+k, ...]` inside an einsum.
struct TensorAccess {
  std::string tensor;
  std::vector<IndexExpr> indices;
  /// Whether dimension `dim` appears in any index of this access.
  bool uses(int dim) const;
  /// Words of the tile whose dimension d spans extent[d]: an affine index spans
  /// 1 + sum c_i (extent_i - 1).
  double words(const std::vector<std::int64_t> &extent) const;
};

/// `Out[...] += In0[...] * In1[...]`: a contraction over every dimension that appears only on the
/// right-hand side. With a residual, the output starts from that tensor instead of zero (a
/// residual connection `Out = R + In0 * In1`, R read at the output's indices).
struct Einsum {
  TensorAccess output;
  std::vector<TensorAccess> inputs; // one or two
  std::string residual;             // empty: none
  /// The residual read at the output's indices.
  TensorAccess residual_access() const { return {residual, output.indices}; }
};

enum class OpKind { Einsum, Softmax, Elementwise };

/// An operator of the workload. Einsums do the MACs; softmax and elementwise operators attach to
/// the tensor they read and are charged as vector work on that tensor.
struct Operator {
  std::string name;
  OpKind kind = OpKind::Einsum;
  Einsum einsum; // Einsum only
  /// Einsum only: the sibling einsums this one computes at once, stacked along its first output
  /// index (sibling_stack.hpp); empty for an einsum of the workload's own.
  std::vector<int> stacked;
  std::string tensor;         // Softmax/Elementwise: the tensor read
  std::string out;            // Softmax/Elementwise: the tensor written
  int over_dim = -1;          // Softmax: the normalised dimension
  double ops_per_element = 1; // vector operations charged per element processed
  SourceLocation where;

  /// Dimensions the einsum iterates over, in first-appearance order (output first).
  std::vector<int> dims() const;
  /// The same into `out`, its storage reused.
  void dims_into(std::vector<int> &out) const;
  /// Dimensions that do not index the output (summed over).
  std::vector<int> reduction_dims() const;
};

/// A whole workload file.
struct Workload {
  std::string name;
  std::string source_file;
  std::vector<Dimension> dims;
  std::vector<Operator> ops;

  int dim_index(const std::string &name) const; // -1 if unknown
  std::int64_t dim_size(int dim) const { return dims.at(static_cast<size_t>(dim)).size; }
};

/// `index` as an einsum writes it: `p`, `2*p+r`, `p+r-1`.
std::string index_text(const IndexExpr &index, const std::vector<Dimension> &dims);

} // namespace dse
