// Direct (non-matrix) evaluation of a mapping's posynomials and its detailed breakdown.
#include "dse/model/mapping_evaluation.hpp"

#include <algorithm>

namespace dse {

namespace {

double sum_of(const std::vector<Posynomial> &ps, const AtomTable &atoms) {
  double s = 0;
  for (const Posynomial &p : ps)
    s += evaluate(p, atoms);
  return s;
}

const char *role_name(TensorRole r) {
  switch (r) {
  case TensorRole::Input:
    return "input";
  case TensorRole::Output:
    return "output";
  case TensorRole::Intermediate:
    return "intermediate";
  }
  return "?";
}

} // namespace

MetricTotals evaluate_totals(const DataflowMetrics &dataflow, const ComputeMetrics &compute,
                             const AtomTable &atoms) {
  MetricTotals t;
  t.dram_reads = evaluate(dataflow.dram_reads, atoms);
  t.dram_writes = evaluate(dataflow.dram_writes, atoms);
  for (const Posynomial &bs : dataflow.buffer_words)
    t.buffer_words = std::max(t.buffer_words, evaluate(bs, atoms));
  t.gb_reads = evaluate(compute.gb_reads, atoms);
  t.gb_writes = evaluate(compute.gb_writes, atoms);
  t.macs = sum_of(compute.macs, atoms);
  t.cycles = sum_of(compute.cycles, atoms);
  t.vector_ops = evaluate(compute.vector_ops, atoms);
  return t;
}

MappingReport evaluate_mapping(const Problem &problem, const Candidate &candidate,
                               const Tiling &tiling, const Hardware &hw, LatencyModel model) {
  const bool db = hw.global_buffer().double_buffering;
  const DataflowMetrics dm = dataflow_metrics(problem, candidate.dataflow, db);
  const ComputeMetrics cm = compute_metrics(problem, candidate.dataflow.recompute_dims(problem),
                                            candidate.dataflow.cached, candidate.spatial);
  std::vector<std::int64_t> sizes;
  for (const Dimension &d : problem.workload->dims)
    sizes.push_back(d.size);
  const AtomTable atoms = atom_table(sizes, tiling, hw.effective_rows(), hw.effective_cols());

  MappingReport r;
  for (size_t t = 0; t < problem.tensors.size(); ++t) {
    const TensorTraffic traffic = tensor_traffic(problem, candidate.dataflow, static_cast<int>(t));
    r.tensors.push_back({problem.tensors[t].name, role_name(problem.tensors[t].role),
                         candidate.dataflow.retention[t], evaluate(traffic.footprint, atoms),
                         evaluate(traffic.reads, atoms), evaluate(traffic.writes, atoms)});
  }
  for (size_t o = 0; o < problem.ops.size(); ++o)
    if (const std::string &residual = problem.op(static_cast<int>(o)).einsum.residual;
        !residual.empty()) {
      const int output = problem.ops[o].tensors.back();
      r.tensors.push_back(
          {residual, "residual", candidate.dataflow.retention[static_cast<size_t>(output)], 0,
           evaluate(residual_reads(problem, candidate.dataflow, static_cast<int>(o)), atoms), 0});
    }
  const double array_size = static_cast<double>(hw.effective_rows() * hw.effective_cols());
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    OperatorReport op{problem.op(static_cast<int>(o)).name, evaluate(cm.macs[o], atoms),
                      evaluate(cm.cycles[o], atoms), 0, evaluate(dm.buffer_words[o], atoms)};
    op.utilisation = op.cycles > 0 ? op.macs / (op.cycles * array_size) : 0;
    r.operators.push_back(op);
  }
  r.softmax_pass_words = evaluate(softmax_pass_words(problem), atoms);
  r.overlap_store_words = evaluate(overlap_store_words(problem, candidate.dataflow), atoms);
  r.totals = evaluate_totals(dm, cm, atoms);
  const CostWeights w = cost_weights(hw, model);
  r.objectives = objectives(r.totals, w);
  r.latency_cycles = latency_parts(r.totals, w);
  const LatencyParts &lp = r.latency_cycles;
  r.bound = lp.compute_cycles >= std::max(lp.dram_cycles, lp.gb_cycles)
                ? "compute"
                : (lp.dram_cycles >= lp.gb_cycles ? "dram" : "gb");
  r.dma_units = dma_unit_loads(r.totals.dram_reads, r.totals.dram_writes, hw);
  const MemoryLevel &dram = hw.dram();
  const MemoryLevel &gb = hw.global_buffer();
  r.energy.mac_pj = hw.array.mac_energy_pj * r.totals.macs;
  r.energy.vector_pj = w.vector_op_pj * r.totals.vector_ops;
  r.energy.dram_pj =
      dram.read_energy_pj * r.totals.dram_reads + dram.write_energy_pj * r.totals.dram_writes;
  r.energy.global_buffer_pj = gb.write_energy_pj * (r.totals.dram_reads + r.totals.gb_writes) +
                              gb.read_energy_pj * (r.totals.dram_writes + r.totals.gb_reads);
  r.energy.register_file_pj = (w.mac_pj - hw.array.mac_energy_pj) * r.totals.macs;
  return r;
}

} // namespace dse
