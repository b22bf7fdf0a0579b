// Internal to src/config: a Timeloop energy reference table (the `ERT` section Accelergy writes),
// its tables claimed by the architecture's components by path, and the energy of each action
// dse counts, by Timeloop's priorities among action names.
#pragma once

#include <string>
#include <vector>

#include "timeloop_yaml.hpp"

namespace dse {

/// pJ per word of each action of a storage level.
struct StorageEnergies {
  double read_pj = 0;
  double fill_pj = 0;
  double update_pj = 0;
};

class EnergyTable {
public:
  /// Reads the `ERT` section of `root`.
  EnergyTable(const YAML::Node &root, const std::string &file_name);

  /// The energies of the storage component at architecture path `path` (`system.chip.PE[0..255]
  /// .RegisterFile`); `component` locates the component for the error when no table has its path.
  StorageEnergies storage(const std::string &path, const YamlMap &component);
  /// pJ per MAC of the compute component at `path`.
  double mac(const std::string &path, const YamlMap &component);
  /// Fails at the first table that no component claimed.
  void check_all_claimed() const;

private:
  struct Action {
    std::string name;
    double energy_pj = 0;
    YAML::Node node;
  };
  struct Table {
    std::string path;
    YAML::Node name_node;
    YamlMap map;
    std::vector<Action> actions;
    bool claimed = false;
  };

  Table read_table(const YAML::Node &node) const;
  void add_action(Table &table, const YAML::Node &node) const;
  /// The table of the component at `path`, marked claimed; its actions must be among `allowed`,
  /// and those among `free_actions` must cost 0.
  Table &claim(const std::string &path, const YamlMap &component,
               const std::vector<std::string> &allowed,
               const std::vector<std::string> &free_actions);
  double energy(const Table &table, const std::vector<std::string> &priority,
                const std::string &what) const;

  std::string file_name_;
  std::vector<Table> tables_;
};

} // namespace dse
