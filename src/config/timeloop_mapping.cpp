// Reads a Timeloop mapping into the hierarchical mapping of a workload's one einsum. Format:
//
//   mapping:
//   - {target: RegisterFile, type: datatype, keep: [Z], bypass: [A, B]}
//   - {target: RegisterFile, type: temporal, factors: M1 N2 K8, permutation: KMN}
//   - {target: GlobalBuffer, type: spatial, factors: M16 N16 K1, permutation: NMK, split: 1}
//   - {target: GlobalBuffer, type: temporal, factors: M1 N1 K32, permutation: MKN}
//   - {target: DRAM, type: temporal, factors: M16 N8 K1, permutation: KNM}
//
// Targets are storage levels, each with at most one entry of each type. `temporal`: the trip
// counts of the level's loops (`M8` or `M=8`; a missing dimension is 1) and their permutation,
// innermost first, padded outside with the dimensions it leaves out, in problem order (as Timeloop
// pads it); dse stores the order outer to inner. `spatial`: the factors of the fan-out below the
// target; the first `split` dimensions of the padded permutation go on the fan-out's x axis, the
// others on y (no split: all on x). `datatype`: tensors the level keeps and bypasses; a level keeps
// what no entry bypasses (Timeloop's default), and the outermost level keeps everything. The
// factors of each dimension multiply to its size exactly, and the spatial factors on each axis fit
// the fan-out.
#include "dse/config/timeloop_loader.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>

#include "timeloop_yaml.hpp"

namespace dse {

namespace {

/// Products of factors saturate here, far above any dimension size, so that they never overflow.
constexpr std::int64_t kProductCap = std::int64_t{1} << 62;

std::int64_t capped_product(std::int64_t a, std::int64_t b) {
  return b != 0 && a > kProductCap / b ? kProductCap : std::min(a * b, kProductCap);
}

std::string product_text(std::int64_t product) {
  return product < kProductCap ? std::to_string(product) : "at least 2^62";
}

/// One word of a `factors` string, with its position in the string.
struct Token {
  std::string text;
  int offset = 0;
};

std::vector<Token> split_words(const std::string &text) {
  std::vector<Token> words;
  for (size_t i = 0; i < text.size();) {
    if (std::isspace(static_cast<unsigned char>(text[i]))) {
      ++i;
      continue;
    }
    const size_t end = std::min(text.find_first_of(" \t\n", i), text.size());
    words.push_back(Token{text.substr(i, end - i), static_cast<int>(i)});
    i = end;
  }
  return words;
}

/// `M8` or `M=8` -> {"M", 8}; nothing when the word is not of that form.
std::optional<std::pair<std::string, std::int64_t>> parse_factor(const std::string &word) {
  const auto letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const size_t letters =
      static_cast<size_t>(std::find_if_not(word.begin(), word.end(), letter) - word.begin());
  const size_t digits = letters + (letters < word.size() && word[letters] == '=' ? 1 : 0);
  std::int64_t value = 0;
  const char *end = word.data() + word.size();
  const auto [stop, ec] = std::from_chars(word.data() + digits, end, value);
  if (letters == 0 || ec != std::errc() || stop != end || value < 1 || value > kMaxDimensionSize)
    return std::nullopt;
  return std::make_pair(word.substr(0, letters), value);
}

class MappingReader {
public:
  MappingReader(const std::string &file_name, const Hardware &hw, const Workload &workload)
      : file_name_(file_name), hierarchy_(hw.hierarchy), workload_(workload),
        factor_at_(workload.dims.size()) {}

  OpMapping read(const YAML::Node &root) {
    const YamlMap top = timeloop::top_level(root, file_name_);
    const YAML::Node &entries = top.list("mapping");
    if (workload_.ops.size() != 1 || workload_.ops.front().kind != OpKind::Einsum)
      top.fail(entries, "workload '" + workload_.name +
                            "' is not one einsum (a Timeloop mapping maps a single einsum)");
    tensor_names_ = tensor_names(workload_.ops.front().einsum);
    start_mapping();
    for (size_t i = 0; i < entries.size(); ++i)
      read_entry(YamlMap(entries[i], file_name_, "mapping[" + std::to_string(i) + "]"));
    check_products(entries);
    return std::move(mapping_);
  }

private:
  /// The einsum's tensors as the hierarchical model indexes them: inputs in order, then output.
  static std::vector<std::string> tensor_names(const Einsum &einsum) {
    std::vector<std::string> names;
    for (const TensorAccess &input : einsum.inputs)
      names.push_back(input.tensor);
    names.push_back(einsum.output.tensor);
    return names;
  }

  /// Every factor 1, every level keeping every tensor.
  void start_mapping() {
    const size_t dims = workload_.dims.size();
    const std::uint32_t all = (std::uint32_t{1} << tensor_names_.size()) - 1;
    mapping_.levels.assign(hierarchy_.levels.size(),
                           LevelMapping{{}, std::vector<std::int64_t>(dims, 1), all});
    for (const std::vector<Fanout> &fanouts : hierarchy_.fanouts)
      mapping_.fanouts.emplace_back(
          fanouts.size(),
          FanoutMapping{std::vector<std::int64_t>(dims, 1), std::vector<std::int64_t>(dims, 1)});
  }

