// Reads and validates workload YAML into dse::Workload.
//
// Format:
//
//   name: gpt3-6.7b-attention-s2048
//   dims: {h: 32, m: 2048, n: 2048, k: 128, l: 128}   # identifiers -> integers 1..2^31-1
//   ops:                                               # in dependence order
//     - {name: qk, einsum: "S[h,m,n] += Q[h,m,k] * K[h,n,k]"}          # kind: einsum (default)
//     - {name: softmax, kind: softmax, over: n, tensor: S, out: P}       # ops_per_element: 4
//     - {name: relu, kind: elementwise, tensor: P, out: P2}             # ops_per_element: 1
//     - {name: pv, einsum: "O[h,m,l] += P2[h,m,n] * V[h,n,l]"}
//
// Einsums take one or two inputs; input indices are affine (`p+r`, `2*p+r`, positive integer
// coefficients), output indices are bare dimensions, and no dimension repeats in one access.
// Every declared dimension must be used; every output dimension must index an input. A tensor
// is produced by at most one op, before any op reads it, and keeps one rank throughout.
// Softmax/elementwise ops read a tensor produced by an earlier op and write a new tensor of the
// same shape; softmax normalises over `over`, a dimension of that tensor. No tensor may span
// more than 2^50 elements (affine index extent: 1 + sum coef * (size - 1)). An op that reads a
// produced tensor may not reach past what its producer writes (a window over a 56x56 output
// cannot read 58x58) unless a negative constant declares padding: `Y[k, p+r-1, q+s-1]` reads
// zeros around Y. Output indices carry no constant.
#include "dse/config/workload_loader.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "dse/config/einsum_parser.hpp"
#include "dse/ir/limits.hpp"
#include "einsum_binding.hpp"
#include "yaml_reader.hpp"

namespace dse {

namespace {

/// What the loader knows about a tensor name so far.
struct TensorRecord {
  bool produced = false; // false while only read (a workload input)
  std::string first_op;  // the op that produced it, or else the first op that read it
  size_t rank = 0;
  std::vector<int> dims; // dims of a produced tensor (its bare output indices)
};

/// Elements `index` spans: 1 + sum coef * (size - 1).
std::int64_t index_extent(const IndexExpr &index, const std::vector<Dimension> &dims) {
  std::int64_t extent = 1;
  for (const IndexTerm &t : index.terms)
    extent += t.coef * (dims[static_cast<size_t>(t.dim)].size - 1);
  return extent;
}

bool is_identifier(const std::string &s) {
  const auto ident_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  return !s.empty() && !(s[0] >= '0' && s[0] <= '9') && std::all_of(s.begin(), s.end(), ident_char);
}

/// Where the einsum string's first character is: quoted scalars start one column later.
SourceLocation einsum_location(const YAML::Node &value, const std::string &file_name) {
  return shifted(location_of(value, file_name), value.Tag() == "!" ? 1 : 0);
}

class WorkloadReader {
public:
  explicit WorkloadReader(const std::string &file_name) : file_name_(file_name) {}

  Workload read(const YAML::Node &root) {
    const YamlMap top(root, file_name_, "");
    top.allow_only({"name", "dims", "ops"});
    workload_.source_file = file_name_;
    workload_.name = top.name("name");
    read_dims(top.map("dims", "dims"));
    const YAML::Node &ops = top.list("ops");
    if (ops.size() == 0)
      top.fail(ops, "ops must list at least one op");
    for (size_t i = 0; i < ops.size(); ++i)
      read_op(ops[i], i);
    check_dims_used();
    return std::move(workload_);
  }

private:
  void read_dims(const YamlMap &dims) {
    if (dims.entries().empty())
      dims.fail(dims.node(), "dims must declare at least one dimension");
    if (dims.entries().size() > kMaxWorkloadDimensions)
      dims.fail(dims.node(), std::to_string(dims.entries().size()) +
                                 " dimensions declared; a workload has at most " +
                                 std::to_string(kMaxWorkloadDimensions));
    for (const auto &[key, value] : dims.entries()) {
      const std::string &name = key.Scalar();
      if (!is_identifier(name))
        dims.fail(key, "dimension name '" + name + "' must be an identifier (letters, digits, _)");
      const std::int64_t size = dims.integer_value(value, name, 1, kMaxDimensionSize);
      workload_.dims.push_back(Dimension{name, size, location_of(key, file_name_)});
    }
  }

