// The mapping space of one operator on a hierarchy of any depth (docs/HIERARCHY.md §5.3): spatial
// rows (one factor per fan-out and dimension, with one packing onto the axes), keep vectors, and
// per level the loop orders, with the order dominance of §6.1 that keeps one order per class of
// equal counts and drops orders that are never better; each within the hardware's mapspace
// constraints (§2.2).
#pragma once

#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/hier_mapping_check.hpp"

namespace dse {

/// Divisors of `n` in increasing order.
std::vector<std::int64_t> divisors(std::int64_t n);

/// Every assignment of spatial factors to the fan-outs (indexed as Hierarchy::fanouts) whose
/// per-dimension products divide the operator's dimensions, with each fan-out's x and y products
/// within its sides; one packing per distinct set of factors (the counts depend on the factors
/// only), fan-outs without `reduction` never spread a summed dimension. A fan-out's mapspace rule
/// restricts the dimensions on each axis and the packings (one axis per dimension), and drops
/// assignments below its least utilisation.
std::vector<std::vector<std::vector<FanoutMapping>>>
spatial_rows(const Hierarchy &h, const Workload &workload, const Operator &op);

/// The indices of `rows` in decreasing utilisation (the product of their factors over `dims`;
/// ties in row order): searched in this order, a front fills early.
std::vector<size_t>
rows_by_utilisation(const std::vector<std::vector<std::vector<FanoutMapping>>> &rows,
                    const std::vector<int> &dims);

/// Every keep vector: per level a mask over operator_tensors(op) that respects the level's
/// `holds` and the keep and bypass of its mapspace rule; level 0 keeps everything.
std::vector<std::vector<std::uint32_t>> keep_vectors(const Hierarchy &h, const Workload &workload,
                                                     const Operator &op);

/// Loop orders (outer to inner) of the dimensions `present` at one level that keep the relative
/// order of `rule`. Unpruned: every such permutation. Pruned (§6.1): a count depends on the order
/// only through, per tensor, the set of loops that do not index it placed outside its innermost
/// indexing loop; only orders whose sets are minimal among the allowed ones are kept, the first of
/// each class of equal sets.
std::vector<std::vector<int>> level_orders(const Operator &op, const std::vector<int> &present,
                                           bool prune, const LevelConstraint &rule = {});

} // namespace dse
