// A stable topological order: items kept in the order given, each moved after the items it
// depends on.
#pragma once

#include <vector>

#include "dse/support/check.hpp"

namespace dse {

/// `items` in the order given, except that each comes after every item it depends on
/// (`depends(a, b)`: a must come after b): at each step the first item not placed whose
/// dependencies are all placed. The dependencies must not form a cycle.
template <class T, class Depends>
std::vector<T> dependency_order(const std::vector<T> &items, const Depends &depends) {
  std::vector<T> ordered;
  std::vector<bool> placed(items.size(), false);
  const auto ready = [&](size_t c) {
    if (placed[c])
      return false;
    for (size_t w = 0; w < items.size(); ++w)
      if (!placed[w] && w != c && depends(items[c], items[w]))
        return false;
    return true;
  };
  while (ordered.size() < items.size()) {
    size_t next = 0;
    while (next < items.size() && !ready(next))
      ++next;
    DSE_CHECK(next < items.size(), "items that depend on one another in a cycle");
    placed[next] = true;
    ordered.push_back(items[next]);
  }
  return ordered;
}

} // namespace dse
