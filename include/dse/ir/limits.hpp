// The largest sizes the model accepts. Keeping every product of sizes far below 2^63 lets the
// model, the search and the graph passes multiply them without overflow checks; the loaders and
// shape inference enforce these bounds at the edge.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dse {

inline constexpr std::int64_t kMaxCapacityWords = std::int64_t{1} << 40;
inline constexpr std::int64_t kMaxTensorElements = std::int64_t{1} << 50;
inline constexpr std::int64_t kMaxDimensionSize = 2147483647; // 2^31 - 1
/// Dimensions of one workload: the searches hold a set of them as the bits of a 64-bit word.
inline constexpr std::size_t kMaxWorkloadDimensions = 64;

/// The largest YAML input file read by default (`--max-input-mib` raises it): a parsed YAML
/// tree takes a hundred times the file's bytes, so a larger file, or an endless device such
/// as /dev/zero, is refused before it is read whole.
inline constexpr std::uint64_t kDefaultMaxInputMib = 16;
/// protobuf parses messages of at most 2 GiB: a larger ONNX file is refused unread.
inline constexpr std::uint64_t kMaxOnnxBytes = std::uint64_t{2} << 30;
/// Bytes in one MiB, for the `--max-input-mib` limit.
inline constexpr std::uint64_t kBytesPerMib = std::uint64_t{1} << 20;

} // namespace dse
