// Pruned candidate spaces built once per structure: kept in memory for the searches of a process,
// and optionally in a store that outlives it (docs/DESIGN.md §4.4).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <tbb/collaborative_call_once.h>
#include <vector>

#include "dse/search/candidate_space.hpp"

namespace dse {

struct SymbolicMatrices; // src/search/problem_matrices.hpp

/// Everything build_candidate_space reads: the problem's structure and the three settings.
std::string candidate_space_key(const Problem &problem, bool double_buffering, Pruning pruning,
                                bool allow_recompute);

/// Where candidate entries (candidate_entry.hpp) are kept between runs, by key. A store is an
/// optimisation: it reports its own failures and never throws. Called from several threads.
class CandidateStore {
public:
  virtual ~CandidateStore() = default;
  /// The bytes last saved under `key`, or nothing (absent or unreadable).
  virtual std::optional<std::string> load(const std::string &key) = 0;
  /// Saves `entry` under `key`, replacing any earlier entry.
  virtual void save(const std::string &key, const std::string &entry) = 0;
};

/// What a cache has done so far.
struct CandidateCacheCounts {
  std::uint64_t built = 0;           // spaces built (and saved when there is a store)
  std::uint64_t loaded = 0;          // spaces read from the store
  std::vector<std::string> rejected; // why each stored entry found was not trusted, sorted
};

/// Reuses candidate spaces across problems, shapes and hardware configurations with the same
/// structure. Thread-safe: a space asked for by several threads at once is read or built by one
/// of them while the others wait. With a store, a space missing from memory is read from the store
/// when its entry is whole and was written for the same key by the same build; otherwise it is
/// built and the entry rewritten.
class CandidateCache {
public:
  CandidateCache() = default;
  explicit CandidateCache(std::shared_ptr<CandidateStore> store);

  std::shared_ptr<const CandidateSpace> get(const Problem &problem, bool double_buffering,
                                            Pruning pruning, bool allow_recompute = true);

  /// Makes the spaces of `problems` and their Q matrices ready for get and matrices: the
  /// distinct ones not held yet are read or built in parallel (in the caller's task arena).
  void prepare(const std::vector<const Problem *> &problems, bool double_buffering, Pruning pruning,
               bool allow_recompute = true);

  /// The Q matrices of `space` (as `get` returned it for `problem`) over its symbolic basis,
  /// built on the first call for that space, by one thread while the others wait.
  std::shared_ptr<const SymbolicMatrices>
  matrices(const Problem &problem, const std::shared_ptr<const CandidateSpace> &space);

  CandidateCacheCounts counts() const;

private:
  /// The space of `key` read from the store, or built (and saved); not yet in memory.
  std::shared_ptr<const CandidateSpace> obtain(const Problem &problem, const std::string &key,
                                               bool double_buffering, Pruning pruning,
                                               bool allow_recompute);

  /// A value made once, by the first thread that asks for it, while the others wait.
  template <typename T> struct Once {
    tbb::collaborative_once_flag made;
    std::shared_ptr<const T> value;
  };
  /// The value of `key` in `entries`, made by `make` on the first call.
  template <typename Key, typename T, typename Make>
  std::shared_ptr<const T> once(std::map<Key, std::shared_ptr<Once<T>>> &entries, const Key &key,
                                const Make &make);

  std::shared_ptr<CandidateStore> store_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Once<CandidateSpace>>> spaces_;
  std::map<std::shared_ptr<const CandidateSpace>, std::shared_ptr<Once<SymbolicMatrices>>>
      matrices_;
  CandidateCacheCounts counts_;
};

} // namespace dse
