// Reads a Timeloop energy reference table and gives each component the energy of the actions dse
// counts. Format (version 0.3 or 0.4, as Accelergy writes it):
//
//   ERT:
//     version: 0.3
//     tables:
//     - name: system.chip.GlobalBuffer          # the component's path in the architecture
//       actions:
//       - {name: read, energy: 6.0}             # pJ; `arguments` may tell variants apart
//       - {name: write, energy: 6.0}
//
// Actions, first found in each list (Timeloop's priorities): read <- random_read, read; fill <-
// random_fill, random_write, fill, write; update <- random_update, random_write, update, write;
// MAC <- mac_random, mult_random, mac, mult, compute. `idle` and `leak` (and `mac_gated`,
// `mac_skipped` of a compute unit) must cost 0: dse models no idle, leakage, gated or skipped
// energy. Variants of one action (different `arguments`) must cost the same.
#include "timeloop_ert.hpp"

#include <algorithm>

#include "hierarchy_loader.hpp"

namespace dse {

namespace {

const std::vector<std::string> kReadActions{"random_read", "read"};
const std::vector<std::string> kFillActions{"random_fill", "random_write", "fill", "write"};
const std::vector<std::string> kUpdateActions{"random_update", "random_write", "update", "write"};
const std::vector<std::string> kMacActions{"mac_random", "mult_random", "mac", "mult", "compute"};
const std::vector<std::string> kStorageFreeActions{"idle", "leak"};
const std::vector<std::string> kComputeFreeActions{"idle", "leak", "mac_gated", "mac_skipped"};

bool contains(const std::vector<std::string> &names, const std::string &name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The names of `lists`, each once, in order.
std::vector<std::string> merged(std::initializer_list<std::vector<std::string>> lists) {
  std::vector<std::string> names;
  for (const std::vector<std::string> &list : lists)
    for (const std::string &name : list)
      if (!contains(names, name))
        names.push_back(name);
  return names;
}

} // namespace

EnergyTable::EnergyTable(const YAML::Node &root, const std::string &file_name)
    : file_name_(file_name) {
  const YamlMap ert = timeloop::top_level(root, file_name).map("ERT", "ERT");
  ert.allow_only({"version", "tables"});
  timeloop::check_version(ert, {"0.3", "0.4"});
  for (const YAML::Node &node : ert.list("tables")) {
    Table table = read_table(node);
    const auto same_path = [&](const Table &t) { return t.path == table.path; };
    if (std::any_of(tables_.begin(), tables_.end(), same_path))
      table.map.fail_plain(table.name_node, "duplicate ERT table '" + table.path + "'");
    tables_.push_back(std::move(table));
  }
}

EnergyTable::Table EnergyTable::read_table(const YAML::Node &node) const {
  const YamlMap unnamed(node, file_name_, "ERT table");
  const std::string path = unnamed.name("name");
  Table table{path,
              unnamed.required("name"),
              YamlMap(node, file_name_, "ERT table '" + path + "'"),
              {},
              false};
  table.map.allow_only({"name", "actions"});
  for (const YAML::Node &action : table.map.list("actions"))
    add_action(table, action);
  return table;
}

void EnergyTable::add_action(Table &table, const YAML::Node &node) const {
  const YamlMap m(node, file_name_, table.map.context() + ", action");
  m.allow_only({"name", "energy", "arguments"});
  const Action action{m.name("name"), read_energy(m, "energy"), node};
  const auto same_name = [&](const Action &a) { return a.name == action.name; };
  const auto earlier = std::find_if(table.actions.begin(), table.actions.end(), same_name);
  if (earlier == table.actions.end()) {
    table.actions.push_back(action);
    return;
  }
  if (earlier->energy_pj != action.energy_pj)
    table.map.fail(m.required("energy"),
                   "action '" + action.name + "' has energies " + earlier->node["energy"].Scalar() +
                       " and " + m.required("energy").Scalar() +
                       " for different arguments; dse needs one energy per action");
}

EnergyTable::Table &EnergyTable::claim(const std::string &path, const YamlMap &component,
                                       const std::vector<std::string> &allowed,
                                       const std::vector<std::string> &free_actions) {
  const auto at =
      std::find_if(tables_.begin(), tables_.end(), [&](const Table &t) { return t.path == path; });
  if (at == tables_.end())
    component.fail(component.required("name"), "no ERT table named '" + path + "'");
  at->claimed = true;
  for (const Action &action : at->actions) {
    if (!contains(allowed, action.name))
      at->map.fail(action.node["name"], "unknown action '" + action.name + "' (expected one of: " +
                                            timeloop::name_sequence(allowed, "or") + ")");
    if (contains(free_actions, action.name) && action.energy_pj != 0)
      at->map.fail(action.node["energy"],
                   "action '" + action.name + "' costs " + action.node["energy"].Scalar() +
                       " pJ; dse models no idle, leakage, gated or skipped energy (set it to 0)");
  }
  return *at;
}

double EnergyTable::energy(const Table &table, const std::vector<std::string> &priority,
                           const std::string &what) const {
  for (const std::string &name : priority)
    for (const Action &action : table.actions)
      if (action.name == name)
        return action.energy_pj;
  table.map.fail(table.name_node, "no energy for " + what + " (actions " +
                                      timeloop::name_sequence(priority, "or") + ")");
}

StorageEnergies EnergyTable::storage(const std::string &path, const YamlMap &component) {
  static const std::vector<std::string> allowed =
      merged({kReadActions, kFillActions, kUpdateActions, kStorageFreeActions});
  const Table &table = claim(path, component, allowed, kStorageFreeActions);
  return StorageEnergies{energy(table, kReadActions, "reads"), energy(table, kFillActions, "fills"),
                         energy(table, kUpdateActions, "updates")};
}

double EnergyTable::mac(const std::string &path, const YamlMap &component) {
  static const std::vector<std::string> allowed = merged({kMacActions, kComputeFreeActions});
  return energy(claim(path, component, allowed, kComputeFreeActions), kMacActions, "MACs");
}

void EnergyTable::check_all_claimed() const {
  for (const Table &table : tables_)
    if (!table.claimed)
      table.map.fail_plain(table.name_node, "ERT table '" + table.path +
                                                "' matches no component of the architecture");
}

} // namespace dse
