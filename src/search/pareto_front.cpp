// Pareto front insertion: a sorted staircase for two objectives, a scan for more.
#include "dse/search/pareto_front.hpp"

#include <algorithm>
#include <tuple>

#include "dse/support/check.hpp"
#include "dse/support/error.hpp"

namespace dse {

Objective parse_objective(const std::string &name) {
  if (name == "latency")
    return Objective::Latency;
  if (name == "energy")
    return Objective::Energy;
  if (name == "edp")
    return Objective::Edp;
  if (name == "dram")
    return Objective::Dram;
  if (name == "buffer")
    return Objective::Buffer;
  throw UserError("unknown objective '" + name +
                  "'; expected latency, energy, edp, dram or buffer");
}

const char *objective_name(Objective o) {
  switch (o) {
  case Objective::Latency:
    return "latency";
  case Objective::Energy:
    return "energy";
  case Objective::Edp:
    return "edp";
  case Objective::Dram:
    return "dram";
  case Objective::Buffer:
    return "buffer";
  }
  return "?";
}

ParetoFront::ParetoFront(std::vector<Objective> objectives) : objectives_(std::move(objectives)) {
  if (objectives_.empty() || objectives_.size() > kMaxObjectives)
    throw UserError("expected between 1 and 4 objectives");
  for (size_t i = 0; i < objectives_.size(); ++i)
    fields_[i] = objective_field(objectives_[i]);
}

Objectives objectives_in_sequence(const Objectives &a, const Objectives &b) {
  Objectives o = a;
  o.latency_s += b.latency_s;
  o.energy_pj += b.energy_pj;
  o.dram_words += b.dram_words;
  o.buffer_words = std::max(o.buffer_words, b.buffer_words);
  o.edp = o.latency_s * o.energy_pj;
  return o;
}

std::vector<Objective> composable_objectives(const std::vector<Objective> &objectives) {
  std::vector<Objective> out;
  const auto add = [&out](Objective o) {
    if (std::find(out.begin(), out.end(), o) == out.end())
      out.push_back(o);
  };
  for (Objective o : objectives) {
    if (o == Objective::Edp) {
      add(Objective::Latency);
      add(Objective::Energy);
    } else {
      add(o);
    }
  }
  return out;
}

namespace {
bool lexicographically_less(const ParetoPoint &a, const ParetoPoint &b) {
  return std::tie(a.key, a.candidate, a.tiling) < std::tie(b.key, b.candidate, b.tiling);
}
} // namespace

bool ParetoFront::admits_nd(const Key &key, std::uint64_t candidate, std::uint64_t tiling) const {
  return std::none_of(points_.begin(), points_.end(), [&](const ParetoPoint &q) {
    return dominates(q.key, q.candidate, q.tiling, key, candidate, tiling);
  });
}

bool ParetoFront::insert(const ParetoPoint &p) {
  return objectives_.size() == 2 ? insert_2d(p) : insert_nd(p);
}

bool ParetoFront::insert_2d(const ParetoPoint &p) {
  // Invariant: key[0] strictly increasing, key[1] strictly decreasing.
  auto after = std::upper_bound(points_.begin(), points_.end(), p.key[0],
                                [](double k, const ParetoPoint &q) { return k < q.key[0]; });
  if (after != points_.begin() && dominates(*(after - 1), p))
    return false;
  auto first = std::lower_bound(points_.begin(), points_.end(), p.key[0],
                                [](const ParetoPoint &q, double k) { return q.key[0] < k; });
  auto last = first;
  while (last != points_.end() && dominates(p, *last))
    ++last;
  const auto from = first - points_.begin();
  first_keys_.erase(first_keys_.begin() + from, first_keys_.begin() + (last - points_.begin()));
  first_keys_.insert(first_keys_.begin() + from, p.key[0]);
  const auto at = points_.insert(points_.erase(first, last), p);
  // The staircase order, checked at the insertion point only (the rest is unchanged).
  DSE_CHECK(at == points_.begin() ||
                ((at - 1)->key[0] < at->key[0] && (at - 1)->key[1] > at->key[1]),
            "a two-objective front point out of staircase order with its predecessor");
  DSE_CHECK(at + 1 == points_.end() ||
                (at->key[0] < (at + 1)->key[0] && at->key[1] > (at + 1)->key[1]),
            "a two-objective front point out of staircase order with its successor");
  return true;
}

bool ParetoFront::insert_nd(const ParetoPoint &p) {
  for (const ParetoPoint &q : points_)
    if (dominates(q, p))
      return false;
  std::erase_if(points_, [&](const ParetoPoint &q) { return dominates(p, q); });
  const auto place = std::lower_bound(points_.begin(), points_.end(), p, lexicographically_less);
  const auto at = points_.insert(place, p);
  DSE_CHECK((at == points_.begin() || lexicographically_less(*(at - 1), *at)) &&
                (at + 1 == points_.end() || lexicographically_less(*at, *(at + 1))),
            "a front point out of order with its neighbours");
  return true;
}

void ParetoFront::merge(const ParetoFront &other) {
  if (&other == this)
    return;
  for (const ParetoPoint &p : other.points_)
    insert(p);
}

} // namespace dse
