// The counts, cycles and energy of a fused pair's mapping on a hierarchy of any depth
// (docs/HIERARCHY.md §8): level 0 and level 1's fills by the one-level model's retention-depth
// formulas, every inner count by the closed forms of §4 with the prefix as a scope boundary, the
// intermediate produced into and read from level 1. The cost is the sum of three parts that the
// search takes apart: what the loop tree and the level-1 tiles decide, and each operator's nest
// below level 0.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/model/cost.hpp"
#include "dse/model/fused_hier_mapping.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/metrics.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

/// HierCost with its per-level tensors indexed by problem tensor (Problem::tensors), plus the
/// vector work of the attached operators (an attached softmax is fused: no pass through level 0).
struct FusedHierCost {
  /// levels[l].buffer_words: level 1's words by the one-level rule (the larger of the two
  /// operators' live words, the intermediate and an online softmax's state included); an inner
  /// level's, the larger of the two operators' kept tiles.
  /// levels[l].instances: the larger of the two operators' utilised instances.
  HierCost totals;
  std::vector<double> macs; // per problem op, recompute included
  double vector_ops = 0;    // of the attached operators, recompute included
};

/// The level-1 extent and level-0 trips of every workload dimension (1 and 1 for dimensions the
/// pair does not use).
struct FusedTiles {
  std::vector<std::int64_t> extent;
  std::vector<std::int64_t> trips;
};

/// The tiles of `mapping`'s operators.
FusedTiles fused_tiles(const Problem &problem, const FusedHierMapping &mapping);

/// What the loop tree and the level-1 tiles decide: level 0's reads and updates and level 1's
/// tiles and fills per problem tensor, level 1's words, the attached operators' work.
struct FusedOuterCost {
  HierLevelCost dram;
  HierLevelCost level1; // reads and updates 0: the operators' nests give them
  double vector_ops = 0;
};

/// What of the outer part depends on the loop tree only: the one-level model's symbolic traffic
/// and footprint per problem tensor, live words per operator and the attached operators' work
/// (docs/DESIGN.md §4.2), evaluated at each tiling.
struct FusedOuterForms {
  std::vector<TensorTraffic> traffic;
  std::vector<Posynomial> live_words;
  Posynomial vector_ops;
};

FusedOuterForms fused_outer_forms(const Hardware &hw, const Problem &problem,
                                  const Dataflow &outer);

FusedOuterCost fused_outer_cost(const Problem &problem, const FusedOuterForms &forms,
                                const FusedTiles &tiles, bool first_read_elision);

/// What every divisor tiling whose level-1 atoms (atom_table at the workload's sizes, rows and
/// columns 1) lie between `lo` and `hi` is at least in every count of the outer part and in level
/// 1's words (each form at its least over the box, least_value).
FusedOuterCost fused_outer_cost_bound(const Problem &problem, const FusedOuterForms &forms,
                                      const AtomTable &lo, const AtomTable &hi,
                                      bool first_read_elision);

/// Everything an operator's nest below level 0 reads of the loop tree besides the level-1
/// extents: per operator tensor, the trips of level 0's loops from the outermost down to the
/// innermost one that indexes it (1 if none; a prefix loop indexes every tensor), the trips of
/// all of level 0's loops, and the productions (the recompute trips of a producer, else 1). Two
/// trees with the same values give every nest the same cost.
struct FusedLevel0Trips {
  FixedVector<double, 3> to_last_indexing; // per operator tensor (operator_tensors order)
  double all = 1;
  double productions = 1;
};

FusedLevel0Trips fused_level0_trips(const Problem &problem, const Dataflow &outer,
                                    const FusedTiles &tiles, int o);

/// What operator `o`'s nest below level 0 decides: per level >= 1 its counts per operator tensor
/// (level 1: its reads and updates; tiles and fills are the outer part's), its MACs and
/// utilised compute units.
struct FusedOperatorCost {
  std::vector<HierLevelCost> levels; // [level]; level 0 empty
  double macs = 0;
  double utilised_units = 1;
};

/// `mapping`: operator o's nest (its level-0 factors and order are not read: the loop tree and
/// `tiles` give them).
FusedOperatorCost fused_operator_cost(const Hardware &hw, const Problem &problem,
                                      const Dataflow &outer, const FusedTiles &tiles, int o,
                                      const OpMapping &mapping, bool first_read_elision);

/// The same into `cost`, its storage reused (the searches evaluate millions of nests).
void fused_operator_cost(const Hardware &hw, const Problem &problem, const Dataflow &outer,
                         const FusedTiles &tiles, int o, const OpMapping &mapping,
                         bool first_read_elision, FusedOperatorCost &cost);

/// Whether the nest's kept tiles fit every level below level 1 (level 1's words are the outer
/// part's).
bool fused_operator_fits(const Hardware &hw, const FusedOperatorCost &cost);

/// The pair's cost from its parts.
FusedHierCost combine_fused_cost(const Hardware &hw, const Problem &problem,
                                 const FusedOuterCost &outer, const FusedOperatorCost &producer,
                                 const FusedOperatorCost &consumer, LatencyModel latency_model);

/// The same into `cost`, its storage reused (the search bounds millions of partial mappings).
void combine_fused_cost(const Hardware &hw, const Problem &problem, const FusedOuterCost &outer,
                        const FusedOperatorCost &producer, const FusedOperatorCost &consumer,
                        LatencyModel latency_model, FusedHierCost &cost);

/// Evaluates a legal (fused_hier_mapping_problem) `mapping` of fused `problem` on `hw.hierarchy`;
/// capacities are not checked here (compare buffer_words with the levels' capacities).
FusedHierCost evaluate_fused_hier_mapping(const Hardware &hw, const Problem &problem,
                                          const FusedHierMapping &mapping, bool first_read_elision,
                                          LatencyModel latency_model);

} // namespace dse
