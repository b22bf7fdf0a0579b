// Tile sizes and the numeric values of the per-dimension atoms that the posynomials use.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dse/model/posynomial.hpp"

namespace dse {

/// Outer tile size per workload dimension (dims a problem does not use are ignored).
struct Tiling {
  std::vector<std::int64_t> tile;
  bool operator==(const Tiling &) const = default;
};

using AtomValues = std::array<double, kAtomCount>;

/// The atoms of one dimension of size `size` tiled by `tile` on an array of rows x cols.
AtomValues atom_values(std::int64_t size, std::int64_t tile, std::int64_t rows, std::int64_t cols);

/// Atom values for every workload dimension.
struct AtomTable {
  std::vector<AtomValues> per_dim;
};
AtomTable atom_table(const std::vector<std::int64_t> &sizes, const Tiling &tiling,
                     std::int64_t rows, std::int64_t cols);

double evaluate_monomial(const Monomial &m, const AtomTable &atoms);
double evaluate(const Posynomial &p, const AtomTable &atoms);
/// The least value of `p` over every tiling whose atoms lie between `lo` and `hi` (per dimension
/// and atom; atoms are never negative): each term at the ends that make it least, a term with a
/// negative coefficient at its largest.
double least_value(const Posynomial &p, const AtomTable &lo, const AtomTable &hi);

/// Which tile sizes the search tries per dimension (docs/DESIGN.md §4.3).
enum class TileMenu { Divisors, PowersOfTwo, ArrayMultiples, All };
TileMenu parse_tile_menu(const std::string &name); // throws UserError
const char *tile_menu_name(TileMenu menu);

/// Which of a menu's tile sizes are searched: every one, or only the smallest of those with the
/// same trip count ceil(X / T), the others being never better (docs/DESIGN.md §4.3).
enum class TileSizes { Every, SmallestPerTripCount };

/// Candidate tile sizes of a dimension, ascending; always includes the full size.
std::vector<std::int64_t> tile_menu(std::int64_t size, TileMenu menu, std::int64_t array_size,
                                    TileSizes sizes);
/// tile_menu restricted to the sizes `allowed` accepts (the full size among them), the smallest
/// allowed one of each trip count with SmallestPerTripCount.
std::vector<std::int64_t> tile_menu(std::int64_t size, TileMenu menu, std::int64_t array_size,
                                    TileSizes sizes,
                                    const std::function<bool(std::int64_t)> &allowed);
/// How many entries tile_menu returns, counted without building the menu.
std::int64_t tile_menu_size(std::int64_t size, TileMenu menu, std::int64_t array_size,
                            TileSizes sizes);

} // namespace dse
