// Queries on a fused problem's halos: per link, the windows composed down the chain, the
// overlap of consecutive windows, which halo dims may be cached, and the tile sizes counted
// exactly (docs/DEPTH_FIRST.md §2).
#include <algorithm>

#include "dse/model/problem.hpp"
#include "dse/support/check.hpp"
#include "dse/support/contains.hpp"

namespace dse {

std::int64_t halo_index_window(const Workload &workload, const IndexExpr &index, int dim) {
  std::int64_t window = 1;
  for (const IndexTerm &t : index.terms)
    if (t.dim != dim)
      window += t.coef * (workload.dim_size(t.dim) - 1);
  return window;
}

namespace {

size_t halo_position(const std::vector<int> &halo_dims, int dim) {
  const auto at = std::find(halo_dims.begin(), halo_dims.end(), dim);
  DSE_CHECK(at != halo_dims.end(), "halo query on a dimension that is not a halo dim");
  return static_cast<size_t>(at - halo_dims.begin());
}

/// Whether some term of `index` is not a term of `read`: the producer's own window on top of
/// the consumer's (`r` of `a+u+r`).
bool has_own_window(const IndexExpr &index, const IndexExpr &read) {
  return std::any_of(index.terms.begin(), index.terms.end(),
                     [&](const IndexTerm &t) { return read.coefficient(t.dim) == 0; });
}

} // namespace

bool ProblemLink::has_halo(int dim) const { return contains(halo_dims, dim); }

const IndexExpr &ProblemLink::halo_read(int dim) const {
  return halo_reads[halo_position(halo_dims, dim)];
}

const HaloRange &ProblemLink::halo_range(int dim) const {
  return halo_ranges[halo_position(halo_dims, dim)];
}

std::int64_t ProblemLink::halo_stride(int dim) const { return halo_read(dim).coefficient(dim); }

bool Problem::encloses_intermediate(int link, int dim) const {
  const ProblemLink &l = links.at(static_cast<size_t>(link));
  return contains(l.recompute_dims, dim) || l.has_halo(dim);
}

std::int64_t Problem::halo_window(int link, int dim) const {
  return halo_index_window(*workload, links.at(static_cast<size_t>(link)).halo_read(dim), dim);
}

std::int64_t Problem::halo_positions_offset(int link, int dim) const {
  const ProblemLink &l = links.at(static_cast<size_t>(link));
  const HaloRange &range = l.halo_range(dim);
  return range.end - range.begin - l.halo_stride(dim) * workload->dim_size(dim);
}

std::int64_t Problem::halo_overlap(int link, int dim,
                                   const std::vector<std::vector<int>> &cached) const {
  const ProblemLink &here = links.at(static_cast<size_t>(link));
  const std::int64_t stride = here.halo_stride(dim);
  const std::int64_t spread = halo_window(link, dim) - stride; // every later link recomputing
  const size_t next = static_cast<size_t>(link) + 1;
  if (next == links.size() || !links[next].has_halo(dim))
    return spread;
  // The next link's windows, seen through the next consumer's stride s: its own overlap
  // U - s is what is left of this link's spread once the next one's (times s) is taken away.
  const std::int64_t s = stride / links[next].halo_stride(dim);
  const std::int64_t next_spread =
      halo_window(static_cast<int>(next), dim) - links[next].halo_stride(dim);
  const bool next_cached = next < cached.size() && contains(cached[next], dim);
  const std::int64_t next_recomputed =
      next_cached ? 0 : halo_overlap(static_cast<int>(next), dim, cached);
  return spread - s * next_spread + s * next_recomputed;
}

bool Problem::runs_without_recompute(const std::vector<int> &prefix,
                                     const std::vector<std::vector<int>> &cached) const {
  if (std::any_of(prefix.begin(), prefix.end(), [&](int d) { return contains(recompute_dims, d); }))
    return false;
  for (size_t l = 0; l < links.size(); ++l)
    for (int h : links[l].halo_dims) {
      const bool is_cached = l < cached.size() && contains(cached[l], h);
      if (!is_cached && halo_overlap(static_cast<int>(l), h, cached) > 0)
        return false;
    }
  return true;
}

std::vector<int> Problem::cacheable_halo_dims(int link) const {
  const ProblemLink &l = links.at(static_cast<size_t>(link));
  std::vector<int> out;
  for (int h : l.halo_dims) {
    const IndexExpr &read = l.halo_read(h);
    const std::int64_t stride = l.halo_stride(h);
    bool once = true; // every producer access holds h's read at most once (`p+r`, not `2*p+r`)
    bool own_window = false;
    for (const TensorAccess &a : ops[static_cast<size_t>(l.producer)].accesses)
      for (const IndexExpr &e : a.indices) {
        once = once && e.coefficient(h) <= stride;
        own_window = own_window || (e.coefficient(h) > 0 && has_own_window(e, read));
      }
    // With padding after the last position as wide as the stride, the last step may compute no
    // position yet read its own window.
    const bool last_step_computes = l.halo_range(h).pad_after < stride || !own_window;
    if (once && halo_window(link, h) > stride && last_step_computes)
      out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool Problem::restricts_tiles(int dim) const {
  return std::any_of(links.begin(), links.end(), [&](const ProblemLink &l) {
    if (!l.has_halo(dim))
      return false;
    const HaloRange &range = l.halo_range(dim);
    return std::max(range.pad_before, range.pad_after) > l.halo_stride(dim);
  });
}

bool Problem::counts_tile_exactly(int dim, std::int64_t tile) const {
  const std::int64_t size = workload->dim_size(dim);
  if (tile >= size)
    return true;                                             // one window, clipped at both ends
  const std::int64_t last = size - (size - 1) / tile * tile; // the last tile's positions
  return std::all_of(links.begin(), links.end(), [&](const ProblemLink &l) {
    if (!l.has_halo(dim))
      return true;
    const HaloRange &range = l.halo_range(dim);
    const std::int64_t stride = l.halo_stride(dim);
    return stride * tile >= range.pad_before && stride * last >= range.pad_after;
  });
}

std::vector<std::vector<int>> Problem::cacheable_halos() const {
  std::vector<std::vector<int>> out;
  for (size_t l = 0; l < links.size(); ++l)
    out.push_back(cacheable_halo_dims(static_cast<int>(l)));
  return out;
}

} // namespace dse
