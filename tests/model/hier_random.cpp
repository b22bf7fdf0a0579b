// Random hierarchies, einsums and legal mappings for the hierarchical model's tests, and a
// one-screen description of a case for failure messages.
#include "model/hier_random.hpp"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"

namespace dse::hier_random {

std::int64_t uniform(std::mt19937_64 &rng, std::int64_t lo, std::int64_t hi) {
  return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng);
}

bool coin(std::mt19937_64 &rng) { return uniform(rng, 0, 1) == 1; }

namespace {

StorageLevel random_level(std::mt19937_64 &rng, int index, const HierarchyLimits &limits) {
  StorageLevel level;
  level.name = index == 0 ? "DRAM" : "L" + std::to_string(index);
  if (index > 0) {
    level.capacity_words = limits.capacity_words;
    level.holds = static_cast<std::uint8_t>(uniform(rng, 0, role::kAll));
  }
  const double read_pj = index == 0 ? 100.0 : 8.0 / index;
  level.read_pj = read_pj;
  level.fill_pj = read_pj * 1.25;
  level.update_pj = read_pj * 1.5;
  return level;
}

Fanout random_fanout(std::mt19937_64 &rng, size_t gap, size_t index,
                     const HierarchyLimits &limits) {
  Fanout fanout;
  fanout.name = "f" + std::to_string(gap) + "." + std::to_string(index);
  fanout.x = uniform(rng, 1, limits.max_side);
  fanout.y = uniform(rng, 1, limits.max_side);
  fanout.multicast = coin(rng);
  fanout.reduction = coin(rng);
  return fanout;
}

std::vector<std::int64_t> prime_factors(std::int64_t n) {
  std::vector<std::int64_t> primes;
  for (std::int64_t p = 2; p * p <= n; ++p)
    for (; n % p == 0; n /= p)
      primes.push_back(p);
  if (n > 1)
    primes.push_back(n);
  return primes;
}

std::int64_t product(const std::vector<std::int64_t> &factors) {
  std::int64_t p = 1;
  for (std::int64_t f : factors)
    p *= f;
  return p;
}

/// Multiplies `prime` into dimension `dim` of the block of a random level from `first_level` on
/// or of a random fan-out axis below it that still has room for it (and that may reduce when
/// `dim` is summed over).
void place_prime(std::mt19937_64 &rng, const Hierarchy &hierarchy, OpMapping &mapping, int dim,
                 std::int64_t prime, bool summed, size_t first_level) {
  std::vector<std::vector<std::int64_t> *> places;
  for (size_t l = first_level; l < mapping.levels.size(); ++l)
    places.push_back(&mapping.levels[l].factor);
  for (size_t gap = first_level; gap < hierarchy.fanouts.size(); ++gap)
    for (size_t f = 0; f < hierarchy.fanouts[gap].size(); ++f) {
      const Fanout &fanout = hierarchy.fanouts[gap][f];
      FanoutMapping &axes = mapping.fanouts[gap][f];
      if (summed && !fanout.reduction)
        continue;
      if (product(axes.x) * prime <= fanout.x)
        places.push_back(&axes.x);
      if (product(axes.y) * prime <= fanout.y)
        places.push_back(&axes.y);
    }
  const auto pick =
      static_cast<size_t>(uniform(rng, 0, static_cast<std::int64_t>(places.size()) - 1));
  (*places[pick])[static_cast<size_t>(dim)] *= prime;
}

/// Spreads the prime factors of dimension `dim`, one time in four padded by up to its size less
/// one, over the nest (drawn again until what lies inside level 0 fits the dimension); level 0
/// then takes ceil(size / inside), padding as §3.1 says.
void spread_dimension(std::mt19937_64 &rng, const Hierarchy &hierarchy, OpMapping &mapping, int dim,
                      std::int64_t size, bool summed) {
  const std::int64_t padded = uniform(rng, 0, 3) == 0 ? uniform(rng, size, 2 * size - 1) : size;
  OpMapping spread;
  do {
    spread = mapping;
    spread_factor(rng, hierarchy, spread, dim, padded, summed, 0);
  } while (inner_product(spread, dim) > size);
  const std::int64_t inner = inner_product(spread, dim);
  spread.levels[0].factor[static_cast<size_t>(dim)] = (size + inner - 1) / inner;
  mapping = std::move(spread);
}

std::string factors_text(const std::vector<std::int64_t> &factors, const Workload &workload) {
  std::string text;
  for (size_t d = 0; d < factors.size(); ++d)
    if (factors[d] > 1)
      text += (text.empty() ? "" : " ") + workload.dims[d].name + std::to_string(factors[d]);
  return text;
}

std::string level_text(const StorageLevel &level, const LevelMapping &mapping, const Operator &op,
                       const Workload &workload) {
  std::ostringstream text;
  text << level.name << " keep {";
  const OperatorTensors tensors = operator_tensors(op);
  const char *separator = "";
  for (size_t t = 0; t < tensors.size(); ++t)
    if ((mapping.keep >> t & 1u) != 0) {
      text << separator << tensors[t]->tensor;
      separator = ",";
    }
  text << "} order [";
  for (size_t i = 0; i < mapping.order.size(); ++i)
    text << (i > 0 ? "," : "") << workload.dims[static_cast<size_t>(mapping.order[i])].name;
  text << "] factors " << factors_text(mapping.factor, workload);
  return text.str();
}

std::string fanout_text(const Fanout &fanout, const FanoutMapping &mapping,
                        const Workload &workload) {
  return "fanout " + fanout.name + " " + std::to_string(fanout.x) + "x" + std::to_string(fanout.y) +
         (fanout.multicast ? " mc" : " no-mc") + (fanout.reduction ? " rd" : " no-rd") + ": x{" +
         factors_text(mapping.x, workload) + "} y{" + factors_text(mapping.y, workload) + "}";
}

} // namespace

