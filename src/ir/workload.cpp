// Queries on einsum operators: which dimensions they iterate and reduce over, and the words of a
// tensor's tile.
#include "dse/ir/workload.hpp"

#include <algorithm>
#include <cstdlib>

namespace dse {

bool TensorAccess::uses(int dim) const {
  return std::any_of(indices.begin(), indices.end(), [dim](const IndexExpr &e) {
    return std::any_of(e.terms.begin(), e.terms.end(),
                       [dim](const IndexTerm &t) { return t.dim == dim; });
  });
}

double TensorAccess::words(const std::vector<std::int64_t> &extent) const {
  double tile = 1;
  for (const IndexExpr &index : indices) {
    double span = 1;
    for (const IndexTerm &term : index.terms)
      span += static_cast<double>(term.coef) *
              static_cast<double>(extent[static_cast<size_t>(term.dim)] - 1);
    tile *= span;
  }
  return tile;
}

std::int64_t IndexExpr::coefficient(int dim) const {
  for (const IndexTerm &t : terms)
    if (t.dim == dim)
      return t.coef;
  return 0;
}

std::string index_text(const IndexExpr &index, const std::vector<Dimension> &dims) {
  std::string text;
  for (const IndexTerm &t : index.terms)
    text += (text.empty() ? "" : "+") + (t.coef == 1 ? "" : std::to_string(t.coef) + "*") +
            dims.at(static_cast<size_t>(t.dim)).name;
  if (index.offset != 0)
    text += (index.offset > 0 ? "+" : "-") + std::to_string(std::abs(index.offset));
  return text;
}

static void append_dims(const TensorAccess &access, std::vector<int> &out) {
  for (const IndexExpr &e : access.indices)
    for (const IndexTerm &t : e.terms)
      if (std::find(out.begin(), out.end(), t.dim) == out.end())
        out.push_back(t.dim);
}

std::vector<int> Operator::dims() const {
  std::vector<int> out;
  dims_into(out);
  return out;
}

void Operator::dims_into(std::vector<int> &out) const {
  out.clear();
  append_dims(einsum.output, out);
  for (const TensorAccess &in : einsum.inputs)
    append_dims(in, out);
}

std::vector<int> Operator::reduction_dims() const {
  std::vector<int> out;
  for (int d : dims())
    if (!einsum.output.uses(d))
      out.push_back(d);
  return out;
}

int Workload::dim_index(const std::string &dim_name) const {
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i].name == dim_name)
      return static_cast<int>(i);
  return -1;
}

} // namespace dse
