// Numeric atom values for a tiling, posynomial evaluation, and the per-dimension tile menus.
#include "dse/model/tiling.hpp"

#include <algorithm>
#include <cmath>

#include "dse/support/error.hpp"

namespace dse {

namespace {
std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }
} // namespace

AtomValues atom_values(std::int64_t size, std::int64_t tile, std::int64_t rows, std::int64_t cols) {
  const std::int64_t trips = ceil_div(size, tile);
  AtomValues v{};
  v[static_cast<size_t>(Atom::Tile)] = static_cast<double>(tile);
  v[static_cast<size_t>(Atom::Trips)] = static_cast<double>(trips);
  v[static_cast<size_t>(Atom::TileMinus1)] = static_cast<double>(tile - 1);
  v[static_cast<size_t>(Atom::SpanMinus1)] = static_cast<double>(tile * trips - 1);
  v[static_cast<size_t>(Atom::CeilRows)] = static_cast<double>(ceil_div(tile, rows));
  v[static_cast<size_t>(Atom::CeilCols)] = static_cast<double>(ceil_div(tile, cols));
  v[static_cast<size_t>(Atom::Size)] = static_cast<double>(size);
  return v;
}

AtomTable atom_table(const std::vector<std::int64_t> &sizes, const Tiling &tiling,
                     std::int64_t rows, std::int64_t cols) {
  AtomTable table;
  for (size_t d = 0; d < sizes.size(); ++d)
    table.per_dim.push_back(atom_values(sizes[d], tiling.tile.at(d), rows, cols));
  return table;
}

double evaluate_monomial(const Monomial &m, const AtomTable &atoms) {
  double v = 1.0;
  for (const Factor &f : m.factors()) {
    const double x = atoms.per_dim[static_cast<size_t>(f.dim())][static_cast<size_t>(f.atom())];
    for (int i = 0; i < f.power; ++i)
      v *= x;
  }
  return v;
}

double evaluate(const Posynomial &p, const AtomTable &atoms) {
  double sum = 0.0;
  for (const auto &[m, c] : p.terms())
    sum += c * evaluate_monomial(m, atoms);
  return sum;
}

double least_value(const Posynomial &p, const AtomTable &lo, const AtomTable &hi) {
  double sum = 0.0;
  for (const auto &[m, c] : p.terms())
    sum += c * evaluate_monomial(m, c >= 0 ? lo : hi);
  return sum;
}

TileMenu parse_tile_menu(const std::string &name) {
  if (name == "divisors")
    return TileMenu::Divisors;
  if (name == "pow2")
    return TileMenu::PowersOfTwo;
  if (name == "array")
    return TileMenu::ArrayMultiples;
  if (name == "all")
    return TileMenu::All;
  throw UserError("unknown tile menu '" + name + "'; expected divisors, pow2, array or all");
}

const char *tile_menu_name(TileMenu menu) {
  switch (menu) {
  case TileMenu::Divisors:
    return "divisors";
  case TileMenu::PowersOfTwo:
    return "pow2";
  case TileMenu::ArrayMultiples:
    return "array";
  case TileMenu::All:
    return "all";
  }
  return "?";
}

namespace {

/// Calls `visit` with the smallest tile of every trip count ceil(size / T), T from 1 to `size`,
/// ascending: the tile after T is the smallest with one trip fewer, ceil(size / (trips - 1)).
template <typename Visit>
void for_each_smallest_tile_per_trip_count(std::int64_t size, Visit visit) {
  for (std::int64_t t = 1;; t = ceil_div(size, ceil_div(size, t) - 1)) {
    visit(t);
    if (t >= size)
      return;
  }
}

/// How many distinct trip counts ceil(size / (k * step)) the multiples k * step below `size` have.
std::int64_t distinct_trip_counts_of_multiples(std::int64_t size, std::int64_t step) {
  std::int64_t count = 0;
  for (std::int64_t k = 1; k * step < size;) {
    ++count;
    const std::int64_t trips = ceil_div(size, k * step);
    if (trips <= 2)
      break; // the next trip count is 1: only `size` itself has it
    k = ceil_div(size, (trips - 1) * step);
  }
  return count;
}

/// Whether a multiple of `step` below `size` has `trips` trips (the smallest multiple with at most
/// that many is the one to check).
bool multiple_has_trip_count(std::int64_t size, std::int64_t step, std::int64_t trips) {
  const std::int64_t multiple = ceil_div(size, trips * step) * step;
  return multiple < size && ceil_div(size, multiple) == trips;
}

/// Keeps the smallest tile of each trip count of an ascending menu (equal trips are adjacent).
void keep_smallest_per_trip_count(std::vector<std::int64_t> &menu, std::int64_t size) {
  std::vector<std::int64_t> kept;
  for (std::int64_t t : menu)
    if (kept.empty() || ceil_div(size, t) != ceil_div(size, kept.back()))
      kept.push_back(t);
  menu = std::move(kept);
}

} // namespace

