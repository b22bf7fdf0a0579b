// Tile shapes: box extents from the loops above a tile's depth, then a row-major layout with the
// contiguous position last (packed in blocks for panels).
#include "tile_shape.hpp"

#include "dse/support/contains.hpp"

namespace dse::codegen {

/// Box extents of a tile allocated with the loops `above` entered.
std::vector<std::int64_t> box_extents(const TilePlan &t, const std::vector<DimPlan> &dims) {
  std::vector<std::int64_t> out;
  for (const IndexExpr &e : t.access.indices) {
    std::int64_t span = 1;
    for (const IndexTerm &term : e.terms) {
      const DimPlan &d = dims[static_cast<size_t>(term.dim)];
      span += term.coef * ((contains(t.above, term.dim) ? d.tile : d.padded()) - 1);
    }
    out.push_back(span);
  }
  return out;
}

/// Storage order and strides of a tile of `extent`; `block` > 0 packs the contiguous position in
/// blocks of that many.
void lay_out(TilePlan &t, std::vector<std::int64_t> extent, const std::vector<DimPlan> &dims,
             int contiguous, std::int64_t block) {
  t.extent = std::move(extent);
  t.order.clear();
  for (int p = 0; p < static_cast<int>(t.extent.size()); ++p)
    if (p != contiguous)
      t.order.push_back(p);
  if (contiguous >= 0)
    t.order.push_back(contiguous);
  const size_t last = static_cast<size_t>(t.order.back());
  t.block = block > 0 ? block : t.extent[last];
  // Row-major over the other positions, each step spanning one block row.
  t.position_stride.assign(t.extent.size(), 0);
  std::int64_t stride = t.block;
  for (auto it = t.order.rbegin() + 1; it != t.order.rend(); ++it) {
    t.position_stride[static_cast<size_t>(*it)] = stride;
    stride *= t.extent[static_cast<size_t>(*it)];
  }
  // Along the contiguous position: 1, or per unit between the blocks of a packed tile.
  t.position_stride[last] = t.block == t.extent[last] ? 1 : stride / t.block;
  t.words = stride / t.block * t.extent[last];
  t.dim_stride.assign(dims.size(), 0);
  for (size_t p = 0; p < t.access.indices.size(); ++p)
    for (const IndexTerm &term : t.access.indices[p].terms)
      t.dim_stride[static_cast<size_t>(term.dim)] += term.coef * t.position_stride[p];
}

/// Box extents, storage order and strides of a tile allocated with the loops `above` entered.
void shape_tile(TilePlan &t, const std::vector<DimPlan> &dims, int contiguous, std::int64_t block) {
  lay_out(t, box_extents(t, dims), dims, contiguous, block);
}

} // namespace dse::codegen
