// Segment planning: dimension extents, tile boxes and storage orders, register blocking, the
// softmax form, and the checks that refuse what cannot be executed exactly.
#include "dse/codegen/kernel_plan.hpp"

#include <algorithm>

#include "dse/model/dataflow.hpp"
#include "dse/support/contains.hpp"
#include "dse/support/error.hpp"
#include "halo_plan.hpp"
#include "operand_roles.hpp"
#include "schedule_steps.hpp"
#include "tile_shape.hpp"

namespace dse {

using codegen::halo_of;
using codegen::plan_halos;
using codegen::plan_overlap_stores;
using codegen::set_position_strides;
using codegen::shape_tile;

namespace {

constexpr int kDefaultLanes = 8;
constexpr int kMaxRegisterRows = 12;
constexpr int kDefaultRows = 6; // no register level declared: the classic 6 x 2-vector block

std::vector<DimPlan> plan_dims(const Problem &p, const Tiling &tiling) {
  std::vector<DimPlan> dims;
  for (size_t d = 0; d < p.workload->dims.size(); ++d) {
    DimPlan dim;
    dim.name = p.workload->dims[d].name;
    dim.size = p.workload->dims[d].size;
    dim.tile = p.is_window[d] ? dim.size : tiling.tile.at(d);
    dim.trips = (dim.size + dim.tile - 1) / dim.tile;
    dims.push_back(dim);
  }
  return dims;
}

TilePlan plan_tensor_tile(const Problem &p, const Dataflow &df, int tensor,
                          const std::vector<DimPlan> &dims, int contiguous, std::int64_t block) {
  const ProblemTensor &pt = p.tensors[static_cast<size_t>(tensor)];
  TilePlan t;
  t.tensor = tensor;
  t.name = pt.name;
  t.role = pt.role;
  t.access = pt.access;
  const std::vector<int> path = pt.role == TensorRole::Intermediate ? df.prefix : df.path(pt.owner);
  const auto depth = static_cast<std::ptrdiff_t>(df.retention[static_cast<size_t>(tensor)]);
  t.above.assign(path.begin(), path.begin() + depth);
  shape_tile(t, dims, contiguous, block);
  if (t.role == TensorRole::Output)
    for (int d : t.above)
      if (!t.access.uses(d))
        t.revisit_loops.push_back(d);
  return t;
}

/// The operator's loops in the micro-kernel: each dim of its iteration, or for a producer's
/// dim read through a window, the positions of its halo.
OpPlan plan_op(const Problem &p, int o, const codegen::OpRoles &r, int rows,
               const SegmentPlan &plan) {
  const ProblemOp &op = p.ops[static_cast<size_t>(o)];
  OpPlan out;
  out.name = p.op(o).name;
  out.a_tile = op.tensors[static_cast<size_t>(r.a_input)];
  out.b_tile = op.tensors[static_cast<size_t>(r.b_input)];
  out.c_tile = op.tensors.back();
  out.row_dim = r.row_dim;
  out.vec_dim = r.vec_dim;
  out.rows = rows;
  out.macs_per_tile = 1;
  const TensorAccess &c = op.accesses.back();
  for (const IndexExpr &e : op.iteration) {
    if (const int k = halo_of(plan.halos, o, e); k >= 0) {
      out.outer_dims.push_back(plan.halos[static_cast<size_t>(k)].position_dim);
      continue;
    }
    const int d = e.terms.front().dim;
    out.macs_per_tile *= plan.dims[static_cast<size_t>(d)].tile;
    if (!c.uses(d))
      out.reduction_dims.push_back(d);
    else if (d != r.row_dim && d != r.vec_dim)
      out.outer_dims.push_back(d);
  }
  return out;
}

void refuse_unsupported_ops(const Problem &p) {
  for (size_t o = 0; o < p.ops.size(); ++o) {
    const Operator &op = p.op(static_cast<int>(o));
    if (op.einsum.inputs.size() != 2)
      throw UserError("op '" + op.name +
                      "' has one input; the emitter executes two-input einsums only");
    for (int a : p.ops[o].attached_ops) {
      const Operator &attached = p.workload->ops.at(static_cast<size_t>(a));
      if (attached.kind == OpKind::Elementwise)
        throw UserError("elementwise op '" + attached.name +
                        "' names no function, so the emitter cannot execute it");
      if (p.ops.size() > 2)
        throw UserError("softmax op '" + attached.name + "' in a fused chain of " +
                        std::to_string(p.ops.size()) +
                        ": the emitter executes softmax on single operators and fused pairs only");
      if (p.fused() && o == 1)
        throw UserError("softmax op '" + attached.name + "' on the output of fused op '" + op.name +
                        "' is not executed: the model counts no pass for it");
      if (!p.halo_dims.empty())
        throw UserError("softmax op '" + attached.name + "' on '" + op.name +
                        "', fused through a window: the emitter executes no softmax over halos");
    }
  }
}

/// The online form keeps one running max and sum per row and rescales the consumer's output;
/// that is exact only when the normalised dim is the consumer's only reduction.
void check_online(const Problem &p, const Operator &softmax) {
  const std::vector<int> reductions = p.op(1).reduction_dims();
  const std::string over = p.dim_name(softmax.over_dim);
  if (!contains(reductions, softmax.over_dim))
    throw UserError("softmax '" + softmax.name + "' over '" + over +
                    "' is split by a prefix loop, but op '" + p.op(1).name +
                    "' does not reduce over it: rows cannot be normalised before they are used");
  if (reductions.size() != 1)
    throw UserError("online softmax over '" + over + "' needs it to be the only reduction of op '" +
                    p.op(1).name + "'");
}

SoftmaxPlan plan_softmax(const Problem &p, const Dataflow &df, SegmentPlan &plan) {
  SoftmaxPlan s;
  for (int a : p.ops[0].attached_ops)
    if (p.workload->ops.at(static_cast<size_t>(a)).kind == OpKind::Softmax)
      s.workload_op = a;
  if (s.workload_op < 0)
    return s;
  const Operator &softmax = p.workload->ops.at(static_cast<size_t>(s.workload_op));
  s.over_dim = softmax.over_dim;
  if (!p.fused()) {
    s.form = SoftmaxForm::Pass;
    s.pass_row_words = plan.dims[static_cast<size_t>(s.over_dim)].padded();
    return s;
  }
  const auto at = std::find(df.prefix.begin(), df.prefix.end(), s.over_dim);
  if (at == df.prefix.end()) {
    s.form = SoftmaxForm::Whole;
    return s;
  }
  check_online(p, softmax);
  s.form = SoftmaxForm::Online;
  s.over_position = static_cast<int>(at - df.prefix.begin());
  s.output_tile = p.ops[1].tensors.back();
  for (auto it = at + 1; it != df.prefix.end(); ++it)
    if (contains(p.recompute_dims, *it))
      s.update_loops.push_back(*it);
  // The state: max, sum and last scale of every row the dim's loop sweeps, in the intermediate's
  // storage order without the normalised dim.
  const TilePlan &inter = plan.tiles[static_cast<size_t>(p.links.front().intermediate)];
  TilePlan state;
  state.name = "softmax state";
  state.role = TensorRole::Intermediate;
  state.above.assign(df.prefix.begin(), at);
  int contiguous = -1;
  for (int pos : inter.order) {
    const IndexExpr &e = inter.access.indices[static_cast<size_t>(pos)];
    if (e.terms[0].dim == s.over_dim)
      continue;
    contiguous = static_cast<int>(state.access.indices.size());
    state.access.indices.push_back(e);
  }
  shape_tile(state, plan.dims, contiguous, 0);
  state.words *= 3;
  s.state_tile = static_cast<int>(plan.tiles.size());
  plan.tiles.push_back(state);
  return s;
}

} // namespace

namespace {

/// The default micro-kernel block, held in registers of its own.
void default_register_block(CodegenTarget &t) {
  t.rows = kDefaultRows;
  t.register_words = static_cast<std::int64_t>(t.rows) * t.col_block();
}

/// A general hierarchy: one core, level 1 as the arena, the default block.
CodegenTarget hierarchy_target(const Hierarchy &h) {
  CodegenTarget t;
  t.lanes = kDefaultLanes;
  t.gb_words = h.levels.at(1).capacity_words.value_or(0);
  t.gb_name = h.levels[1].name;
  default_register_block(t);
  return t;
}

} // namespace

CodegenTarget codegen_target(const Hardware &hw) {
  if (!hw.is_legacy())
    return hierarchy_target(hw.hierarchy);
  CodegenTarget t;
  t.lanes = hw.array.is_vector ? static_cast<int>(hw.array.cols) : kDefaultLanes;
  t.cores = static_cast<int>(hw.cores);
  t.gb_words = hw.gb_capacity_words();
  t.gb_name = hw.global_buffer().name;
  const MemoryLevel *rf = hw.register_file();
  if (rf == nullptr) {
    default_register_block(t);
    return t;
  }
  t.register_name = rf->name;
  t.register_words = *rf->capacity_words;
  t.vectors = t.register_words >= 4 * t.lanes ? 2 : 1;
  t.rows = static_cast<int>(
      std::clamp<std::int64_t>(t.register_words / t.col_block(), 1, kMaxRegisterRows));
  if (t.register_words < t.col_block())
    throw UserError("register level '" + rf->name + "' holds " + std::to_string(t.register_words) +
                    " words, less than one vector of " + std::to_string(t.lanes) + " lanes");
  return t;
}

SegmentPlan plan_segment(const Problem &problem, const Candidate &candidate, const Tiling &tiling,
                         const CodegenTarget &target) {
  refuse_unsupported_ops(problem);
  const Dataflow &df = candidate.dataflow;
  SegmentPlan plan;
  plan.problem = &problem;
  plan.dims = plan_dims(problem, tiling);
  plan.halos = plan_halos(problem, df, plan.dims);
  plan.residual_held = residual_held(problem, df);
  plan.description = describe(problem, candidate) + " | tiles";
  for (int d : problem.dims)
    if (!problem.is_window[static_cast<size_t>(d)])
      plan.description +=
          " " + problem.dim_name(d) + "=" + std::to_string(tiling.tile.at(static_cast<size_t>(d)));
  const std::vector<codegen::OpRoles> roles = codegen::choose_roles(problem, plan.dims, target);
  std::vector<int> rows;
  for (const codegen::OpRoles &r : roles)
    rows.push_back(
        r.row_dim < 0
            ? 1
            : codegen::register_rows(plan.dims[static_cast<size_t>(r.row_dim)].tile, target.rows));
  const std::vector<int> contiguous = codegen::contiguous_positions(problem, roles);
  const std::vector<std::int64_t> blocks =
      codegen::panel_blocks(problem, roles, rows, plan.dims, target.col_block());
  for (size_t t = 0; t < problem.tensors.size(); ++t)
    plan.tiles.push_back(
        plan_tensor_tile(problem, df, static_cast<int>(t), plan.dims, contiguous[t], blocks[t]));
  if (!plan.halos.empty())
    set_position_strides(plan);
  for (size_t o = 0; o < problem.ops.size(); ++o)
    plan.ops.push_back(plan_op(problem, static_cast<int>(o), roles[o], rows[o], plan));
  plan.softmax = plan_softmax(problem, df, plan);
  plan_overlap_stores(plan, df);
  codegen::build_steps(plan, df);
  return plan;
}

} // namespace dse
