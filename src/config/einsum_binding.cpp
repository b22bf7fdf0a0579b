// Resolves einsum dimension names to workload dimensions and validates the accesses.
#include "einsum_binding.hpp"

#include <algorithm>

#include "yaml_reader.hpp"

namespace dse {

namespace {

class EinsumBinder {
public:
  EinsumBinder(const std::vector<Dimension> &dims, const SourceLocation &where,
               const std::string &op_name)
      : dims_(dims), where_(where), op_name_(op_name) {}

  Einsum bind(const ParsedEinsum &parsed) {
    Einsum einsum;
    einsum.output = access(parsed.output);
    check_bare(parsed.output);
    for (const ParsedAccess &in : parsed.inputs) {
      if (in.tensor == parsed.output.tensor)
        fail(in.offset, "op '" + op_name_ + "' reads its own output '" + in.tensor + "'");
      if (&in != &parsed.inputs.front() && in.tensor == parsed.inputs.front().tensor)
        fail(in.offset, "op '" + op_name_ + "' reads tensor '" + in.tensor +
                            "' twice; give each operand its own name");
      einsum.inputs.push_back(access(in));
    }
    check_output_dims_are_read(einsum, parsed.output);
    return einsum;
  }

private:
  TensorAccess access(const ParsedAccess &parsed) {
    TensorAccess out;
    out.tensor = parsed.tensor;
    std::vector<int> seen;
    for (const ParsedIndex &index : parsed.indices) {
      IndexExpr expr;
      for (const ParsedTerm &term : index.terms) {
        const int dim = resolve(term);
        if (std::find(seen.begin(), seen.end(), dim) != seen.end())
          fail(term.offset, "op '" + op_name_ + "': dimension '" + term.dim +
                                "' repeats in access '" + parsed.text + "'");
        seen.push_back(dim);
        expr.terms.push_back(IndexTerm{dim, term.coef});
      }
      expr.offset = index.constant;
      out.indices.push_back(std::move(expr));
    }
    check_size(parsed, out);
    return out;
  }

  int resolve(const ParsedTerm &term) const {
    for (size_t i = 0; i < dims_.size(); ++i)
      if (dims_[i].name == term.dim)
        return static_cast<int>(i);
    fail(term.offset, "undefined dimension '" + term.dim + "' in einsum of op '" + op_name_ + "'");
  }

  void check_bare(const ParsedAccess &output) const {
    for (const ParsedIndex &index : output.indices)
      if (index.terms.size() != 1 || index.terms[0].coef != 1 || index.constant != 0)
        fail(index.offset,
             "op '" + op_name_ + "': output index '" + index.text + "' must be a bare dimension");
  }

  void check_output_dims_are_read(const Einsum &einsum, const ParsedAccess &output) const {
    for (size_t i = 0; i < einsum.output.indices.size(); ++i) {
      const int dim = einsum.output.indices[i].terms[0].dim;
      const bool read = std::any_of(einsum.inputs.begin(), einsum.inputs.end(),
                                    [dim](const TensorAccess &in) { return in.uses(dim); });
      if (!read)
        fail(output.indices[i].offset, "op '" + op_name_ + "': output dimension '" +
                                           dims_[static_cast<size_t>(dim)].name +
                                           "' does not index any input");
    }
  }

  void check_size(const ParsedAccess &parsed, const TensorAccess &access) const {
    if (!access_within_element_limit(access, dims_))
      too_large(parsed);
  }

  [[noreturn]] void too_large(const ParsedAccess &parsed) const {
    fail(parsed.offset, "op '" + op_name_ + "': tensor '" + parsed.tensor + "' has more than " +
                            std::to_string(kMaxTensorElements) + " (2^50) elements");
  }

  [[noreturn]] void fail(int offset, const std::string &message) const {
    throw UserError(shifted(where_, offset), message);
  }

  const std::vector<Dimension> &dims_;
  const SourceLocation &where_;
  const std::string &op_name_;
};

} // namespace

bool access_within_element_limit(const TensorAccess &access, const std::vector<Dimension> &dims) {
  std::int64_t elements = 1;
  for (const IndexExpr &expr : access.indices) {
    std::int64_t span = 1;
    for (const IndexTerm &term : expr.terms) {
      // coef < 2^31 and size < 2^31, so the product fits; the sum is bounded before adding.
      const std::int64_t extent = term.coef * (dims[static_cast<size_t>(term.dim)].size - 1);
      if (extent > kMaxTensorElements - span)
        return false;
      span += extent;
    }
    if (span > kMaxTensorElements / elements)
      return false;
    elements *= span;
  }
  return true;
}

Einsum bind_einsum(const ParsedEinsum &parsed, const std::vector<Dimension> &dims,
                   const SourceLocation &where, const std::string &op_name) {
  return EinsumBinder(dims, where, op_name).bind(parsed);
}

} // namespace dse
