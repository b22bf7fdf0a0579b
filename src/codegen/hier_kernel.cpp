// General-hierarchy mappings as kernel segments: the loop tree and tiles of level 0 and level 1,
// and the hierarchical model's counts of level 0 beside them.
#include "dse/codegen/hier_kernel.hpp"

#include <algorithm>

#include "dse/ir/chain.hpp"
#include "dse/model/fused_hier_cost.hpp"
#include "dse/model/hier_cost.hpp"
#include "dse/model/hier_mapping_check.hpp"
#include "dse/model/hier_vector_pass.hpp"

namespace dse {

namespace {

/// Level 1 keeps every tensor of `op`: the kernel holds every tile in its arena.
void require_level1_keeps_all(const Hardware &hw, const Operator &op, const OpMapping &mapping) {
  const OperatorTensors tensors = operator_tensors(op);
  for (size_t i = 0; i < tensors.size(); ++i)
    if ((mapping.levels[1].keep >> i & 1U) == 0)
      throw UserError("dse emit/run: op '" + op.name + "' bypasses level 1 '" +
                      hw.hierarchy.levels[1].name + "' for '" + tensors[i]->tensor +
                      "'; a kernel holds every tile at level 1");
}

/// The loops of level 0 with more than one trip, in its order, then the problem op's other
/// tiled dimensions (one trip each). A window dimension may not loop at level 0.
std::vector<int> level0_nest(const Workload &workload, const ProblemOp &op,
                             const LevelMapping &level0) {
  std::vector<int> nest;
  for (int d : level0.order) {
    if (level0.factor[static_cast<size_t>(d)] == 1)
      continue;
    if (std::find(op.tiled_dims.begin(), op.tiled_dims.end(), d) == op.tiled_dims.end())
      throw UserError(
          "dse emit/run: op '" + workload.ops[static_cast<size_t>(op.workload_op)].name +
          "' loops over window dimension '" + workload.dims[static_cast<size_t>(d)].name +
          "' at level 0; a kernel holds the whole window at level 1");
    nest.push_back(d);
  }
  for (int d : op.tiled_dims)
    if (std::find(nest.begin(), nest.end(), d) == nest.end())
      nest.push_back(d);
  return nest;
}

/// The depth right below the innermost loop of `nest` with more than one trip that indexes
/// `access`, 0 when none does: level 1's tile changes exactly when such a loop steps.
int innermost_indexing_depth(const std::vector<int> &nest, const std::vector<std::int64_t> &trips,
                             const TensorAccess &access) {
  for (size_t i = nest.size(); i > 0; --i)
    if (trips[static_cast<size_t>(nest[i - 1])] > 1 && access.uses(nest[i - 1]))
      return static_cast<int>(i);
  return 0;
}

/// The problem's tiles: every dimension's extent inside level 0.
Tiling level1_tiling(const Workload &workload, const OpMapping &mapping) {
  Tiling tiling;
  for (size_t d = 0; d < workload.dims.size(); ++d)
    tiling.tile.push_back(fused_level1_extent(mapping, static_cast<int>(d)));
  return tiling;
}

double seconds(const Hardware &hw, double cycles) { return cycles / (hw.clock_ghz * 1e9); }

void add_words(KernelSegmentCounts &c, const std::string &name, double reads, double writes) {
  c.counts.push_back({name, "reads", reads});
  c.counts.push_back({name, "writes", writes});
}

/// Level 0's reads and updates of a tensor. The output of an einsum that starts from `residual`:
/// the model counts the residual's words as the first read of each output element, one per
/// padded element over the run (level 0's tile is the padded tensor: per dimension its level-1
/// `extent` times its level-0 `trips`); the kernel counts them apart, as the residual's reads.
void add_level0_words(KernelSegmentCounts &c, const ProblemTensor &tensor,
                      const HierTensorCounts &counts, const std::string &residual,
                      const std::vector<std::int64_t> &extent,
                      const std::vector<std::int64_t> &trips) {
  if (residual.empty()) {
    add_words(c, tensor.name, counts.reads, counts.updates);
    return;
  }
  std::vector<std::int64_t> padded(extent.size());
  for (size_t d = 0; d < padded.size(); ++d)
    padded[d] = extent[d] * trips[d];
  const double first_reads = tensor.access.words(padded);
  add_words(c, tensor.name, counts.reads - first_reads, counts.updates);
  add_words(c, residual_counter(residual), first_reads, 0);
}

/// The residual the problem's tensor `t` starts from: the last operator's residual for its
/// output, none otherwise.
const std::string &residual_of(const Problem &problem, size_t t) {
  static const std::string none;
  const ProblemTensor &tensor = problem.tensors[t];
  const int last = static_cast<int>(problem.ops.size()) - 1;
  return tensor.role == TensorRole::Output && tensor.owner == last
             ? problem.op(last).einsum.residual
             : none;
}

} // namespace

void require_kernel_hardware(const Hardware &hw) {
  const Hierarchy &h = hw.hierarchy;
  const SourceLocation where{hw.source_file, 0, 0};
  if (h.instances(1) != 1)
    throw UserError(where, "dse emit/run: level 1 '" + h.levels[1].name + "' of '" + hw.name +
                               "' has " + std::to_string(h.instances(1)) +
                               " instances; a kernel runs level 1 as one arena");
  constexpr std::uint8_t kTiles = role::kOutput | role::kOperand0 | role::kOperand1;
  if ((h.levels[1].holds & kTiles) != kTiles)
    throw UserError(where, "dse emit/run: level 1 '" + h.levels[1].name + "' of '" + hw.name +
                               "' may not hold every operand and result; a kernel holds every "
                               "tile there");
  if (!h.first_read_elision)
    throw UserError(where, "dse emit/run: '" + hw.name +
                               "' counts a read of every partial sum's first arrival "
                               "(first_read_elision: false), which a kernel never makes");
}

HierKernelSegment hier_einsum_kernel_segment(const Hardware &hw, const Workload &workload, int op,
                                             const OpMapping &mapping, LatencyModel latency_model) {
  require_kernel_hardware(hw);
  const Operator &einsum = workload.ops[static_cast<size_t>(op)];
  require_level1_keeps_all(hw, einsum, mapping);
  const ChainLink link = einsum_link(workload, op);
  HierKernelSegment k;
  ResolvedSegment &s = k.segment;
  s.problem = make_single_problem(workload, link);
  const std::vector<std::int64_t> &trips = mapping.levels[0].factor;
  Dataflow df;
  df.subnests = {level0_nest(workload, s.problem.ops[0], mapping.levels[0])};
  for (const ProblemTensor &t : s.problem.tensors)
    df.retention.push_back(innermost_indexing_depth(df.subnests[0], trips, t.access));
  s.candidate = {df, {SpatialMapping{}}};
  s.tiling = level1_tiling(workload, mapping);

  const HierCost cost = evaluate_hier_mapping(hw, workload, einsum, mapping, true, latency_model);
  k.predicted.label = kernel_segment_label(s.problem);
  const OperatorTensors tensors = operator_tensors(einsum);
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto t = static_cast<size_t>(s.problem.ops[0].tensors[i]); // the same order
    add_level0_words(k.predicted, s.problem.tensors[t], *cost.levels[0].tensors[i],
                     residual_of(s.problem, t), s.tiling.tile, trips);
  }
  k.predicted.counts.push_back({einsum.name, "macs", cost.macs});
  k.latency_s = seconds(hw, cost.latency_cycles);
  const std::vector<double> attached_words = attached_input_words(workload);
  for (int attached : link.attached_ops) {
    const HierVectorPass pass =
        evaluate_hier_vector_pass(hw, workload.ops[static_cast<size_t>(attached)],
                                  attached_words[static_cast<size_t>(attached)], latency_model);
    if (pass.dram_reads > 0 || pass.dram_updates > 0)
      add_words(k.predicted, kSoftmaxPassCounter, pass.dram_reads, pass.dram_updates);
    k.latency_s += seconds(hw, pass.latency_cycles);
  }
  return k;
}