  void read_op(const YAML::Node &node, size_t index) {
    const YamlMap unnamed(node, file_name_, "ops[" + std::to_string(index) + "]");
    Operator op;
    op.name = unnamed.name("name");
    if (!op_names_.insert(op.name).second)
      unnamed.fail(unnamed.required("name"), "duplicate op name '" + op.name + "'");
    op.where = location_of(node, file_name_);
    const YamlMap m(node, file_name_, "op '" + op.name + "'");
    const std::string kind = m.optional_string("kind").value_or("einsum");
    if (kind == "einsum")
      read_einsum(m, op);
    else if (kind == "softmax" || kind == "elementwise")
      read_vector_op(m, op, kind == "softmax");
    else
      m.fail(m.required("kind"),
             "kind must be one of einsum, softmax, elementwise, got '" + kind + "'");
    workload_.ops.push_back(std::move(op));
  }

  void read_einsum(const YamlMap &m, Operator &op) {
    m.allow_only({"name", "kind", "einsum", "residual"});
    op.kind = OpKind::Einsum;
    const std::string text = m.string("einsum");
    const SourceLocation where = einsum_location(m.required("einsum"), file_name_);
    const ParsedEinsum parsed = parse_einsum_of(op.name, text, where);
    op.einsum = bind_einsum(parsed, workload_.dims, where, op.name);
    for (size_t i = 0; i < parsed.inputs.size(); ++i)
      note_read(op.einsum.inputs[i], op.name, shifted(where, parsed.inputs[i].offset));
    if (m.has("residual"))
      read_residual(m, op);
    note_produced(op.einsum.output.tensor, op.einsum.output.indices.size(),
                  output_dims(op.einsum.output), op.name, shifted(where, parsed.output.offset));
  }

  /// `residual: R`: the output starts from R, read at the output's indices; a tensor produced
  /// earlier must have exactly the output's extents.
  void read_residual(const YamlMap &m, Operator &op) {
    op.einsum.residual = m.string("residual");
    const TensorAccess read = op.einsum.residual_access();
    const SourceLocation at = location_of(m.required("residual"), file_name_);
    if (!is_identifier(read.tensor))
      m.fail(m.required("residual"),
             "the residual must name a tensor as an einsum does (letters, digits, _), got '" +
                 read.tensor + "'");
    if (read.tensor == op.einsum.output.tensor)
      m.fail(m.required("residual"), "the residual must be another tensor than the output '" +
                                         op.einsum.output.tensor + "'");
    for (const IndexExpr &e : read.indices)
      if (!e.is_plain())
        m.fail(m.required("residual"),
               "a residual is read at the output's indices, which must be bare dimensions");
    note_read(read, op.name, at);
    const auto it = tensors_.find(read.tensor);
    if (!it->second.produced)
      return;
    for (size_t i = 0; i < read.indices.size(); ++i) {
      const std::int64_t want =
          workload_.dims[static_cast<size_t>(read.indices[i].terms[0].dim)].size;
      const std::int64_t has = workload_.dims[static_cast<size_t>(it->second.dims[i])].size;
      if (want != has)
        m.fail(m.required("residual"), "residual '" + read.tensor + "' has " + std::to_string(has) +
                                           " elements at index " + std::to_string(i + 1) +
                                           ", the output " + std::to_string(want));
    }
  }

  static ParsedEinsum parse_einsum_of(const std::string &op_name, const std::string &text,
                                      const SourceLocation &where) {
    try {
      return parse_einsum(text, where);
    } catch (const UserError &e) {
      throw UserError(e.where(), "op '" + op_name + "': invalid einsum: " + e.message());
    }
  }

  void read_vector_op(const YamlMap &m, Operator &op, bool softmax) {
    if (softmax)
      m.allow_only({"name", "kind", "tensor", "over", "out", "ops_per_element"});
    else
      m.allow_only({"name", "kind", "tensor", "out", "ops_per_element"});
    op.kind = softmax ? OpKind::Softmax : OpKind::Elementwise;
    op.tensor = m.string("tensor");
    const auto source = tensors_.find(op.tensor);
    if (source == tensors_.end() || !source->second.produced)
      m.fail(m.required("tensor"), "tensor '" + op.tensor + "' is not produced by an earlier op");
    const TensorRecord &record = source->second;
    if (softmax)
      op.over_dim = read_over(m, op.tensor, record);
    op.ops_per_element = m.number_or("ops_per_element", softmax ? 4.0 : 1.0, Bound::Positive);
    op.out = m.string("out");
    if (tensors_.count(op.out))
      m.fail(m.required("out"), "out tensor '" + op.out + "' already exists");
    note_produced(op.out, record.rank, record.dims, op.name,
                  location_of(m.required("out"), file_name_));
  }

