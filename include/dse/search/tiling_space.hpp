// The Cartesian product of per-dimension tile menus (every size, or the smallest per trip count),
// indexed in mixed radix (last dim fastest).
#pragma once

#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/model/problem.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

class TilingSpace {
public:
  TilingSpace(const Problem &problem, TileMenu menu, std::int64_t array_size, TileSizes sizes);

  std::uint64_t size() const { return size_; }
  /// Menu index of every problem dimension for tiling `index` (order of `dims()`).
  void decode(std::uint64_t index, std::vector<int> &menu_index) const;
  Tiling tiling(std::uint64_t index) const;
  const std::vector<int> &dims() const { return dims_; }
  const std::vector<std::int64_t> &menu(size_t i) const { return menus_[i]; }
  const std::vector<std::int64_t> &sizes() const { return sizes_; }

private:
  std::vector<int> dims_;                        // problem dims
  std::vector<std::vector<std::int64_t>> menus_; // per entry of dims_
  std::vector<std::int64_t> sizes_;              // per workload dim
  std::uint64_t size_ = 1;
};

} // namespace dse
