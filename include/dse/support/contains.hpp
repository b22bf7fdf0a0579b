// Membership in the short id lists the engine walks (a prefix's dims, a segment's nodes, an
// operator's tensors): a linear scan.
#pragma once

#include <algorithm>
#include <vector>

namespace dse {

/// Whether `v` holds `x`.
inline bool contains(const std::vector<int> &v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

} // namespace dse
