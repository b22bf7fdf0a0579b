// Counts the tiling space (product of the menu sizes) and the loop nests the candidate space
// enumerates without building either, and refuses a problem whose spaces exceed the limits.
#include "dse/search/space_limits.hpp"

#include <algorithm>
#include <cstdio>

#include "dse/model/candidate_generation.hpp"
#include "dse/support/error.hpp"

namespace dse {

namespace {

/// Counting stops above this (far beyond any limit the command line accepts).
constexpr double kCountedUpTo = 1e18;

std::string problem_name(const Problem &p) {
  if (!p.fused())
    return "operator '" + p.op(0).name + "'";
  return "fused operators '" + p.op(0).name + "+" + p.op(1).name + "'";
}

std::string tilings_excess(const Problem &problem, TileMenu menu, std::int64_t array_size,
                           TileSizes sizes, std::uint64_t limit) {
  double tilings = 1;
  std::int64_t widest = 0;
  int widest_dim = -1;
  for (int d : problem.dims) {
    if (problem.is_window[static_cast<size_t>(d)])
      continue;
    const std::int64_t entries =
        tile_menu_size(problem.workload->dim_size(d), menu, array_size, sizes);
    tilings *= static_cast<double>(entries);
    if (entries > widest) {
      widest = entries;
      widest_dim = d;
    }
  }
  if (tilings <= static_cast<double>(limit))
    return {};
  return problem_name(problem) + ": --tiles " + tile_menu_name(menu) + " gives " +
         std::to_string(widest) + " tile sizes for dimension " + problem.dim_name(widest_dim) +
         "; the tiling space has " + count_text(tilings) + " tilings, above the limit of " +
         count_text(static_cast<double>(limit)) + " (raise it with --max-tilings)";
}

std::string loop_nests_excess(const Problem &problem, bool allow_recompute, std::uint64_t limit) {
  const double nests = count_local_plans(problem, allow_recompute, kCountedUpTo);
  if (nests <= static_cast<double>(limit))
    return {};
  size_t loops = 0;
  for (const ProblemOp &op : problem.ops)
    loops = std::max(loops, op.tiled_dims.size());
  return problem_name(problem) + ": the candidate space has " +
         (nests > kCountedUpTo ? "more than " + count_text(kCountedUpTo) : count_text(nests)) +
         " loop nests to enumerate (every order of up to " + std::to_string(loops) +
         " loops with every retention depth), above the limit of " +
         count_text(static_cast<double>(limit)) + " (raise it with --max-loop-nests)";
}

/// Why the problem's spaces exceed the limits, or an empty string.
std::string limits_excess(const Problem &problem, TileMenu menu, std::int64_t array_size,
                          TileSizes sizes, bool allow_recompute, const SpaceLimits &limits) {
  std::string why = tilings_excess(problem, menu, array_size, sizes, limits.max_tilings);
  return why.empty() ? loop_nests_excess(problem, allow_recompute, limits.max_loop_nests) : why;
}

} // namespace

void check_space_limits(const Problem &problem, TileMenu menu, std::int64_t array_size,
                        TileSizes sizes, bool allow_recompute, const SpaceLimits &limits) {
  if (std::string why = limits_excess(problem, menu, array_size, sizes, allow_recompute, limits);
      !why.empty())
    throw UserError(why);
}

bool within_space_limits(const Problem &problem, TileMenu menu, std::int64_t array_size,
                         TileSizes sizes, bool allow_recompute, const SpaceLimits &limits) {
  return limits_excess(problem, menu, array_size, sizes, allow_recompute, limits).empty();
}

std::string count_text(double count) {
  if (count < 1e6)
    return std::to_string(static_cast<long long>(count));
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", count); // "4.6e+18"
  std::string out = text;
  const size_t e = out.find("e+");
  if (e == std::string::npos)
    return out;
  size_t digits = e + 2;
  while (digits + 1 < out.size() && out[digits] == '0')
    ++digits;
  return out.substr(0, e + 1) + out.substr(digits);
}

} // namespace dse
