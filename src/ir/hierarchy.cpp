// Derived quantities of a Hierarchy.
#include "dse/ir/hierarchy.hpp"

namespace dse {

namespace {

std::int64_t fanout_product(const std::vector<std::vector<Fanout>> &fanouts, size_t count) {
  std::int64_t product = 1;
  for (size_t l = 0; l < count && l < fanouts.size(); ++l)
    for (const Fanout &f : fanouts[l])
      product *= f.size();
  return product;
}

} // namespace

std::int64_t Hierarchy::instances(int level) const {
  return fanout_product(fanouts, static_cast<size_t>(level));
}

std::int64_t Hierarchy::compute_units() const { return fanout_product(fanouts, fanouts.size()); }

int Hierarchy::level_index(const std::string &name) const {
  for (size_t l = 0; l < levels.size(); ++l)
    if (levels[l].name == name)
      return static_cast<int>(l);
  return -1;
}

} // namespace dse
