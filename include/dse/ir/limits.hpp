// The largest sizes the model accepts. Keeping every product of sizes far below 2^63 lets the
// model, the search and the graph passes multiply them without overflow checks; the loaders and
// shape inference enforce these bounds at the edge.
#pragma once

#include <cstdint>

namespace dse {

inline constexpr std::int64_t kMaxCapacityWords = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 50;
inline constexpr std::int64_t kMaxDimensionSize = 2147483647; // 2^31 - 1

} // namespace dse