  void read_entry(const YamlMap &entry) {
    const std::string type = entry.string("type");
    if (type == "temporal")
      entry.allow_only({"target", "type", "factors", "permutation"});
    else if (type == "spatial")
      entry.allow_only({"target", "type", "factors", "permutation", "split"});
    else if (type == "datatype")
      entry.allow_only({"target", "type", "keep", "bypass"});
    else
      entry.fail_plain(entry.required("type"),
                       "type must be temporal, spatial or datatype, got '" + type + "'");
    const int level = target_level(entry);
    const auto [first, inserted] = entries_.try_emplace({type, level}, entry.node());
    if (!inserted)
      entry.fail_plain(entry.required("target"),
                       "a second " + type + " entry for '" + entry.string("target") +
                           "' (the first is at line " +
                           std::to_string(location_of(first->second, file_name_).line) + ")");
    if (type == "temporal")
      read_temporal(entry, level);
    else if (type == "spatial")
      read_spatial(entry, level);
    else
      read_datatype(entry, level);
  }

  int target_level(const YamlMap &entry) const {
    const std::string target = entry.string("target");
    const int level = hierarchy_.level_index(target);
    if (level < 0) {
      std::vector<std::string> names;
      for (const StorageLevel &l : hierarchy_.levels)
        names.push_back(l.name);
      entry.fail_plain(entry.required("target"), "unknown target '" + target + "' (levels: " +
                                                     timeloop::name_sequence(names, "and") + ")");
    }
    return level;
  }

  void read_temporal(const YamlMap &entry, int level) {
    LevelMapping &block = mapping_.levels[static_cast<size_t>(level)];
    block.factor = read_factors(entry, 2 * level);
    const std::vector<int> permutation = read_permutation(entry);
    for (auto d = permutation.rbegin(); d != permutation.rend(); ++d)
      if (block.factor[static_cast<size_t>(*d)] > 1)
        block.order.push_back(*d);
  }

  void read_spatial(const YamlMap &entry, int level) {
    const std::vector<Fanout> &fanouts = hierarchy_.fanouts[static_cast<size_t>(level)];
    if (fanouts.size() != 1)
      entry.fail_plain(entry.required("target"), std::to_string(fanouts.size()) +
                                                     " fan-outs below '" + entry.string("target") +
                                                     "'; a spatial entry maps exactly one");
    const std::vector<std::int64_t> factors = read_factors(entry, 2 * level + 1);
    const std::vector<int> permutation = read_permutation(entry);
    const auto dims = static_cast<std::int64_t>(workload_.dims.size());
    const std::int64_t split = entry.integer_or("split", dims, 0, dims);
    FanoutMapping &spatial = mapping_.fanouts[static_cast<size_t>(level)].front();
    for (size_t i = 0; i < permutation.size(); ++i) {
      const auto d = static_cast<size_t>(permutation[i]);
      (static_cast<std::int64_t>(i) < split ? spatial.x : spatial.y)[d] = factors[d];
    }
    check_fits(entry, spatial.x, fanouts.front().x, "x", fanouts.front().name);
    check_fits(entry, spatial.y, fanouts.front().y, "y", fanouts.front().name);
  }

  static void check_fits(const YamlMap &entry, const std::vector<std::int64_t> &factors,
                         std::int64_t side, const std::string &axis, const std::string &fanout) {
    std::int64_t product = 1;
    for (std::int64_t f : factors)
      product = capped_product(product, f);
    if (product > side)
      entry.fail_plain(entry.required("factors"),
                       "spatial factors on " + axis + " multiply to " + product_text(product) +
                           "; fan-out '" + fanout + "' has " + axis + " = " + std::to_string(side));
  }

  void read_datatype(const YamlMap &entry, int level) {
    std::uint32_t &keep = mapping_.levels[static_cast<size_t>(level)].keep;
    std::vector<std::string> listed;
    for (std::string_view key : {"keep", "bypass"}) {
      if (!entry.has(key))
        continue;
      for (const timeloop::Named &tensor : timeloop::name_list(entry, key)) {
        const std::uint32_t bit = std::uint32_t{1} << tensor_index(entry, tensor);
        if (std::find(listed.begin(), listed.end(), tensor.name) != listed.end())
          entry.fail_plain(tensor.node, "tensor '" + tensor.name + "' is listed twice");
        listed.push_back(tensor.name);
        if (key == "keep") {
          keep |= bit;
          continue;
        }
        if (level == 0)
          entry.fail_plain(tensor.node,
                           "the outermost level keeps every tensor; it cannot bypass '" +
                               tensor.name + "'");
        keep &= ~bit;
      }
    }
  }

