// Reads a Timeloop v0.3 architecture, with energies from its ERT, into a Hardware whose hierarchy
// is counted by Timeloop's conventions. Format:
//
//   architecture:
//     version: 0.3
//     subtree:                           # one tree per level, as Timeloop reads it
//     - name: system                     # the root names the hardware
//       local:                           # components, outermost first
//       - name: DRAM
//         class: DRAM
//         attributes: {word-bits: 16, block-size: 1, shared_bandwidth: 4}
//       subtree:
//       - name: PE[0..255]               # 256 instances of what it holds: a fan-out named PE
//         local:
//         - {name: RegisterFile, class: regfile, attributes: {entries: 16, word-bits: 16,
//            meshX: 16}}
//         - {name: MACC, class: intmac, attributes: {datawidth: 16, meshX: 16}}
//
// A class containing DRAM, SRAM, regfile, smartbuffer or storage is a storage level; one
// containing mac, intmac, fpmac or compute is the compute unit (Timeloop's classification, by
// substring). Storage attributes: word-bits (a multiple of 8 up to 128, equal at every level),
// entries or depth (capacity in words; required on-chip, refused on the outermost level),
// shared_bandwidth, read_bandwidth, write_bandwidth (words per cycle per instance; the deprecated
// bandwidth gives half to reads and half to writes, as in Timeloop), multiple-buffering (1 or 2),
// block-size and cluster-size (1 only), addr-gen-energy (0 only; when it is absent Timeloop adds
// an estimate of its own, which dse does not), meshX, meshY, instances and technology (read by
// Accelergy, ignored here). Compute attributes: datawidth, meshX, meshY, instances, technology.
//
// A subtree named `name[first..last]` multiplies the instances of what it holds and is a fan-out
// `name` between the level above it and its first component, sized by the ratio of their meshes
// (meshX by meshY; without them a component's mesh is its instances by 1, and a missing side is
// the instances divided by the other). Every component of a subtree has the same mesh. An array
// subtree holds a component; the one compute unit is in the innermost subtree.
#include "dse/config/timeloop_loader.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <set>

#include "hierarchy_loader.hpp"
#include "timeloop_ert.hpp"

namespace dse {

namespace {

constexpr std::int64_t kMaxInstances = std::int64_t{1} << 31;
constexpr std::int64_t kMaxWordBits = 128;
constexpr int kMinLevels = 2;

const char *const kStorageClasses[] = {"DRAM", "SRAM", "regfile", "smartbuffer", "storage"};
const char *const kComputeClasses[] = {"mac", "intmac", "fpmac", "compute"};

enum class ComponentKind { Storage, Compute };

/// The instances of a component laid out as a meshX by meshY grid.
struct Mesh {
  std::int64_t x = 1;
  std::int64_t y = 1;
};

std::string mesh_text(const Mesh &mesh) {
  return std::to_string(mesh.x) + " x " + std::to_string(mesh.y);
}

/// A subtree's name split into the fan-out name and the number of instances it makes.
struct ArrayName {
  std::string base;
  std::int64_t count = 1;
};

std::optional<std::int64_t> parse_index(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0)
    return std::nullopt;
  return value;
}

/// The instances `first..last` makes; 0 when `range` is not of that form.
std::int64_t range_count(std::string_view range) {
  const size_t dots = range.find("..");
  if (dots == std::string_view::npos)
    return 0;
  const std::optional<std::int64_t> first = parse_index(range.substr(0, dots));
  const std::optional<std::int64_t> last = parse_index(range.substr(dots + 2));
  return first && last && *last >= *first ? *last - *first + 1 : 0;
}

/// `PE[0..255]` -> {PE, 256}; a name without brackets makes one instance.
ArrayName parse_array_name(const YamlMap &m) {
  const std::string name = m.name("name");
  const size_t open = name.find('[');
  if (open == std::string::npos)
    return ArrayName{name, 1};
  const bool closed = open > 0 && name.back() == ']';
  const std::int64_t count =
      closed ? range_count(std::string_view(name).substr(open + 1, name.size() - open - 2)) : 0;
  if (count == 0)
    m.fail(m.required("name"), "name '" + name + "' must be a plain name or name[first..last]");
  return ArrayName{name.substr(0, open), count};
}

ComponentKind classify(const YamlMap &component) {
  const std::string cls = component.string("class");
  const auto names_class = [&](const char *name) { return cls.find(name) != std::string::npos; };
  if (std::any_of(std::begin(kStorageClasses), std::end(kStorageClasses), names_class))
    return ComponentKind::Storage;
  if (std::any_of(std::begin(kComputeClasses), std::end(kComputeClasses), names_class))
    return ComponentKind::Compute;
  component.fail(component.required("class"),
                 "unknown class '" + cls +
                     "' (expected one naming DRAM, SRAM, regfile, smartbuffer, storage, mac, "
                     "intmac, fpmac or compute)");
}

/// The mesh of a component with `instances` instances, from its attributes.
Mesh read_mesh(const YamlMap &attributes, std::int64_t instances) {
  if (attributes.has("instances") && attributes.integer("instances", 1, kMaxInstances) != instances)
    attributes.fail(attributes.required("instances"),
                    "instances " + attributes.required("instances").Scalar() +
                        " differs from the " + std::to_string(instances) +
                        " instances its subtrees make");
  const bool has_x = attributes.has("meshX");
  const bool has_y = attributes.has("meshY");
  Mesh mesh{has_x ? attributes.integer("meshX", 1, kMaxInstances) : instances,
            has_y ? attributes.integer("meshY", 1, kMaxInstances) : 1};
  if (has_x && has_y && mesh.x * mesh.y != instances)
    attributes.fail(attributes.required("meshY"),
                    "meshX " + std::to_string(mesh.x) + " by meshY " + std::to_string(mesh.y) +
                        " does not make the " + std::to_string(instances) + " instances");
  const std::string_view given = has_y ? "meshY" : "meshX";
  const std::int64_t side = has_y ? mesh.y : mesh.x;
  if (has_x != has_y && instances % side != 0)
    attributes.fail(attributes.required(given), std::string(given) + " " + std::to_string(side) +
                                                    " does not divide the " +
                                                    std::to_string(instances) + " instances");
  if (has_x && !has_y)
    mesh.y = instances / mesh.x;
  if (has_y && !has_x)
    mesh.x = instances / mesh.y;
  return mesh;
}

/// Fails unless the integer under `key`, if given, is 1.
void require_one(const YamlMap &attributes, std::string_view key) {
  if (attributes.has(key) && attributes.integer(key, 0, kMaxInstances) != 1)
    attributes.fail(attributes.required(key),
                    std::string(key) + " must be 1, got " + attributes.required(key).Scalar());
}

class ArchitectureReader {
public:
  ArchitectureReader(const std::string &file_name, EnergyTable &ert)
      : file_name_(file_name), ert_(ert) {}

