// Reads a Timeloop v0.3 problem into a Workload of one einsum. Format:
//
//   problem:
//     shape:
//       name: GEMM                          # names the workload and its einsum
//       dimensions: [M, N, K]               # one letter each, as Timeloop's permutations need
//       coefficients: [{name: Wstride, default: 1}]      # optional
//       data-spaces:                        # operands in order, and the one read-write output
//       - {name: A, projection: [[[M]], [[K]]]}
//       - name: Z
//         projection:                       # one index per rank: a sum of terms [dim] or
//         - [[M]]                           # [dim, coefficient] (a bare dimension may also be
//         - [[N]]                           # written alone: projection: [M, N])
//         read-write: True
//     instance: {M: 256, N: 256, K: 256}    # sizes 1..2^31-1; coefficient values override
//
// The read-write data space is the output (bare dimensions only, each indexing an operand); the
// others, one or two, are the operands. Every dimension indexes a data space; no dimension repeats
// in one data space; no data space spans more than 2^50 elements. Densities are refused: dse
// models dense tensors.
#include "dse/config/timeloop_loader.hpp"

#include <algorithm>
#include <cctype>

#include "einsum_binding.hpp"
#include "timeloop_yaml.hpp"

namespace dse {

namespace {

/// The largest coefficient, as for einsum strings (below 2^31).
constexpr std::int64_t kMaxCoefficient = kMaxDimensionSize;

struct Coefficient {
  std::string name;
  std::int64_t value = 1;
};

/// A data space as read, before it is placed as the output or an operand.
struct DataSpace {
  TensorAccess access;
  YAML::Node projection;
  YamlMap map;
  bool read_write = false;
};

class ProblemReader {
public:
  explicit ProblemReader(const std::string &file_name) : file_name_(file_name) {}

  Workload read(const YAML::Node &root) {
    const YamlMap problem = timeloop::top_level(root, file_name_).map("problem", "problem");
    problem.allow_only({"shape", "instance"});
    const YamlMap shape = problem.map("shape", "shape");
    shape.allow_only({"name", "dimensions", "coefficients", "data-spaces"});
    workload_.name = shape.name("name");
    workload_.source_file = file_name_;
    read_dimensions(shape);
    if (shape.has("coefficients"))
      read_coefficients(shape);
    read_instance(problem.map("instance", "instance"));
    Operator op;
    op.name = workload_.name;
    op.kind = OpKind::Einsum;
    op.where = shape.where();
    op.einsum = read_einsum(shape);
    workload_.ops.push_back(std::move(op));
    check_dimensions_used();
    return std::move(workload_);
  }

private:
  void read_dimensions(const YamlMap &shape) {
    for (const timeloop::Named &dim : timeloop::name_list(shape, "dimensions")) {
      const bool letter =
          dim.name.size() == 1 && std::isalpha(static_cast<unsigned char>(dim.name[0]));
      if (!letter)
        shape.fail(dim.node, "dimension name '" + dim.name +
                                 "' must be one letter (Timeloop spells permutations one letter "
                                 "per dimension)");
      if (workload_.dim_index(dim.name) >= 0)
        shape.fail(dim.node, "duplicate dimension '" + dim.name + "'");
      workload_.dims.push_back(Dimension{dim.name, 1, location_of(dim.node, file_name_)});
    }
    if (workload_.dims.empty())
      shape.fail(shape.required("dimensions"), "dimensions must list at least one dimension");
  }

  void read_coefficients(const YamlMap &shape) {
    for (const YAML::Node &node : shape.list("coefficients")) {
      const YamlMap m(node, file_name_, "coefficient");
      m.allow_only({"name", "default"});
      Coefficient coefficient{m.name("name"), m.integer("default", 1, kMaxCoefficient)};
      if (coefficient_index(coefficient.name) >= 0 || workload_.dim_index(coefficient.name) >= 0)
        m.fail(m.required("name"), "the name '" + coefficient.name + "' is used twice");
      coefficients_.push_back(std::move(coefficient));
    }
  }

  void read_instance(const YamlMap &instance) {
    for (std::string_view key : {"densities", "commonDensity"})
      if (instance.has(key))
        instance.fail(instance.key_node(key),
                      "key '" + std::string(key) + "' is not supported: dse models dense tensors");
    std::vector<std::string> allowed;
    for (const Dimension &dim : workload_.dims)
      allowed.push_back(dim.name);
    for (const Coefficient &coefficient : coefficients_)
      allowed.push_back(coefficient.name);
    timeloop::allow_only_names(instance, allowed);
    for (Dimension &dim : workload_.dims)
      dim.size = instance.integer(dim.name, 1, kMaxDimensionSize);
    for (Coefficient &coefficient : coefficients_)
      coefficient.value =
          instance.integer_or(coefficient.name, coefficient.value, 1, kMaxCoefficient);
  }

  Einsum read_einsum(const YamlMap &shape) const {
    const YAML::Node &list = shape.list("data-spaces");
    std::vector<DataSpace> spaces;
    for (const YAML::Node &node : list) {
      spaces.push_back(read_data_space(node));
      const std::string &name = spaces.back().access.tensor;
      for (size_t i = 0; i + 1 < spaces.size(); ++i)
        if (spaces[i].access.tensor == name)
          shape.fail(spaces.back().map.required("name"), "duplicate data space '" + name + "'");
    }
    Einsum einsum;
    const DataSpace *output = nullptr;
    for (const DataSpace &space : spaces) {
      if (!space.read_write) {
        einsum.inputs.push_back(space.access);
        continue;
      }
      if (output)
        space.map.fail(space.map.required("read-write"),
                       "a second read-write data space (the first is '" + output->access.tensor +
                           "'); dse reads one output");
      output = &space;
    }
    if (!output)
      shape.fail(list, "no read-write data space (the einsum's output)");
    if (einsum.inputs.empty() || einsum.inputs.size() > 2)
      shape.fail(list, std::to_string(einsum.inputs.size()) +
                           " read-only data spaces; dse reads one or two (the einsum's operands)");
    check_output(*output, einsum.inputs);
    einsum.output = output->access;
    return einsum;
  }

