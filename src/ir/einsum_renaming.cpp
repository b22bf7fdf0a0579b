// Renamings between einsums, access by access.
#include "dse/ir/einsum_renaming.hpp"

#include <algorithm>
#include <string>

namespace dse {

DimRenaming::DimRenaming(const Workload &w)
    : w_(w), to_b_(w.dims.size(), -1), to_a_(w.dims.size(), -1) {}

bool DimRenaming::aligns(const TensorAccess &a, const TensorAccess &b) {
  if (a.indices.size() != b.indices.size())
    return false;
  for (size_t p = 0; p < a.indices.size(); ++p)
    if (!aligns(a.indices[p], b.indices[p]))
      return false;
  return true;
}

bool DimRenaming::aligns(const IndexExpr &a, const IndexExpr &b) {
  if (a.offset != b.offset || a.terms.size() != b.terms.size())
    return false;
  for (size_t t = 0; t < a.terms.size(); ++t)
    if (a.terms[t].coef != b.terms[t].coef || !renames(a.terms[t].dim, b.terms[t].dim))
      return false;
  return true;
}

bool DimRenaming::renames(int a, int b) {
  int &ab = to_b_[static_cast<size_t>(a)];
  int &ba = to_a_[static_cast<size_t>(b)];
  if (ab == -1 && ba == -1 && w_.dim_size(a) == w_.dim_size(b)) {
    ab = b;
    ba = a;
    return true;
  }
  return ab == b && ba == a;
}

namespace {

/// The einsum's tensor names in order (inputs, output, residual), each as the position where it
/// first appears: which accesses read or write one tensor.
std::vector<size_t> tensor_pattern(const Einsum &e) {
  std::vector<std::string> names;
  for (const TensorAccess &in : e.inputs)
    names.push_back(in.tensor);
  names.push_back(e.output.tensor);
  names.push_back(e.residual);
  std::vector<size_t> out;
  for (const std::string &name : names)
    out.push_back(static_cast<size_t>(std::find(names.begin(), names.end(), name) - names.begin()));
  return out;
}

} // namespace

std::optional<std::vector<int>> einsum_renaming(const Workload &w, const Einsum &a,
                                                const Einsum &b) {
  if (a.inputs.size() != b.inputs.size() || a.residual.empty() != b.residual.empty() ||
      tensor_pattern(a) != tensor_pattern(b))
    return std::nullopt;
  DimRenaming renaming(w);
  if (!renaming.aligns(a.output, b.output))
    return std::nullopt;
  for (size_t i = 0; i < a.inputs.size(); ++i)
    if (!renaming.aligns(a.inputs[i], b.inputs[i]))
      return std::nullopt;
  return renaming.renamed();
}

} // namespace dse
