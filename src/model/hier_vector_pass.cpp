// The pass of a softmax or elementwise operator on a general hierarchy.
#include "dse/model/hier_vector_pass.hpp"

#include <algorithm>

#include "dse/ir/chain.hpp"
#include "dse/model/hier_cost.hpp"

namespace dse {

HierVectorPass evaluate_hier_vector_pass(const Hardware &hw, const Operator &op, double elements,
                                         LatencyModel latency_model) {
  const bool softmax = op.kind == OpKind::Softmax;
  HierVectorPass p = evaluate_hier_pass(hw, op.ops_per_element * elements, softmax ? elements : 0,
                                        softmax ? elements : 0, latency_model);
  p.elements = elements;
  return p;
}

HierVectorPass evaluate_hier_pass(const Hardware &hw, double vector_ops, double dram_reads,
                                  double dram_updates, LatencyModel latency_model) {
  HierVectorPass p;
  p.vector_ops = vector_ops;
  p.dram_reads = dram_reads;
  p.dram_updates = dram_updates;
  const Hierarchy &h = hw.hierarchy;
  p.compute_cycles = p.vector_ops / static_cast<double>(h.compute_units());
  p.transfer_cycles = backing_store_cycles(hw, p.dram_reads, p.dram_updates);
  p.latency_cycles = latency_model == LatencyModel::Roofline
                         ? std::max(p.compute_cycles, p.transfer_cycles)
                         : p.compute_cycles + p.transfer_cycles;
  p.energy_pj = p.vector_ops * h.mac_pj + p.dram_reads * h.levels[0].read_pj +
                p.dram_updates * h.levels[0].update_pj;
  return p;
}

std::vector<double> attached_input_words(const Workload &workload) {
  std::vector<double> words(workload.ops.size(), 0);
  for (const ChainLink &link : workload_links(workload)) {
    double elements = 1;
    for (const IndexExpr &index :
         workload.ops[static_cast<size_t>(link.einsum_op)].einsum.output.indices) {
      double span = 1;
      for (const IndexTerm &term : index.terms)
        span +=
            static_cast<double>(term.coef) * static_cast<double>(workload.dim_size(term.dim) - 1);
      elements *= span;
    }
    for (int attached : link.attached_ops)
      words[static_cast<size_t>(attached)] = elements;
  }
  return words;
}

} // namespace dse
