// The stored form of a candidate space (a candidate cache entry, docs/DESIGN.md §4.4): a header
// that says which build and key it was written for, and a checksummed binary payload. Any entry
// that is not exactly what this build wrote for the key is refused, never trusted.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "dse/search/candidate_space.hpp"

namespace dse {

/// Bumped whenever the layout below changes.
inline constexpr std::uint32_t kCandidateEntryVersion = 4;

/// Layout, integers little-endian, strings as a u32 length and their bytes:
///   "dsecand\n" | u32 version | string fingerprint | string key
///   | u64 payload bytes | u64 checksum (FNV-1a, 64 bits, of the payload) | payload
/// The fingerprint hashes the sources that define a candidate space (the model and the pruning),
/// so that a build whose model differs rebuilds every entry. The payload lists the dataflows,
/// their metrics (posynomials: terms of factor keys, powers and coefficients as IEEE doubles),
/// the recompute groups, the spatial combinations and the pruning statistics.
std::string encode_candidate_entry(const std::string &key, const CandidateSpace &space);

/// An entry's space, or why it was refused ("truncated", "checksum mismatch", ...).
struct DecodedEntry {
  std::optional<CandidateSpace> space;
  std::string refusal;
};

/// Reads an entry written for `key`; `problem` (of that key) bounds every index it holds.
DecodedEntry decode_candidate_entry(std::string_view bytes, const std::string &key,
                                    const Problem &problem);

/// The checksum an entry carries of its payload (FNV-1a, 64 bits): any one byte changed changes it.
std::uint64_t candidate_entry_checksum(std::string_view payload);

/// The fingerprint of this build's candidate-space sources (hex).
std::string_view candidate_space_fingerprint();

/// A file name for `key`'s entry: 16 hex digits of a hash of the key, and ".dsecand". Keys that
/// share a name share a file; the key stored inside tells them apart.
std::string candidate_entry_name(const std::string &key);

} // namespace dse