  size_t tensor_index(const YamlMap &entry, const timeloop::Named &tensor) const {
    const auto at = std::find(tensor_names_.begin(), tensor_names_.end(), tensor.name);
    if (at == tensor_names_.end())
      entry.fail_plain(tensor.node, "unknown tensor '" + tensor.name + "' (the problem has " +
                                        timeloop::name_sequence(tensor_names_, "and") + ")");
    return static_cast<size_t>(at - tensor_names_.begin());
  }

  /// Factors per workload dimension (1 where the string has none). `rank` orders entries outer
  /// to inner, to locate a product error at the outermost factor of its dimension.
  std::vector<std::int64_t> read_factors(const YamlMap &entry, int rank) {
    std::vector<std::int64_t> factors(workload_.dims.size(), 1);
    if (!entry.has("factors"))
      return factors;
    const YAML::Node &value = entry.required("factors");
    std::vector<bool> given(factors.size(), false);
    for (const Token &word : split_words(entry.string("factors"))) {
      const SourceLocation at = timeloop::char_location(value, file_name_, word.offset);
      const auto factor = parse_factor(word.text);
      if (!factor)
        throw UserError(at, "malformed factor '" + word.text +
                                "' (expected a dimension and a positive integer, as in M4)");
      const auto d = static_cast<size_t>(dimension(at, factor->first, "factors"));
      if (given[d])
        throw UserError(at, "dimension '" + factor->first + "' appears twice in factors");
      given[d] = true;
      factors[d] = factor->second;
      if (!factor_at_[d] || rank < factor_at_[d]->first)
        factor_at_[d] = std::make_pair(rank, at);
    }
    return factors;
  }

  /// The permutation innermost first, padded outside with the dimensions it leaves out.
  std::vector<int> read_permutation(const YamlMap &entry) const {
    std::vector<int> permutation;
    const std::string text = entry.has("permutation") ? entry.string("permutation") : "";
    for (size_t i = 0; i < text.size(); ++i) {
      if (std::isspace(static_cast<unsigned char>(text[i])))
        continue;
      const SourceLocation at =
          timeloop::char_location(entry.required("permutation"), file_name_, static_cast<int>(i));
      const int d = dimension(at, std::string(1, text[i]), "permutation");
      if (std::find(permutation.begin(), permutation.end(), d) != permutation.end())
        throw UserError(at,
                        "dimension '" + std::string(1, text[i]) + "' appears twice in permutation");
      permutation.push_back(d);
    }
    for (int d = 0; d < static_cast<int>(workload_.dims.size()); ++d)
      if (std::find(permutation.begin(), permutation.end(), d) == permutation.end())
        permutation.push_back(d);
    return permutation;
  }

  int dimension(const SourceLocation &at, const std::string &name, const std::string &key) const {
    const int d = workload_.dim_index(name);
    if (d >= 0)
      return d;
    std::vector<std::string> names;
    for (const Dimension &dim : workload_.dims)
      names.push_back(dim.name);
    throw UserError(at, "unknown dimension '" + name + "' in " + key + " (the problem has " +
                            timeloop::name_sequence(names, "and") + ")");
  }

  /// Every dimension's factors, temporal and spatial, multiply to its size.
  void check_products(const YAML::Node &entries) const {
    for (size_t d = 0; d < workload_.dims.size(); ++d) {
      std::int64_t product = 1;
      for (const LevelMapping &block : mapping_.levels)
        product = capped_product(product, block.factor[d]);
      for (const std::vector<FanoutMapping> &gap : mapping_.fanouts)
        for (const FanoutMapping &spatial : gap)
          product = capped_product(capped_product(product, spatial.x[d]), spatial.y[d]);
      const Dimension &dim = workload_.dims[d];
      if (product == dim.size)
        continue;
      const SourceLocation at =
          factor_at_[d] ? factor_at_[d]->second : location_of(entries, file_name_);
      throw UserError(at, "factors of " + dim.name + " multiply to " + product_text(product) +
                              "; the problem has " + dim.name + " = " + std::to_string(dim.size) +
                              " (imperfect factorisation is not supported)");
    }
  }

  std::string file_name_;
  const Hierarchy &hierarchy_;
  const Workload &workload_;
  std::vector<std::string> tensor_names_;
  OpMapping mapping_;
  /// The first entry of each (type, level), for duplicate errors.
  std::map<std::pair<std::string, int>, YAML::Node> entries_;
  /// Per dimension, the outermost factor given for it (entry rank and location).
  std::vector<std::optional<std::pair<int, SourceLocation>>> factor_at_;
};

} // namespace

OpMapping parse_timeloop_mapping(const std::string &yaml_text, const std::string &file_name,
                                 const Hardware &hw, const Workload &workload) {
  return MappingReader(file_name, hw, workload).read(parse_yaml(yaml_text, file_name));
}

OpMapping load_timeloop_mapping(const std::string &path, const Hardware &hw,
                                const Workload &workload, std::uint64_t max_input_mib) {
  return parse_timeloop_mapping(read_yaml_file(path, max_input_mib), path, hw, workload);
}

} // namespace dse
