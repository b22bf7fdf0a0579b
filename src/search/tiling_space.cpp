// Tile menus per dimension (window dims are kept whole) and mixed-radix decoding of tilings.
#include "dse/search/tiling_space.hpp"

#include <limits>

#include "dse/support/check.hpp"
#include "dse/support/error.hpp"

namespace dse {

TilingSpace::TilingSpace(const Problem &problem, TileMenu menu, std::int64_t array_size,
                         TileSizes sizes)
    : dims_(problem.dims) {
  for (const Dimension &d : problem.workload->dims)
    sizes_.push_back(d.size);
  for (int d : dims_) {
    const std::int64_t size = sizes_[static_cast<size_t>(d)];
    const bool window = problem.is_window[static_cast<size_t>(d)];
    // Along a halo dim of a chain, only the tile sizes the model counts exactly.
    const bool restricted = !window && problem.restricts_tiles(d);
    if (window)
      menus_.push_back({size});
    else if (restricted)
      menus_.push_back(tile_menu(size, menu, array_size, sizes, [&](std::int64_t t) {
        return problem.counts_tile_exactly(d, t);
      }));
    else
      menus_.push_back(tile_menu(size, menu, array_size, sizes));
    // The space limits predict the space from the menu sizes, before any menu is built (a
    // restricted menu is smaller).
    DSE_CHECK(window || restricted ||
                  static_cast<std::int64_t>(menus_.back().size()) ==
                      tile_menu_size(size, menu, array_size, sizes),
              "menu of size " + std::to_string(size) + " has " +
                  std::to_string(menus_.back().size()) + " tiles, tile_menu_size says " +
                  std::to_string(tile_menu_size(size, menu, array_size, sizes)));
    if (size_ > std::numeric_limits<std::uint64_t>::max() / menus_.back().size())
      throw UserError("the tiling space of '" + problem.workload->name + "' with tile menu '" +
                      tile_menu_name(menu) + "' has more than 2^64 points");
    size_ *= menus_.back().size();
  }
}

void TilingSpace::decode(std::uint64_t index, std::vector<int> &menu_index) const {
  DSE_CHECK(index < size_,
            "tiling " + std::to_string(index) + " of a space of " + std::to_string(size_));
  menu_index.resize(dims_.size());
  for (size_t i = dims_.size(); i-- > 0;) {
    const std::uint64_t radix = menus_[i].size();
    menu_index[i] = static_cast<int>(index % radix);
    index /= radix;
  }
}

Tiling TilingSpace::tiling(std::uint64_t index) const {
  std::vector<int> menu_index;
  decode(index, menu_index);
  Tiling t;
  t.tile = sizes_; // dims outside the problem: whole
  for (size_t i = 0; i < dims_.size(); ++i)
    t.tile[static_cast<size_t>(dims_[i])] = menus_[i][static_cast<size_t>(menu_index[i])];
  return t;
}

} // namespace dse
