// A floor under the DRAM words of the tensors that level 1 keeps (docs/HIERARCHY.md §7.3), for
// the bounds of the hierarchical search. With one instance of level 1, level 0's words of a
// tensor kept there are its level-1 tile times the trips of level 0's loops down to the innermost
// one that indexes it (twice that for the output, less its first arrivals): they depend on level
// 1's extents and level 0's order alone, not on the levels below. So the least of their sum over
// every level-1 extent vector whose tiles fit level 1 and every order of level 0 is a floor for
// every mapping of those extents, and the least over the multiples of given extents a floor for a
// subtree whose inner levels fix them. The per-tensor least deliveries cannot see that level 1
// is too small to hold everything; this floor can, so DRAM objectives cut subtrees before level 1
// is chosen.
#pragma once

#include <cstdint>
#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

class HierDramFloor {
public:
  /// The floor of the tensors `kept` (a bit per operator_tensors index) at level 1 of `hw`'s
  /// hierarchy, over the divisors of each of `dims`; `output_first_arrivals` is what level 0's
  /// reads of the output leave out (its elided first arrivals). Empty (a floor of 0) when the
  /// divisor lattice has more than `max_points` points.
  HierDramFloor(const Hardware &hw, const Workload &workload, const Operator &op,
                const std::vector<int> &dims, std::uint32_t kept, double output_first_arrivals,
                size_t max_points);

  /// The least DRAM words of the kept tensors over every level-1 extent vector that is, per
  /// dimension, a multiple of `extent` (indexed by workload dimension, each a divisor).
  double at_least(const std::vector<std::int64_t> &extent) const;

private:
  /// The least over level 0's orders of the kept tensors' words at level-1 extents `extent`,
  /// or infinity when their tiles do not fit level 1.
  double least_over_orders(const std::vector<std::int64_t> &extent) const;
  void build_table();

  const Workload &workload_;
  const Operator &op_;
  std::vector<int> dims_;
  std::uint32_t kept_;
  double output_first_arrivals_;
  double capacity_;
  std::vector<std::vector<std::int64_t>> divisors_; // per index of dims_, ascending
  std::vector<size_t> stride_;                      // mixed radix over dims_
  std::vector<double> table_;                       // per lattice point; empty: no floor
};

} // namespace dse
