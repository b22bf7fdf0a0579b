// A memory hierarchy of any depth as plain data: storage levels, outermost first, and the spatial
// fan-outs between them (docs/HIERARCHY.md §2.3), and the mapspace constraints that restrict the
// search on it (§2.2). Config builds it from either spelling of a hardware file or from a Timeloop
// architecture; the hierarchical model and search read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dse/support/error.hpp"

namespace dse {

/// Which cost model counts the traffic: today's one-level model (docs/DESIGN.md §4.2) or the
/// per-level conventions of docs/HIERARCHY.md §4.
enum class Counting { Legacy, Timeloop };

/// Roles of the tensors of an operator, as bits of StorageLevel::holds.
namespace role {
constexpr std::uint8_t kOutput = 1;
constexpr std::uint8_t kOperand0 = 2;
constexpr std::uint8_t kOperand1 = 4;
constexpr std::uint8_t kIntermediate = 8;
constexpr std::uint8_t kAll = kOutput | kOperand0 | kOperand1 | kIntermediate;
} // namespace role

/// One storage level. Capacities and bandwidths are per instance; energies are pJ per word and
/// action.
struct StorageLevel {
  std::string name;
  /// Words per instance; empty for level 0 (the unbounded backing store).
  std::optional<std::int64_t> capacity_words;
  /// Words per cycle per instance; an empty limit is unlimited. The shared limit covers reads,
  /// fills and updates together; the read port carries reads, the write port fills and updates.
  std::optional<double> shared_words_per_cycle;
  std::optional<double> read_words_per_cycle;
  std::optional<double> write_words_per_cycle;
  double read_pj = 0.0;
  double fill_pj = 0.0;
  double update_pj = 0.0;
  bool double_buffering = false;
  /// Roles (role::k*) the level may hold.
  std::uint8_t holds = role::kAll;

  bool operator==(const StorageLevel &) const = default;
};

/// A spatial fan-out: `x * y` children per parent instance.
struct Fanout {
  std::string name;
  std::int64_t x = 1;
  std::int64_t y = 1;
  /// One read at the parent serves every child that needs the same word.
  bool multicast = true;
  /// Partial sums of children that differ only in reduction dimensions are added in the network.
  bool reduction = true;

  std::int64_t size() const { return x * y; }

  bool operator==(const Fanout &) const = default;
};

/// A dimension or tensor name of a mapspace constraint, checked against each workload searched.
struct MapspaceName {
  std::string name;
  SourceLocation where;

  bool operator==(const MapspaceName &) const = default;
};

/// One entry of the hardware file's `mapspace` list (docs/HIERARCHY.md §2.2). A rule on a level
/// uses the level keys, one on a fan-out the fan-out keys; names a workload's operator does not
/// have do not restrict that operator.
struct MapspaceRule {
  bool on_level = true; // else on a fan-out
  /// The level's index, or the fan-out's place: Hierarchy::fanouts[gap][fanout].
  int level = 0;
  int fanout = 0;
  SourceLocation where;

  // A level. Keep and bypass name roles (role::k*) or tensors; unnamed tensors are free.
  std::uint8_t keep_roles = 0;
  std::uint8_t bypass_roles = 0;
  std::vector<MapspaceName> keep_tensors;
  std::vector<MapspaceName> bypass_tensors;
  /// Fixed temporal factors of the level's block (1: no loop of the dimension there).
  std::vector<std::pair<MapspaceName, std::int64_t>> factors;
  /// Relative order, outermost first, of the listed dimensions where they loop.
  std::vector<MapspaceName> order;

  // A fan-out. An absent axis list allows every dimension on that axis.
  std::optional<std::vector<MapspaceName>> x;
  std::optional<std::vector<MapspaceName>> y;
  bool one_axis_per_dim = false;
  /// Least share of the fan-out's x * y units that the spatial factors use.
  double min_utilisation = 0.0;

  bool operator==(const MapspaceRule &) const = default;
};

/// The most storage levels a hierarchy has: the backing store and up to four on-chip levels.
constexpr size_t kMaxStorageLevels = 5;

/// The whole hierarchy: levels[0] is the backing store (DRAM); fanouts[l] lists the fan-outs
/// below levels[l] and above levels[l + 1], outermost first (fanouts.back(): above the compute
/// units). fanouts.size() == levels.size().
struct Hierarchy {
  std::vector<StorageLevel> levels;
  std::vector<std::vector<Fanout>> fanouts;
  /// Energy per MAC (or per FMA on a vector target).
  double mac_pj = 0.0;
  bool vector = false;
  Counting counting = Counting::Timeloop;
  bool first_read_elision = true;
  /// Search constraints, at most one per level or fan-out, in file order.
  std::vector<MapspaceRule> mapspace;

  int depth() const { return static_cast<int>(levels.size()); }
  /// Instances of level `level`: the product of the fan-out sizes above it.
  std::int64_t instances(int level) const;
  /// Compute units: the product of every fan-out size.
  std::int64_t compute_units() const;
  /// Index of the level named `name`, or -1.
  int level_index(const std::string &name) const;

  bool operator==(const Hierarchy &) const = default;
};

} // namespace dse