  int read_over(const YamlMap &m, const std::string &tensor, const TensorRecord &record) const {
    const std::string over = m.string("over");
    const int dim = workload_.dim_index(over);
    if (dim < 0)
      m.fail(m.required("over"), "over names undefined dimension '" + over + "'");
    if (std::find(record.dims.begin(), record.dims.end(), dim) == record.dims.end())
      m.fail(m.required("over"), "dimension '" + over + "' does not index tensor '" + tensor + "'");
    return dim;
  }

  static std::vector<int> output_dims(const TensorAccess &output) {
    std::vector<int> dims;
    for (const IndexExpr &e : output.indices)
      dims.push_back(e.terms[0].dim);
    return dims;
  }

  void note_read(const TensorAccess &in, const std::string &op_name, const SourceLocation &at) {
    const auto [it, inserted] = tensors_.try_emplace(in.tensor);
    TensorRecord &record = it->second;
    if (inserted) {
      record.first_op = op_name;
      record.rank = in.indices.size();
      return;
    }
    if (in.indices.size() != record.rank)
      throw UserError(at, "op '" + op_name + "': tensor '" + in.tensor + "' has " +
                              std::to_string(in.indices.size()) + " indices here but " +
                              std::to_string(record.rank) + " in op '" + record.first_op + "'");
    if (record.produced)
      check_within_producer(in, record, op_name, at);
  }

  /// A read of a produced tensor stays within the extents its producer writes, but for the
  /// padding a negative offset declares (`p+r-1`: zeros around the producer's output); it reads
  /// at least one written position.
  void check_within_producer(const TensorAccess &in, const TensorRecord &record,
                             const std::string &op_name, const SourceLocation &at) const {
    for (size_t i = 0; i < in.indices.size(); ++i) {
      const IndexExpr &index = in.indices[i];
      const std::int64_t first = index.offset;
      const std::int64_t last = first + index_extent(index, workload_.dims) - 1;
      const Dimension &written = workload_.dims[static_cast<size_t>(record.dims[i])];
      if (last < 0 || first >= written.size)
        throw UserError(at, "op '" + op_name + "': index " + std::to_string(i + 1) + " of '" +
                                in.tensor + "' (" + index_text(index, workload_.dims) +
                                ") reads positions " + std::to_string(first) + ".." +
                                std::to_string(last) + ", none of the " +
                                std::to_string(written.size) + " that op '" + record.first_op +
                                "' writes there ('" + written.name + "')");
      if (first >= 0 && last >= written.size)
        throw UserError(at, "op '" + op_name + "': index " + std::to_string(i + 1) + " of '" +
                                in.tensor + "' (" + index_text(index, workload_.dims) + ") " +
                                (first == 0 ? "spans " + std::to_string(last + 1) + " elements"
                                            : "reads positions " + std::to_string(first) + ".." +
                                                  std::to_string(last)) +
                                ", but op '" + record.first_op + "' writes " +
                                std::to_string(written.size) + " there ('" + written.name +
                                "'); a window past the producer's output needs the padding "
                                "written out (`p+r-1` reads a zero on each side)");
    }
  }

  void note_produced(const std::string &tensor, size_t rank, const std::vector<int> &dims,
                     const std::string &op_name, const SourceLocation &at) {
    const auto [it, inserted] = tensors_.try_emplace(tensor);
    TensorRecord &record = it->second;
    if (!inserted && record.produced)
      throw UserError(at, "op '" + op_name + "': tensor '" + tensor +
                              "' is already produced by op '" + record.first_op + "'");
    if (!inserted)
      throw UserError(at, "op '" + op_name + "': tensor '" + tensor + "' is read by op '" +
                              record.first_op + "' before this op produces it");
    record.produced = true;
    record.first_op = op_name;
    record.rank = rank;
    record.dims = dims;
  }

  void check_dims_used() const {
    std::vector<bool> used(workload_.dims.size(), false);
    for (const Operator &op : workload_.ops)
      if (op.kind == OpKind::Einsum)
        for (int d : op.dims())
          used[static_cast<size_t>(d)] = true;
    for (size_t d = 0; d < used.size(); ++d)
      if (!used[d])
        throw UserError(workload_.dims[d].where,
                        "dimension '" + workload_.dims[d].name + "' is not used by any op");
  }

  std::string file_name_;
  Workload workload_;
  std::map<std::string, TensorRecord> tensors_;
  std::set<std::string> op_names_;
};

} // namespace

Workload parse_workload(const std::string &yaml_text, const std::string &file_name) {
  return WorkloadReader(file_name).read(parse_yaml(yaml_text, file_name));
}

Workload load_workload(const std::string &path, std::uint64_t max_input_mib) {
  return parse_workload(read_yaml_file(path, max_input_mib), path);
}

} // namespace dse
