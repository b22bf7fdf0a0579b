// Limits on the size of a problem's tiling and candidate spaces, checked on counts taken before
// either space is built, so that a search too large for memory fails with a message instead.
#pragma once

#include <cstdint>
#include <string>

#include "dse/model/problem.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

struct SpaceLimits {
  /// Tilings per problem (--max-tilings): their menus and atom tables take up to about 70 bytes
  /// per tiling (a GEMM with 1e8 tilings needed 7 GB), and each is evaluated against every
  /// candidate.
  std::uint64_t max_tilings = 10'000'000;
  /// Loop nests (an operator's loop order and retention depths under one prefix) enumerated per
  /// problem before pruning (--max-loop-nests): each takes about 20 us and, while its operator's
  /// nests are pruned, about a kilobyte of symbolic metrics.
  std::uint64_t max_loop_nests = 2'000'000;
};

/// Throws UserError when the tiling space or the candidate space of `problem` is larger than
/// `limits` allow, naming the problem, the size, the limit and the flag that raises it.
void check_space_limits(const Problem &problem, TileMenu menu, std::int64_t array_size,
                        TileSizes sizes, bool allow_recompute, const SpaceLimits &limits);
/// Whether check_space_limits accepts the problem.
bool within_space_limits(const Problem &problem, TileMenu menu, std::int64_t array_size,
                         TileSizes sizes, bool allow_recompute, const SpaceLimits &limits);

/// A count for messages: exact below a million, else two significant digits ("4.6e18").
std::string count_text(double count);

} // namespace dse
