// The candidate cache: one space per key in memory, read from or written to the store on a miss,
// and the distinct spaces of a batch of problems made ready in parallel.
#include "dse/search/candidate_cache.hpp"

#include <algorithm>
#include <tbb/parallel_for.h>

#include "dse/search/candidate_entry.hpp"
#include "problem_matrices.hpp"

namespace dse {

std::string candidate_space_key(const Problem &problem, bool double_buffering, Pruning pruning,
                                bool allow_recompute) {
  return problem.structure_key() + (double_buffering ? "|db" : "|sb") +
         (pruning == Pruning::Symbolic ? "|p" : "|n") + (allow_recompute ? "|r" : "|nr");
}

CandidateCache::CandidateCache(std::shared_ptr<CandidateStore> store) : store_(std::move(store)) {}

template <typename Key, typename T, typename Make>
std::shared_ptr<const T> CandidateCache::once(std::map<Key, std::shared_ptr<Once<T>>> &entries,
                                              const Key &key, const Make &make) {
  std::shared_ptr<Once<T>> entry;
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Once<T>> &held = entries[key];
    if (!held)
      held = std::make_shared<Once<T>>();
    entry = held;
  }
  // Threads that wait for the first one help with its parallel work.
  tbb::collaborative_call_once(entry->made, [&] { entry->value = make(); });
  return entry->value;
}

std::shared_ptr<const CandidateSpace> CandidateCache::obtain(const Problem &problem,
                                                             const std::string &key,
                                                             bool double_buffering, Pruning pruning,
                                                             bool allow_recompute) {
  if (store_) {
    if (const std::optional<std::string> bytes = store_->load(key)) {
      DecodedEntry entry = decode_candidate_entry(*bytes, key, problem);
      if (entry.space) {
        std::lock_guard lock(mutex_);
        ++counts_.loaded;
        return std::make_shared<const CandidateSpace>(std::move(*entry.space));
      }
      std::lock_guard lock(mutex_);
      counts_.rejected.push_back(std::move(entry.refusal));
    }
  }
  auto space = std::make_shared<const CandidateSpace>(
      build_candidate_space(problem, double_buffering, pruning, allow_recompute));
  if (store_)
    store_->save(key, encode_candidate_entry(key, *space));
  std::lock_guard lock(mutex_);
  ++counts_.built;
  return space;
}

std::shared_ptr<const CandidateSpace> CandidateCache::get(const Problem &problem,
                                                          bool double_buffering, Pruning pruning,
                                                          bool allow_recompute) {
  const std::string key = candidate_space_key(problem, double_buffering, pruning, allow_recompute);
  return once(spaces_, key,
              [&] { return obtain(problem, key, double_buffering, pruning, allow_recompute); });
}

void CandidateCache::prepare(const std::vector<const Problem *> &problems, bool double_buffering,
                             Pruning pruning, bool allow_recompute) {
  std::vector<std::string> keys;
  std::vector<const Problem *> distinct;
  for (const Problem *p : problems) {
    std::string key = candidate_space_key(*p, double_buffering, pruning, allow_recompute);
    if (std::find(keys.begin(), keys.end(), key) != keys.end())
      continue;
    keys.push_back(std::move(key));
    distinct.push_back(p);
  }
  tbb::parallel_for(size_t{0}, keys.size(), [&](size_t i) {
    matrices(*distinct[i], once(spaces_, keys[i], [&] {
      return obtain(*distinct[i], keys[i], double_buffering, pruning, allow_recompute);
    }));
  });
}

std::shared_ptr<const SymbolicMatrices>
CandidateCache::matrices(const Problem &problem,
                         const std::shared_ptr<const CandidateSpace> &space) {
  return once(matrices_, space, [&] {
    return std::make_shared<const SymbolicMatrices>(symbolic_matrices(problem, *space));
  });
}

CandidateCacheCounts CandidateCache::counts() const {
  std::lock_guard lock(mutex_);
  CandidateCacheCounts out = counts_;
  std::sort(out.rejected.begin(), out.rejected.end());
  return out;
}

} // namespace dse
