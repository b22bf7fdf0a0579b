// Halo planning: per link and halo dim, the window each step needs, the positions its producer
// computes, and the store that keeps the overlap of consecutive windows.
#include "halo_plan.hpp"

#include <algorithm>

#include "dse/support/contains.hpp"
#include "tile_shape.hpp"

namespace dse::codegen {

namespace {

const TensorAccess &intermediate_access(const Problem &p, int link) {
  return p.tensors[static_cast<size_t>(p.links[static_cast<size_t>(link)].intermediate)].access;
}

/// Index position of `access` that holds `dim`.
int axis_of(const TensorAccess &access, int dim) {
  for (size_t a = 0; a < access.indices.size(); ++a)
    if (access.indices[a].coefficient(dim) != 0)
      return static_cast<int>(a);
  return -1;
}

/// The halo of link `link` along `dim` in `halos`, or -1.
int find_halo(const std::vector<HaloPlan> &halos, int link, int dim) {
  for (size_t k = 0; k < halos.size(); ++k)
    if (halos[k].link == link && halos[k].dim == dim)
      return static_cast<int>(k);
  return -1;
}

/// How the window of `halo` follows the positions of `next` (the next link along the same dim)
/// that its consumer computes: each reads coef positions further, from shift on, over its own
/// window.
void chain_to(HaloPlan &halo, const IndexExpr &read, const IndexExpr &next_e,
              const std::vector<DimPlan> &dims) {
  halo.coef = read.coefficient(halo.dim) / next_e.coefficient(halo.dim);
  halo.shift = read.offset - halo.coef * next_e.offset;
  halo.own_span = 1;
  for (const IndexTerm &t : read.terms)
    if (next_e.coefficient(t.dim) == 0)
      halo.own_span += t.coef * (dims[static_cast<size_t>(t.dim)].padded() - 1);
}

HaloPlan plan_halo(const Problem &p, const Dataflow &df, int link, int h,
                   const std::vector<HaloPlan> &later, const std::vector<DimPlan> &dims) {
  const TensorAccess &inter = intermediate_access(p, link);
  HaloPlan halo;
  halo.link = link;
  halo.dim = h;
  halo.axis = axis_of(inter, h);
  const IndexExpr &e = inter.indices[static_cast<size_t>(halo.axis)];
  const auto at = std::find(df.prefix.begin(), df.prefix.end(), h);
  halo.looped = at != df.prefix.end();
  halo.stride = e.coefficient(h);
  halo.step = halo.stride * dims[static_cast<size_t>(h)].tile;
  halo.offset = e.offset;
  halo.window = 1;
  for (const IndexTerm &t : e.terms) {
    const DimPlan &d = dims[static_cast<size_t>(t.dim)];
    halo.window += t.coef * ((t.dim == h && halo.looped ? d.tile : d.padded()) - 1);
  }
  halo.chained = find_halo(later, link + 1, h);
  if (halo.chained >= 0) {
    const HaloPlan &next = later[static_cast<size_t>(halo.chained)];
    chain_to(halo, e, intermediate_access(p, link + 1).indices[static_cast<size_t>(next.axis)],
             dims);
  }
  const std::vector<std::vector<int>> &cached = df.cached;
  halo.cached = contains(cached.at(static_cast<size_t>(link)), h);
  halo.overlap = p.halo_overlap(link, h, cached);
  const HaloRange &range = p.links[static_cast<size_t>(link)].halo_range(h);
  halo.begin = range.begin;
  halo.end = range.end;
  if (halo.cached)
    for (auto it = at + 1; it != df.prefix.end(); ++it)
      if (!inter.uses(*it))
        halo.save_at_last.push_back(*it);
  return halo;
}

} // namespace

std::vector<HaloPlan> plan_halos(const Problem &p, const Dataflow &df, std::vector<DimPlan> &dims) {
  std::vector<HaloPlan> out;
  for (int link = static_cast<int>(p.links.size()) - 1; link >= 0; --link)
    for (int h : p.links[static_cast<size_t>(link)].halo_dims) {
      HaloPlan halo = plan_halo(p, df, link, h, out, dims);
      const IndexExpr &e = intermediate_access(p, link).indices[static_cast<size_t>(halo.axis)];
      halo.position_dim = static_cast<int>(dims.size());
      dims.push_back({index_text(e, p.workload->dims), halo.window, halo.window, 1});
      out.push_back(halo);
    }
  return out;
}

int halo_of(const std::vector<HaloPlan> &halos, int link, const IndexExpr &e) {
  for (size_t k = 0; k < halos.size(); ++k)
    if (halos[k].link == link && e.coefficient(halos[k].dim) != 0)
      return static_cast<int>(k);
  return -1;
}

void set_position_strides(SegmentPlan &plan) {
  for (const HaloPlan &halo : plan.halos)
    for (int t : plan.problem->ops[static_cast<size_t>(halo.link)].tensors) {
      TilePlan &tile = plan.tiles[static_cast<size_t>(t)];
      tile.dim_stride[static_cast<size_t>(halo.position_dim)] =
          tile.dim_stride[static_cast<size_t>(halo.dim)] / halo.stride;
    }
}

void plan_overlap_stores(SegmentPlan &plan, const Dataflow &df) {
  const Problem &p = *plan.problem;
  for (size_t k = 0; k < plan.halos.size(); ++k) {
    HaloPlan &halo = plan.halos[k];
    if (!halo.cached)
      continue;
    const TilePlan &inter =
        plan.tiles[static_cast<size_t>(p.links[static_cast<size_t>(halo.link)].intermediate)];
    TilePlan store;
    store.halo = static_cast<int>(k);
    store.name = "overlap of " + inter.name + " along " + p.dim_name(halo.dim);
    store.role = TensorRole::Intermediate;
    store.access = inter.access;
    store.above.assign(df.prefix.begin(), std::find(df.prefix.begin(), df.prefix.end(), halo.dim));
    std::vector<std::int64_t> extent = box_extents(store, plan.dims);
    extent[static_cast<size_t>(halo.axis)] = halo.overlap;
    lay_out(store, std::move(extent), plan.dims, inter.order.back(), 0);
    halo.store_tile = static_cast<int>(plan.tiles.size());
    plan.tiles.push_back(std::move(store));
  }
}

} // namespace dse::codegen