std::int64_t tile_menu_size(std::int64_t size, TileMenu menu, std::int64_t array_size,
                            TileSizes sizes) {
  const bool smallest = sizes == TileSizes::SmallestPerTripCount;
  std::int64_t count = 1; // the full size
  switch (menu) {
  case TileMenu::Divisors: // distinct trip counts already
    count = 0;
    for (std::int64_t d = 1; d * d <= size; ++d)
      if (size % d == 0)
        count += d * d == size ? 1 : 2;
    break;
  case TileMenu::PowersOfTwo: // distinct trip counts already
    for (std::int64_t t = 1; t < size; t *= 2)
      ++count;
    break;
  case TileMenu::ArrayMultiples:
    for (std::int64_t t = 1; t < std::min(size, array_size); t *= 2)
      if (!smallest || !multiple_has_trip_count(size, array_size, ceil_div(size, t)))
        ++count;
    count +=
        smallest ? distinct_trip_counts_of_multiples(size, array_size) : (size - 1) / array_size;
    break;
  case TileMenu::All:
    if (!smallest)
      return size;
    count = 0;
    for_each_smallest_tile_per_trip_count(size, [&count](std::int64_t) { ++count; });
    break;
  }
  return count;
}

std::vector<std::int64_t> tile_menu(std::int64_t size, TileMenu menu, std::int64_t array_size,
                                    TileSizes sizes) {
  const bool smallest = sizes == TileSizes::SmallestPerTripCount;
  std::vector<std::int64_t> out;
  if (menu == TileMenu::All && smallest) {
    for_each_smallest_tile_per_trip_count(size, [&out](std::int64_t t) { out.push_back(t); });
    return out;
  }
  switch (menu) {
  case TileMenu::Divisors:
    for (std::int64_t d = 1; d * d <= size; ++d)
      if (size % d == 0) {
        out.push_back(d);
        out.push_back(size / d);
      }
    break;
  case TileMenu::PowersOfTwo:
    for (std::int64_t t = 1; t < size; t *= 2)
      out.push_back(t);
    break;
  case TileMenu::ArrayMultiples:
    // Sub-array tiles are powers of two; above that, multiples of the array size.
    for (std::int64_t t = 1; t < std::min(size, array_size); t *= 2)
      out.push_back(t);
    for (std::int64_t t = array_size; t < size; t += array_size)
      out.push_back(t);
    break;
  case TileMenu::All:
    for (std::int64_t t = 1; t < size; ++t)
      out.push_back(t);
    break;
  }
  out.push_back(size);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  if (smallest)
    keep_smallest_per_trip_count(out, size);
  return out;
}

std::vector<std::int64_t> tile_menu(std::int64_t size, TileMenu menu, std::int64_t array_size,
                                    TileSizes sizes,
                                    const std::function<bool(std::int64_t)> &allowed) {
  std::vector<std::int64_t> out = tile_menu(size, menu, array_size, TileSizes::Every);
  std::erase_if(out, [&](std::int64_t t) { return !allowed(t); });
  if (sizes == TileSizes::SmallestPerTripCount)
    keep_smallest_per_trip_count(out, size);
  return out;
}

} // namespace dse