  Hardware read(const YAML::Node &root) {
    const YamlMap arch = timeloop::top_level(root, file_name_).map("architecture", "architecture");
    arch.allow_only({"version", "subtree"});
    timeloop::check_version(arch, {"0.3"});
    arch.required("subtree");
    read_trees(arch, Scope{});
    check_shape(arch);
    ert_.check_all_claimed();
    hw_.source_file = file_name_;
    hw_.clock_ghz = 1.0; // Timeloop counts cycles; bandwidths are words per cycle
    hw_.word_bytes = *word_bits_ / 8;
    hw_.hierarchy.counting = Counting::Timeloop;
    hw_.hierarchy.first_read_elision = true;
    return std::move(hw_);
  }

private:
  /// What encloses a subtree: its path, the instances of its components and their mesh so far.
  struct Scope {
    std::string path;
    std::int64_t instances = 1;
    Mesh mesh;
  };

  void read_trees(const YamlMap &parent, const Scope &outer) {
    if (!parent.has("subtree"))
      return;
    const YAML::Node &trees = parent.list("subtree");
    if (trees.size() != 1)
      parent.fail(trees, "subtree lists " + std::to_string(trees.size()) +
                             " trees; Timeloop reads exactly one per level");
    read_tree(trees[0], outer);
  }

  void read_tree(const YAML::Node &node, const Scope &outer) {
    const YamlMap unnamed(node, file_name_, "subtree");
    const std::string name = unnamed.name("name");
    const YamlMap tree(node, file_name_, "subtree '" + name + "'");
    tree.allow_only({"name", "local", "subtree", "attributes"});
    if (tree.has("attributes"))
      tree.map("attributes", tree.context()).allow_only({"technology"});
    const ArrayName array = parse_array_name(tree);
    if (hw_.name.empty())
      hw_.name = array.base; // the root subtree names the hardware (files are often arch.yaml)
    if (outer.instances * array.count > kMaxInstances)
      tree.fail(tree.required("name"), "makes " + std::to_string(outer.instances * array.count) +
                                           " instances in all; at most " +
                                           std::to_string(kMaxInstances) + " are supported");
    Scope scope{outer.path.empty() ? name : outer.path + "." + name, outer.instances * array.count,
                outer.mesh};
    const YAML::Node none;
    const YAML::Node &local = tree.has("local") ? tree.list("local") : none;
    if (array.count > 1 && local.size() == 0)
      tree.fail(tree.required("name"), "an array subtree must hold a component (a storage level "
                                       "or the compute unit)");
    const bool had_compute = compute_name_.has_value();
    for (size_t i = 0; i < local.size(); ++i)
      read_component(local[i], tree, i == 0 && array.count > 1 ? &array : nullptr, scope);
    if (!had_compute && compute_name_ && tree.has("subtree"))
      tree.fail(compute_node_,
                "the compute unit '" + *compute_name_ + "' must be in the innermost subtree");
    read_trees(tree, scope);
  }

