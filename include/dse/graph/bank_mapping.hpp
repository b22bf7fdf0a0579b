// Bank (partition) mapping (Inferentia): which axis of every tensor is spread over the memory
// banks. Operators that need a specific axis (convolutions and pools on channels, matrix
// products on their contraction) fix it; the others pass it through (elementwise ops, views).
// The global mapping propagates these constraints to a fixed point and inserts a copy only
// where they conflict; the local mapping lets every operator pick its own axis.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/graph.hpp"

namespace dse {

struct PartitionPlan {
  std::vector<int> axis;           // per tensor; -1 for weights
  int copies = 0;                  // repartitioning copies inserted
  std::vector<std::string> copied; // "tensor -> axis k (for node)" per copy
};

struct BankMapping {
  PartitionPlan global;
  PartitionPlan local;
  int iterations = 0; // propagation sweeps until the fixed point
  int conflicts = 0;  // constraints cut because they contradicted the others
};

BankMapping map_banks(const Graph &graph);

} // namespace dse