  DataSpace read_data_space(const YAML::Node &node) const {
    const std::string name = YamlMap(node, file_name_, "data space").name("name");
    DataSpace space{{}, {}, YamlMap(node, file_name_, "data space '" + name + "'"), false};
    space.map.allow_only({"name", "projection", "read-write"});
    space.read_write = space.map.boolean_or("read-write", false);
    space.projection = space.map.list("projection");
    space.access.tensor = name;
    std::vector<int> seen;
    for (const YAML::Node &index : space.projection)
      space.access.indices.push_back(read_index(space, index, seen));
    check_size(space);
    return space;
  }

  /// One rank's index: a bare dimension, or a list of terms [dim] or [dim, coefficient].
  IndexExpr read_index(const DataSpace &space, const YAML::Node &index,
                       std::vector<int> &seen) const {
    if (index.IsScalar())
      return IndexExpr{{IndexTerm{dimension(space, index, seen), 1}}};
    if (!index.IsSequence() || index.size() == 0)
      space.map.fail(index, "an index must be a dimension or a list of terms [dim] or [dim, "
                            "coefficient], got " +
                                describe(index));
    IndexExpr expr;
    for (const YAML::Node &term : index) {
      if (!term.IsSequence() || term.size() == 0 || term.size() > 2)
        space.map.fail(term, "a term must be [dim] or [dim, coefficient], got " + describe(term));
      const int dim = dimension(space, term[0], seen);
      expr.terms.push_back(IndexTerm{dim, term.size() == 2 ? coefficient(space, term[1]) : 1});
    }
    return expr;
  }

  /// The dimension named by `node`, which no earlier term of the data space (`seen`) names.
  int dimension(const DataSpace &space, const YAML::Node &node, std::vector<int> &seen) const {
    const std::string name = space.map.string_value(node, "projection");
    const int dim = workload_.dim_index(name);
    if (dim < 0)
      space.map.fail(node, "unknown dimension '" + name + "' (the problem has " +
                               timeloop::name_sequence(dimension_names(), "and") + ")");
    if (std::find(seen.begin(), seen.end(), dim) != seen.end())
      space.map.fail(node, "dimension '" + name + "' repeats in one data space");
    seen.push_back(dim);
    return dim;
  }

  std::int64_t coefficient(const DataSpace &space, const YAML::Node &node) const {
    const std::string name = space.map.string_value(node, "projection");
    const int index = coefficient_index(name);
    if (index < 0)
      space.map.fail(node, "unknown coefficient '" + name + "'");
    return coefficients_[static_cast<size_t>(index)].value;
  }

  int coefficient_index(const std::string &name) const {
    for (size_t i = 0; i < coefficients_.size(); ++i)
      if (coefficients_[i].name == name)
        return static_cast<int>(i);
    return -1;
  }

  std::vector<std::string> dimension_names() const {
    std::vector<std::string> names;
    for (const Dimension &dim : workload_.dims)
      names.push_back(dim.name);
    return names;
  }

  void check_size(const DataSpace &space) const {
    if (!access_within_element_limit(space.access, workload_.dims))
      too_large(space);
  }

  [[noreturn]] static void too_large(const DataSpace &space) {
    space.map.fail(space.map.required("projection"),
                   "more than " + std::to_string(kMaxTensorElements) + " (2^50) elements");
  }

  void check_output(const DataSpace &output, const std::vector<TensorAccess> &inputs) const {
    for (size_t i = 0; i < output.access.indices.size(); ++i) {
      const IndexExpr &expr = output.access.indices[i];
      const YAML::Node &at = output.projection[i];
      if (!expr.is_plain())
        output.map.fail(at, "the output's index " + std::to_string(i + 1) +
                                " must be a bare dimension");
      const int dim = expr.terms[0].dim;
      const auto reads = [dim](const TensorAccess &in) { return in.uses(dim); };
      if (std::none_of(inputs.begin(), inputs.end(), reads))
        output.map.fail(at, "output dimension '" + workload_.dims[static_cast<size_t>(dim)].name +
                                "' indexes no read-only data space");
    }
  }

  void check_dimensions_used() const {
    const TensorAccess &output = workload_.ops.front().einsum.output;
    const std::vector<TensorAccess> &inputs = workload_.ops.front().einsum.inputs;
    for (size_t d = 0; d < workload_.dims.size(); ++d) {
      const int dim = static_cast<int>(d);
      const auto uses = [dim](const TensorAccess &in) { return in.uses(dim); };
      if (!output.uses(dim) && std::none_of(inputs.begin(), inputs.end(), uses))
        throw UserError(workload_.dims[d].where,
                        "dimension '" + workload_.dims[d].name + "' indexes no data space");
    }
  }

  std::string file_name_;
  Workload workload_;
  std::vector<Coefficient> coefficients_;
};

} // namespace

Workload parse_timeloop_problem(const std::string &yaml_text, const std::string &file_name) {
  return ProblemReader(file_name).read(parse_yaml(yaml_text, file_name));
}

Workload load_timeloop_problem(const std::string &path, std::uint64_t max_input_mib) {
  return parse_timeloop_problem(read_yaml_file(path, max_input_mib), path);
}

} // namespace dse