  /// Reads one local component; `array` is the enclosing array subtree when the component is its
  /// first, which places the subtree's fan-out.
  void read_component(const YAML::Node &node, const YamlMap &tree, const ArrayName *array,
                      Scope &scope) {
    const std::string name = YamlMap(node, file_name_, tree.context() + ", component").name("name");
    const YamlMap component(node, file_name_, "component '" + name + "'");
    component.allow_only({"name", "class", "attributes"});
    if (name.find('[') != std::string::npos)
      component.fail(component.required("name"),
                     "arrays of components are not supported; put the component in a subtree "
                     "named like 'PE[0..255]'");
    const ComponentKind kind = classify(component);
    const YamlMap attributes = component_attributes(component, kind);
    const Mesh mesh = read_mesh(attributes, scope.instances);
    const Mesh ratio = mesh_ratio(attributes, mesh, scope.mesh);
    if (array)
      add_fanout(tree, Fanout{array->base, ratio.x, ratio.y});
    scope.mesh = mesh;
    const std::string path = scope.path + "." + name;
    if (kind == ComponentKind::Storage)
      add_level(component, attributes, path);
    else
      set_compute(component, attributes, path);
  }

  YamlMap component_attributes(const YamlMap &component, ComponentKind kind) const {
    if (kind == ComponentKind::Compute && !component.has("attributes")) {
      YAML::Node empty(YAML::NodeType::Map);
      return YamlMap(empty, file_name_, component.context());
    }
    const YamlMap attributes = component.map("attributes", component.context());
    if (kind == ComponentKind::Storage)
      attributes.allow_only({"word-bits", "entries", "depth", "shared_bandwidth", "read_bandwidth",
                             "write_bandwidth", "bandwidth", "multiple-buffering", "block-size",
                             "cluster-size", "addr-gen-energy", "meshX", "meshY", "instances",
                             "technology"});
    else
      attributes.allow_only({"datawidth", "meshX", "meshY", "instances", "technology"});
    return attributes;
  }

  /// The fan-out between the mesh above and `mesh`: how many times each side grows.
  static Mesh mesh_ratio(const YamlMap &attributes, const Mesh &mesh, const Mesh &above) {
    if (mesh.x % above.x != 0 || mesh.y % above.y != 0)
      attributes.fail(attributes.node(), "its " + mesh_text(mesh) +
                                             " mesh is not a multiple of the " + mesh_text(above) +
                                             " mesh above it");
    return Mesh{mesh.x / above.x, mesh.y / above.y};
  }

  void add_fanout(const YamlMap &tree, Fanout fanout) {
    if (hw_.hierarchy.levels.empty())
      tree.fail(tree.required("name"),
                "an array subtree must be below the outermost storage level");
    claim_name(tree, fanout.name);
    hw_.hierarchy.fanouts.back().push_back(std::move(fanout));
  }

  void claim_name(const YamlMap &m, const std::string &name) {
    if (!names_.insert(name).second)
      m.fail(m.required("name"),
             "the name '" + name + "' is used twice; level and fan-out names must be unique");
  }

  void add_level(const YamlMap &component, const YamlMap &attributes, const std::string &path) {
    require_one(attributes, "block-size");
    require_one(attributes, "cluster-size");
    if (attributes.number_or("addr-gen-energy", 0, Bound::NonNegative) != 0)
      attributes.fail(attributes.required("addr-gen-energy"),
                      "addr-gen-energy must be 0 (dse charges no address generation), got " +
                          attributes.required("addr-gen-energy").Scalar());
    read_word_bits(attributes);
    StorageLevel level;
    level.name = component.string("name");
    claim_name(component, level.name);
    level.capacity_words = read_capacity(attributes);
    read_bandwidths(attributes, level);
    level.double_buffering = read_double_buffering(attributes);
    const StorageEnergies energies = ert_.storage(path, component);
    level.read_pj = energies.read_pj;
    level.fill_pj = energies.fill_pj;
    level.update_pj = energies.update_pj;
    hw_.hierarchy.levels.push_back(std::move(level));
    hw_.hierarchy.fanouts.emplace_back();
  }

