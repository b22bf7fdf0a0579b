// The vector work of a softmax or elementwise operator attached to an einsum, on a hierarchy of
// any depth, run as its own pass after the einsum: its operations on the compute units and, for a
// softmax, which needs whole rows, a pass over the scores through the backing store (their words
// read and the probabilities' written back, as the legacy model's softmax pass). An elementwise
// operator moves no extra words. A network's vector and movement nodes run alone are passes too,
// their operands read from and written to the backing store.
#pragma once

#include <vector>

#include "dse/ir/hardware.hpp"
#include "dse/ir/workload.hpp"
#include "dse/model/cost.hpp"

namespace dse {

struct HierVectorPass {
  double elements = 0;     // of the tensor the operator reads
  double vector_ops = 0;   // ops_per_element * elements
  double dram_reads = 0;   // level 0's reads (softmax: the scores)
  double dram_updates = 0; // level 0's updates (softmax: the probabilities)
  double compute_cycles = 0;
  double transfer_cycles = 0; // level 0's time for its words
  double latency_cycles = 0;
  double energy_pj = 0;
};

/// Per operator of `workload` (by index): the words of the tensor an attached operator reads
/// (its einsum's output), 0 for einsums.
std::vector<double> attached_input_words(const Workload &workload);

/// The pass of attached operator `op` (softmax or elementwise) of `workload`, whose input has
/// `elements` words.
HierVectorPass evaluate_hier_vector_pass(const Hardware &hw, const Operator &op, double elements,
                                         LatencyModel latency_model);

/// A pass of `vector_ops` operations on the compute units that reads `dram_reads` words from the
/// backing store (level 0) and writes `dram_updates` words there (`elements` left 0).
HierVectorPass evaluate_hier_pass(const Hardware &hw, double vector_ops, double dram_reads,
                                  double dram_updates, LatencyModel latency_model);

} // namespace dse