std::int64_t inner_product(const OpMapping &mapping, int dim) {
  std::int64_t inner = 1;
  for (size_t l = 1; l < mapping.levels.size(); ++l)
    inner *= mapping.levels[l].factor[static_cast<size_t>(dim)];
  for (const std::vector<FanoutMapping> &gap : mapping.fanouts)
    for (const FanoutMapping &fanout : gap)
      inner *= fanout.factor(dim);
  return inner;
}

void spread_factor(std::mt19937_64 &rng, const Hierarchy &hierarchy, OpMapping &mapping, int dim,
                   std::int64_t factor, bool summed, size_t first_level) {
  for (std::int64_t prime : prime_factors(factor))
    place_prime(rng, hierarchy, mapping, dim, prime, summed, first_level);
}

std::vector<int> random_order(std::mt19937_64 &rng, const LevelMapping &level, const Operator &op) {
  const bool list_all = coin(rng);
  std::vector<int> order;
  for (int dim : op.dims())
    if (list_all || level.factor[static_cast<size_t>(dim)] > 1)
      order.push_back(dim);
  std::shuffle(order.begin(), order.end(), rng);
  return order;
}

std::uint32_t random_keep(std::mt19937_64 &rng, const StorageLevel &level, const Operator &op,
                          size_t tensors) {
  std::uint32_t keep = 0;
  for (size_t t = 0; t < tensors; ++t)
    if ((level.holds & tensor_role(op, t)) != 0 && coin(rng))
      keep |= 1u << t;
  return keep;
}

std::string einsum_text(const Operator &op, const Workload &workload) {
  const auto access = [&workload](const TensorAccess &a) {
    std::string text = a.tensor + "[";
    for (size_t i = 0; i < a.indices.size(); ++i) {
      text += i > 0 ? "," : "";
      for (size_t j = 0; j < a.indices[i].terms.size(); ++j) {
        const IndexTerm &term = a.indices[i].terms[j];
        text += (j > 0 ? "+" : "") + (term.coef != 1 ? std::to_string(term.coef) + "*" : "") +
                workload.dims[static_cast<size_t>(term.dim)].name;
      }
    }
    return text + "]";
  };
  std::string text = access(op.einsum.output) + " +=";
  for (size_t i = 0; i < op.einsum.inputs.size(); ++i)
    text += (i > 0 ? " *" : "") + std::string(" ") + access(op.einsum.inputs[i]);
  return text;
}

OpMapping unit_mapping(const Hierarchy &hierarchy, size_t dims) {
  OpMapping mapping;
  mapping.levels.assign(hierarchy.levels.size(),
                        LevelMapping{{}, std::vector<std::int64_t>(dims, 1), 0});
  for (const std::vector<Fanout> &gap : hierarchy.fanouts)
    mapping.fanouts.emplace_back(gap.size(), FanoutMapping{std::vector<std::int64_t>(dims, 1),
                                                           std::vector<std::int64_t>(dims, 1)});
  return mapping;
}