  void read_word_bits(const YamlMap &attributes) {
    const std::int64_t bits = attributes.integer("word-bits", 8, kMaxWordBits);
    if (bits % 8 != 0)
      attributes.fail(attributes.required("word-bits"),
                      "word-bits must be a multiple of 8, got " + std::to_string(bits));
    if (word_bits_ && bits != *word_bits_)
      attributes.fail(attributes.required("word-bits"),
                      "word-bits " + std::to_string(bits) + " differs from the " +
                          std::to_string(*word_bits_) + " of '" +
                          hw_.hierarchy.levels.front().name + "' (dse needs one word size)");
    word_bits_ = bits;
  }

  /// Words per instance; none for the outermost level, which is unbounded.
  std::optional<std::int64_t> read_capacity(const YamlMap &attributes) const {
    const int given = (attributes.has("entries") ? 1 : 0) + (attributes.has("depth") ? 1 : 0);
    if (hw_.hierarchy.levels.empty()) {
      if (given > 0)
        attributes.fail(attributes.key_node(attributes.has("entries") ? "entries" : "depth"),
                        "the outermost level is unbounded and takes no entries or depth");
      return std::nullopt;
    }
    if (given != 1)
      attributes.fail(attributes.node(), "an on-chip level needs exactly one of entries or depth "
                                         "(its capacity in words)");
    return attributes.integer(attributes.has("entries") ? "entries" : "depth", 1,
                              kMaxCapacityWords);
  }

  static void read_bandwidths(const YamlMap &attributes, StorageLevel &level) {
    const auto rate = [&](std::string_view key) -> std::optional<double> {
      if (!attributes.has(key))
        return std::nullopt;
      return read_rate(attributes, key, kBandwidthRangeWordsPerCycle);
    };
    level.shared_words_per_cycle = rate("shared_bandwidth");
    if (const std::optional<double> both = rate("bandwidth")) // deprecated: half each way
      level.read_words_per_cycle = level.write_words_per_cycle = *both / 2;
    if (const std::optional<double> read = rate("read_bandwidth"))
      level.read_words_per_cycle = read;
    if (const std::optional<double> write = rate("write_bandwidth"))
      level.write_words_per_cycle = write;
  }

  static bool read_double_buffering(const YamlMap &attributes) {
    const double factor = attributes.number_or("multiple-buffering", 1, Bound::Positive);
    if (factor != 1 && factor != 2)
      attributes.fail(attributes.required("multiple-buffering"),
                      "multiple-buffering must be 1 or 2, got " +
                          attributes.required("multiple-buffering").Scalar());
    return factor == 2;
  }

  void set_compute(const YamlMap &component, const YamlMap &attributes, const std::string &path) {
    if (compute_name_)
      component.fail(component.required("name"), "a second compute unit (the first is '" +
                                                     *compute_name_ +
                                                     "'); dse reads one compute unit per leaf");
    if (attributes.has("datawidth"))
      attributes.integer("datawidth", 1, kMaxWordBits);
    compute_name_ = component.string("name");
    compute_node_ = component.required("name");
    hw_.hierarchy.mac_pj = ert_.mac(path, component);
  }

  void check_shape(const YamlMap &arch) const {
    const int levels = hw_.hierarchy.depth();
    if (levels < kMinLevels || levels > static_cast<int>(kMaxStorageLevels))
      arch.fail_plain(arch.node(), "dse reads 2 to 5 storage levels (the outermost and one to four "
                                   "on-chip levels); the architecture has " +
                                       std::to_string(levels));
    if (!compute_name_)
      arch.fail_plain(arch.node(),
                      "the architecture has no compute unit (a component of class mac, "
                      "intmac, fpmac or compute)");
  }

  std::string file_name_;
  EnergyTable &ert_;
  Hardware hw_;
  std::optional<std::int64_t> word_bits_;
  std::optional<std::string> compute_name_;
  YAML::Node compute_node_;
  std::set<std::string> names_;
};

} // namespace

Hardware parse_timeloop_architecture(const std::string &arch_text, const std::string &arch_file,
                                     const std::string &ert_text, const std::string &ert_file) {
  EnergyTable ert(parse_yaml(ert_text, ert_file), ert_file);
  return ArchitectureReader(arch_file, ert).read(parse_yaml(arch_text, arch_file));
}

Hardware load_timeloop_architecture(const std::string &arch_path, const std::string &ert_path,
                                    std::uint64_t max_input_mib) {
  return parse_timeloop_architecture(read_yaml_file(arch_path, max_input_mib), arch_path,
                                     read_yaml_file(ert_path, max_input_mib), ert_path);
}

} // namespace dse
