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

std::shared_ptr<const CandidateSpace> CandidateCache::held(const std::string &key) const {
  std::lock_guard lock(mutex_);
  const auto it = spaces_.find(key);
  return it == spaces_.end() ? nullptr : it->second;
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
  if (auto space = held(key))
    return space;
  auto space = obtain(problem, key, double_buffering, pruning, allow_recompute);
  std::lock_guard lock(mutex_);
  return spaces_.emplace(key, std::move(space)).first->second;
}

void CandidateCache::prepare(const std::vector<const Problem *> &problems, bool double_buffering,
                             Pruning pruning, bool allow_recompute) {
  std::vector<std::string> keys;
  std::vector<const Problem *> missing;
  for (const Problem *p : problems) {
    std::string key = candidate_space_key(*p, double_buffering, pruning, allow_recompute);
    if (held(key) || std::find(keys.begin(), keys.end(), key) != keys.end())
      continue;
    keys.push_back(std::move(key));
    missing.push_back(p);
  }
  std::vector<std::shared_ptr<const CandidateSpace>> spaces(keys.size());
  tbb::parallel_for(size_t{0}, keys.size(), [&](size_t i) {
    spaces[i] = obtain(*missing[i], keys[i], double_buffering, pruning, allow_recompute);
  });
  std::lock_guard lock(mutex_);
  for (size_t i = 0; i < keys.size(); ++i)
    spaces_.emplace(keys[i], std::move(spaces[i]));
}

std::shared_ptr<const SymbolicMatrices>
CandidateCache::matrices(const Problem &problem,
                         const std::shared_ptr<const CandidateSpace> &space) {
  std::shared_ptr<MatricesEntry> entry;
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<MatricesEntry> &held = matrices_[space];
    if (!held)
      held = std::make_shared<MatricesEntry>();
    entry = held;
  }
  std::call_once(entry->built, [&] {
    entry->matrices = std::make_shared<const SymbolicMatrices>(symbolic_matrices(problem, *space));
  });
  return entry->matrices;
}

CandidateCacheCounts CandidateCache::counts() const {
  std::lock_guard lock(mutex_);
  CandidateCacheCounts out = counts_;
  std::sort(out.rejected.begin(), out.rejected.end());
  return out;
}

} // namespace dse