std::string mapping_text(const Hierarchy &hierarchy, const OpMapping &mapping, const Operator &op,
                         const Workload &workload) {
  std::string text;
  for (size_t l = 0; l < hierarchy.levels.size(); ++l) {
    text += "\n  " + level_text(hierarchy.levels[l], mapping.levels[l], op, workload);
    for (size_t f = 0; f < hierarchy.fanouts[l].size(); ++f)
      text += "\n  " + fanout_text(hierarchy.fanouts[l][f], mapping.fanouts[l][f], workload);
  }
  return text;
}

Hardware random_hardware(std::mt19937_64 &rng, const HierarchyLimits &limits) {
  Hardware hw;
  hw.name = "random-hierarchy";
  Hierarchy &hierarchy = hw.hierarchy;
  const auto levels = static_cast<int>(uniform(rng, 1, limits.max_on_chip_levels)) + 1;
  for (int l = 0; l < levels; ++l) {
    hierarchy.levels.push_back(random_level(rng, l, limits));
    hierarchy.fanouts.emplace_back();
    const std::int64_t fanouts = uniform(rng, 0, limits.max_fanouts_per_gap);
    for (std::int64_t f = 0; f < fanouts; ++f)
      hierarchy.fanouts.back().push_back(
          random_fanout(rng, static_cast<size_t>(l), static_cast<size_t>(f), limits));
  }
  hierarchy.mac_pj = 1.0;
  return hw;
}

Workload random_workload(std::mt19937_64 &rng, EinsumKind kind) {
  using test_common::dim;
  switch (kind) {
  case EinsumKind::Gemm:
    return parse_workload(test_common::gemm_workload("random-gemm", uniform(rng, 1, 8),
                                                     uniform(rng, 1, 8), uniform(rng, 1, 8)),
                          "random.yaml");
  case EinsumKind::Conv1d:
    return parse_workload(
        test_common::workload_header("random-conv", dim("p", uniform(rng, 1, 8)) + ", " +
                                                        dim("r", uniform(rng, 1, 4))) +
            "  - {name: conv, einsum: \"O[p] += I[p+r] * W[r]\"}\n",
        "random.yaml");
  case EinsumKind::BatchedMatmul:
    return parse_workload(
        test_common::workload_header("random-bmm", dim("b", uniform(rng, 1, 3)) + ", " +
                                                       dim("m", uniform(rng, 1, 4)) + ", " +
                                                       dim("k", uniform(rng, 1, 4)) + ", " +
                                                       dim("n", uniform(rng, 1, 4))) +
            "  - {name: bmm, einsum: \"C[b,m,n] += A[b,m,k] * B[b,k,n]\"}\n",
        "random.yaml");
  }
  return {};
}

OpMapping random_mapping(std::mt19937_64 &rng, const Hierarchy &hierarchy, const Workload &workload,
                         const Operator &op) {
  OpMapping mapping = unit_mapping(hierarchy, workload.dims.size());
  for (int dim : op.dims())
    spread_dimension(rng, hierarchy, mapping, dim, workload.dim_size(dim),
                     !op.einsum.output.uses(dim));
  const size_t tensors = operator_tensors(op).size();
  for (size_t l = 0; l < mapping.levels.size(); ++l) {
    LevelMapping &level = mapping.levels[l];
    level.order = random_order(rng, level, op);
    level.keep = l == 0 ? (1u << tensors) - 1 : random_keep(rng, hierarchy.levels[l], op, tensors);
  }
  return mapping;
}

Case random_case(std::uint64_t seed, EinsumKind kind, const HierarchyLimits &limits) {
  std::mt19937_64 rng(seed);
  Case c{random_hardware(rng, limits), random_workload(rng, kind), {}};
  c.mapping = random_mapping(rng, c.hardware.hierarchy, c.workload, c.workload.ops[0]);
  return c;
}

std::string describe(const Case &c) {
  const Operator &op = c.workload.ops[0];
  std::ostringstream text;
  text << einsum_text(op, c.workload) << " with";
  for (const Dimension &d : c.workload.dims)
    text << " " << d.name << d.size;
  text << mapping_text(c.hardware.hierarchy, c.mapping, op, c.workload);
  return text.str();
}

} // namespace dse::hier_random