HierKernelSegment hier_fused_kernel_segment(const Hardware &hw, const Problem &problem,
                                            const FusedHierMapping &mapping,
                                            LatencyModel latency_model) {
  require_kernel_hardware(hw);
  HierKernelSegment k;
  ResolvedSegment &s = k.segment;
  s.problem = problem;
  s.candidate = {mapping.outer, std::vector<SpatialMapping>(problem.ops.size())};
  const FusedTiles tiles = fused_tiles(problem, mapping);
  s.tiling.tile = tiles.extent;

  const FusedHierCost cost = evaluate_fused_hier_mapping(hw, problem, mapping, true, latency_model);
  if (const std::optional<std::string> why = hier_capacity_violation(hw, cost.totals))
    throw UserError(*why);
  k.predicted.label = kernel_segment_label(problem);
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    if (const std::optional<HierTensorCounts> &c = cost.totals.levels[0].tensors[t])
      add_level0_words(k.predicted, problem.tensors[t], *c, residual_of(problem, t), tiles.extent,
                       tiles.trips);
  for (size_t o = 0; o < problem.ops.size(); ++o)
    k.predicted.counts.push_back({problem.op(static_cast<int>(o)).name, "macs", cost.macs[o]});
  k.latency_s = seconds(hw, cost.totals.latency_cycles);
  return k;
}

std::vector<HierKernelSegment> hier_plan_kernel_segments(const Hardware &hw,
                                                         const Workload &workload,
                                                         const HierExploreResult &result,
                                                         const HierPlan &plan,
                                                         LatencyModel latency_model) {
  std::vector<HierKernelSegment> segments;
  for (const HierPlanPart &part : plan.parts) {
    const HierSegmentFront &s = result.segments[part.segment];
    if (s.pair)
      segments.push_back(
          hier_fused_kernel_segment(hw, *s.pair, s.fused.front[part.point].mapping, latency_model));
    else if (!s.pass)
      segments.push_back(hier_einsum_kernel_segment(
          hw, workload, s.ops.front(), s.search.front[part.point].mapping, latency_model));
  }
  return segments;
}

} // namespace dse
