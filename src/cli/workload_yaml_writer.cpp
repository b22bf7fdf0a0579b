// A workload file written from a Workload: dimensions and operators in order, einsums as the
// strings the einsum parser reads, names quoted when YAML needs it.
#include "dse/cli/workload_yaml_writer.hpp"

#include <algorithm>

#include "dse/cli/yaml_name.hpp"
#include "dse/support/csv.hpp"
#include "dse/support/error.hpp"

namespace dse {

namespace {

bool is_identifier(const std::string &s) {
  const auto letter = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  };
  const auto ident = [&letter](char c) { return letter(c) || (c >= '0' && c <= '9'); };
  return !s.empty() && letter(s[0]) && std::all_of(s.begin(), s.end(), ident);
}

/// Throws unless an einsum string can spell `access`: an identifier with at least one index.
void check_writable(const Operator &op, const TensorAccess &access) {
  const std::string where = "tensor '" + access.tensor + "' of '" + op.name + "'";
  if (!is_identifier(access.tensor))
    throw UserError(op.where, where + " cannot be written in a dse einsum, whose tensor names are "
                                      "identifiers (letters, digits and _, not starting with a "
                                      "digit)");
  if (access.indices.empty())
    throw UserError(op.where, where + " has no index; a dse einsum indexes every tensor");
}

std::string access_text(const Workload &w, const Operator &op, const TensorAccess &access) {
  check_writable(op, access);
  std::string text = access.tensor + "[";
  for (size_t i = 0; i < access.indices.size(); ++i)
    text += (i ? "," : "") + index_text(access.indices[i], w.dims);
  return text + "]";
}

std::string einsum_text(const Workload &w, const Operator &op) {
  std::string text = access_text(w, op, op.einsum.output) + " +=";
  for (size_t i = 0; i < op.einsum.inputs.size(); ++i)
    text += (i ? " * " : " ") + access_text(w, op, op.einsum.inputs[i]);
  return text;
}

/// A softmax or elementwise operator, with its vector operations per element always given.
std::string vector_op_fields(const Workload &w, const Operator &op) {
  std::string text = op.kind == OpKind::Softmax
                         ? ", kind: softmax, over: " + w.dims[static_cast<size_t>(op.over_dim)].name
                         : ", kind: elementwise";
  return text + ", tensor: " + yaml_name(op.tensor) + ", out: " + yaml_name(op.out) +
         ", ops_per_element: " + exact_number(op.ops_per_element);
}

std::string op_entry(const Workload &w, const Operator &op) {
  std::string fields = op.kind == OpKind::Einsum ? ", einsum: \"" + einsum_text(w, op) + "\""
                                                 : vector_op_fields(w, op);
  if (!op.einsum.residual.empty())
    fields += ", residual: " + yaml_name(op.einsum.residual);
  return "  - {name: " + yaml_name(op.name) + fields + "}\n";
}

std::string dims_text(const Workload &w) {
  std::string text;
  for (const Dimension &dim : w.dims)
    text += (text.empty() ? "" : ", ") + dim.name + ": " + std::to_string(dim.size);
  return "dims: {" + text + "}\n";
}

} // namespace

std::string workload_yaml(const Workload &workload) {
  std::string text = "name: " + yaml_name(workload.name) + "\n" + dims_text(workload) + "ops:\n";
  for (const Operator &op : workload.ops)
    text += op_entry(workload, op);
  return text;
}

} // namespace dse
