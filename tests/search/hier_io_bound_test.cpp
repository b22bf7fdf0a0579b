// Rung 3 of the validation ladder for general hierarchies: no mapping moves fewer DRAM words than
// the I/O lower bound of a GEMM with the words it keeps on chip. On seeded random hierarchies and
// legal mappings (tests/model/hier_random.hpp), level 0's reads and updates are at least
// max(MK + KN + MN, 2MNK / sqrt(S) - 2S), S the words the mapping holds on chip (its tiles on
// every on-chip level, and three words per compute unit), with first-read elision on and off; and
// the searched front's fewest DRAM words are at least the bound with S = every on-chip word of the
// hardware.
#include <gtest/gtest.h>

#include "common/workloads.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/search/hier_search.hpp"
#include "dse/search/sweep.hpp"
#include "model/hier_random.hpp"

namespace dse {
namespace {

double dram_words(const HierCost &cost) {
  double words = 0;
  for (const std::optional<HierTensorCounts> &t : cost.levels[0].tensors)
    if (t)
      words += t->reads + t->updates;
  return words;
}

/// The words a mapping holds on chip: its tiles on every on-chip level (per instance times
/// instances), and the two operands and the sum each compute unit holds while it multiplies (a
/// multicast word is held by every unit it reaches: without them, a mapping that streams every
/// tensor past the levels would seem to beat the bound).
double on_chip_words_used(const Hardware &hw, const HierCost &cost) {
  double words = 3 * static_cast<double>(hw.hierarchy.compute_units());
  for (size_t l = 1; l < cost.levels.size(); ++l)
    words += cost.levels[l].buffer_words * static_cast<double>(cost.levels[l].instances);
  return words;
}

TEST(HierIoBound, RandomGemmMappingsNeverBeatTheBound) {
  for (std::uint64_t seed = 0; seed < 400; ++seed) {
    const hier_random::Case c = hier_random::random_case(seed, hier_random::EinsumKind::Gemm);
    const Operator &op = c.workload.ops[0];
    for (bool elision : {true, false}) {
      const HierCost cost = evaluate_hier_mapping(c.hardware, c.workload, op, c.mapping, elision,
                                                  LatencyModel::Roofline);
      const std::optional<double> bound =
          gemm_io_lower_bound(c.workload, on_chip_words_used(c.hardware, cost));
      ASSERT_TRUE(bound.has_value());
      EXPECT_GE(dram_words(cost), *bound) << hier_random::describe(c);
    }
  }
}

TEST(HierIoBound, TheSearchedFrontNeverBeatsTheBound) {
  Hardware hw;
  hw.name = "small";
  StorageLevel dram{"DRAM", std::nullopt, 2.0, std::nullopt, std::nullopt,
                    100,    100,          100, false,        role::kAll};
  StorageLevel gb{"GB", 64, 8.0, std::nullopt, std::nullopt, 6, 6, 6, false, role::kAll};
  StorageLevel rf{"RF", 4, std::nullopt, std::nullopt, std::nullopt, 1, 1, 1, false, role::kAll};
  hw.hierarchy.levels = {dram, gb, rf};
  hw.hierarchy.fanouts = {{}, {Fanout{"mesh", 2, 2, true, true}}, {}};
  hw.hierarchy.mac_pj = 1;
  const Workload w = parse_workload(test_common::gemm_workload("g", 32, 16, 32), "g.yaml");
  HierSearchOptions options;
  options.objectives = {Objective::Dram, Objective::Latency};
  const HierSearchResult r = search_hier_front(hw, w, w.ops[0], options);
  ASSERT_FALSE(r.front.empty());
  EXPECT_EQ(hier_on_chip_words(hw.hierarchy), 64 + 4 * 4 + 3 * 4);
  EXPECT_GE(r.front.front().objectives.dram_words,
            *gemm_io_lower_bound(w, hier_on_chip_words(hw.hierarchy)));
}

} // namespace
} // namespace dse
