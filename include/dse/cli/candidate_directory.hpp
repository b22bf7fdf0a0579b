// The candidate cache's directory (--cache-dir): one file per candidate space, written to a
// temporary file beside it and renamed over it, so that a reader sees a whole entry or none.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "dse/search/candidate_cache.hpp"

namespace dse {

class CandidateDirectory : public CandidateStore {
public:
  /// Files larger than this are not read (no entry comes near it): treated as absent.
  static constexpr std::uintmax_t kMaxEntryBytes = std::uintmax_t{1} << 30;

  /// The directory is created when the first entry is saved. `warn` gets one message, the first
  /// time an entry cannot be saved; nothing more is saved after that.
  CandidateDirectory(std::filesystem::path dir, std::function<void(const std::string &)> warn);

  std::optional<std::string> load(const std::string &key) override;
  void save(const std::string &key, const std::string &entry) override;

  /// The file that holds `key`'s entry.
  std::filesystem::path entry_path(const std::string &key) const;

private:
  std::filesystem::path dir_;
  std::function<void(const std::string &)> warn_;
  std::once_flag warned_;
  std::atomic<bool> unwritable_{false}; // after the first failure, nothing more is tried
};

/// The cache of a command: with an empty `dir`, in memory only; otherwise backed by the
/// directory, warning once on stderr when it cannot be written.
std::shared_ptr<CandidateCache> make_candidate_cache(const std::string &dir);

/// With -v: what the cache did ("candidate cache DIR: 2 spaces read, 1 built (1 entry refused:
/// checksum mismatch)"); empty without a directory.
std::string candidate_cache_report(const std::string &dir, const CandidateCache &cache);

} // namespace dse
