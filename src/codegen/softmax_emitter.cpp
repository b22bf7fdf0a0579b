// Softmax emission. Scores are exact fp32 exponentials of (s - row max); rows hold only real
// entries of the normalised dim (padding is masked to probability 0).
#include "softmax_emitter.hpp"

namespace dse::codegen {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

const TilePlan &tile(const SegmentPlan &plan, int t) { return plan.tiles[static_cast<size_t>(t)]; }

const TilePlan &intermediate(const SegmentPlan &plan) {
  return tile(plan, plan.problem->links.front().intermediate);
}

std::string name_of(int segment, const std::string &what) {
  return "s" + std::to_string(segment) + "_" + what;
}

/// Loops over the given positions of a region; returns the offset terms of `tiles`' strides.
std::vector<std::vector<std::string>> open_loops(CodeWriter &out, const TilePlan &region_tile,
                                                 const std::vector<int> &positions,
                                                 const std::vector<std::int64_t> &extent,
                                                 const std::vector<const TilePlan *> &tiles) {
  std::vector<std::vector<std::string>> terms(tiles.size());
  for (size_t k = 0; k < positions.size(); ++k) {
    const size_t p = static_cast<size_t>(positions[k]);
    const int d = plain_dim(region_tile.access.indices[p]);
    const std::string var = "x" + std::to_string(k);
    out.open("for (i64 " + var + " = 0; " + var + " < " + num(extent[p]) + "; ++" + var + ")");
    for (size_t t = 0; t < tiles.size(); ++t) {
      const std::int64_t stride = tiles[t]->dim_stride[static_cast<size_t>(d)];
      if (stride != 0)
        terms[t].push_back(var + " * " + num(stride));
    }
  }
  return terms;
}

void close_loops(CodeWriter &out, size_t count) {
  for (size_t k = 0; k < count; ++k)
    out.close();
}

/// The fused step: the rows of the region's contiguous dim in lanes (when that dim is not the
/// normalised one, else one row at a time), the other row dims looped around.
void emit_step_function(CodeWriter &out, const SegmentPlan &plan, int segment) {
  const TilePlan &inter = intermediate(plan);
  const bool online = plan.softmax.form == SoftmaxForm::Online;
  std::vector<int> prefix_loops;
  for (const Step &s : plan.steps)
    if (s.kind == StepKind::Softmax)
      prefix_loops = s.entered;
  const std::vector<std::int64_t> extent =
      region_extent(plan, plan.problem->links.front().intermediate, prefix_loops);
  int over = -1;
  for (size_t p = 0; p < inter.access.indices.size(); ++p)
    if (plain_dim(inter.access.indices[p]) == plan.softmax.over_dim)
      over = static_cast<int>(p);
  const int lane = inter.order.back() == over ? -1 : inter.order.back();
  std::vector<int> rows;
  for (int p : inter.order)
    if (p != over && p != lane)
      rows.push_back(p);
  const std::int64_t n_ext = extent[static_cast<size_t>(over)];
  const std::int64_t n_stride = inter.dim_stride[static_cast<size_t>(plan.softmax.over_dim)];
  const std::int64_t n_size = plan.dims[static_cast<size_t>(plan.softmax.over_dim)].size;
  out.line(std::string("// Softmax of ") + inter.name + " over " +
           plan.dims[static_cast<size_t>(plan.softmax.over_dim)].name +
           " on the region the producer " +
           (online ? "just computed: online form (running max and sum per row)."
                   : "just computed: whole rows."));
  if (online) {
    out.open("void " + name_of(segment, "softmax") +
             "(float *s, float *state, bool update, i64 n0)");
    out.line("const i64 n_real = std::min<i64>(" + num(n_ext) + ", " + num(n_size) + " - n0);");
  } else {
    out.open("void " + name_of(segment, "softmax") + "(float *s)");
    out.line("const i64 n_real = " + num(n_size) + ";");
  }
  const TilePlan *state = online ? &tile(plan, plan.softmax.state_tile) : nullptr;
  std::vector<const TilePlan *> tiles{&inter};
  if (state)
    tiles.push_back(state);
  const auto terms = open_loops(out, inter, rows, extent, tiles);
  const std::string lanes = num(lane < 0 ? 1 : extent[static_cast<size_t>(lane)]);
  const std::string at =
      "s + " + sum_of(terms[0]) + ", " + num(n_stride) + ", n_real, " + num(n_ext);
  if (!online) {
    out.line("softmax_rows<" + lanes + ">(" + at + ");");
  } else {
    const std::string st = sum_of(terms[1]), rows_words = num(state->words / 3);
    out.line("online_softmax_rows<" + lanes + ">(" + at + ", state + " + st + ", state + " +
             rows_words + " + " + st + ", state + 2 * " + rows_words + " + " + st + ", update);");
  }
  close_loops(out, rows.size());
  out.close();
}

/// Rescale (by the last scale factor) or normalise (by the sum) a region of the output tile.
void emit_region_function(CodeWriter &out, const SegmentPlan &plan, int segment, size_t step) {
  const Step &s = plan.steps[step];
  const TilePlan &o = tile(plan, s.tile);
  const TilePlan &state = tile(plan, plan.softmax.state_tile);
  const bool rescale = s.kind == StepKind::Rescale;
  const std::vector<std::int64_t> extent = region_extent(plan, s.tile, s.entered);
  out.line(std::string("// Online softmax: ") +
           (rescale
                ? "rescale " + o.name + " by each row's last max change, before new contributions."
                : "divide " + o.name + " by each row's sum, after its last contribution."));
  out.open("void " +
           name_of(segment,
                   (rescale ? "rescale_" : "normalize_") + num(static_cast<std::int64_t>(step))) +
           "(float *o, const float *state)");
  const auto terms = open_loops(out, o, o.order, extent, {&o, &state});
  const std::string factor =
      "state[" + sum_of({num((rescale ? 2 : 1) * state.words / 3), sum_of(terms[1])}) + "]";
  out.line("o[" + sum_of(terms[0]) + "] " + (rescale ? "*= " : "/= ") + factor + ";");
  close_loops(out, o.order.size());
  out.close();
}

void emit_pass_function(CodeWriter &out, const SegmentPlan &plan, int segment,
                        const CounterTable &counters) {
  const Problem &p = *plan.problem;
  const TilePlan &scores = tile(plan, p.ops[0].tensors.back());
  const Operator &softmax = p.workload->ops.at(static_cast<size_t>(plan.softmax.workload_op));
  const size_t rank = scores.access.indices.size();
  std::vector<std::string> lo;
  std::vector<std::int64_t> ext;
  std::vector<int> order;
  int over = -1;
  for (size_t q = 0; q < rank; ++q) {
    const bool is_over = plain_dim(scores.access.indices[q]) == plan.softmax.over_dim;
    if (is_over)
      over = static_cast<int>(q);
    else
      order.push_back(static_cast<int>(q));
    lo.push_back(is_over ? "0" : "x" + num(static_cast<std::int64_t>(order.size() - 1)));
    ext.push_back(is_over ? plan.softmax.pass_row_words : 1);
  }
  order.push_back(over);
  const std::string entry = num(counters.pass_entry[static_cast<size_t>(segment)]);
  const std::string row = num(plan.softmax.pass_row_words);
  out.line("// Softmax '" + softmax.name +
           "' as its own pass (the model's unfused form): every padded row of " + scores.name +
           " is read into the arena, normalised over " +
           plan.dims[static_cast<size_t>(plan.softmax.over_dim)].name + " and written to " +
           softmax.out + ".");
  out.open("void " + name_of(segment, "softmax_pass") + "()");
  out.line("static_assert(" + row + " <= kGbWords, \"the softmax pass needs one row of " + row +
           " words in the global buffer, more than it holds\");");
  for (size_t k = 0; k + 1 < order.size(); ++k) {
    const int d = plain_dim(scores.access.indices[static_cast<size_t>(order[k])]);
    const std::string var = "x" + num(static_cast<std::int64_t>(k));
    out.open("for (i64 " + var + " = 0; " + var + " < " +
             num(plan.dims[static_cast<size_t>(d)].padded()) + "; ++" + var + ")");
  }
  const std::string r = num(static_cast<std::int64_t>(rank));
  out.line("copy_in<" + r + ">(gb, " + dram_array(scores.name) + ".data(), " +
           dram_shape(scores.name) + ", " + braced(lo) + ", " + braced(ext) + ", " + braced(order) +
           ", " + row + ");");
  out.line("softmax_row(gb, " + num(plan.dims[static_cast<size_t>(plan.softmax.over_dim)].size) +
           ", " + row + ");");
  out.line("copy_out<" + r + ">(gb, " + dram_array(softmax.out) + ".data(), " +
           dram_shape(softmax.out) + ", " + braced(lo) + ", " + braced(ext) + ", " + braced(order) +
           ", " + row + ");");
  out.line("dram_reads[" + entry + "] += " + row + ";");
  out.line("dram_writes[" + entry + "] += " + row + ";");
  close_loops(out, order.size() - 1);
  out.close();
}

} // namespace

void emit_softmax_functions(CodeWriter &out, const SegmentPlan &plan, int segment,
                            const CounterTable &counters) {
  switch (plan.softmax.form) {
  case SoftmaxForm::None:
    return;
  case SoftmaxForm::Pass:
    emit_pass_function(out, plan, segment, counters);
    out.blank();
    return;
  case SoftmaxForm::Whole:
  case SoftmaxForm::Online:
    emit_step_function(out, plan, segment);
    out.blank();
    for (size_t k = 0; k < plan.steps.size(); ++k)
      if (plan.steps[k].kind == StepKind::Rescale || plan.steps[k].kind == StepKind::Normalize) {
        emit_region_function(out, plan, segment, k);
        out.blank();
      }
    return;
  }
}

std::string softmax_step_statement(const SegmentPlan &plan, int segment, size_t step) {
  const Step &s = plan.steps[step];
  const int over = plan.softmax.over_dim;
  const std::string n = loop_var(plan, over);
  if (s.kind == StepKind::Softmax) {
    const std::string region =
        tile_pointer(plan, plan.problem->links.front().intermediate, s.entered);
    if (plan.softmax.form == SoftmaxForm::Whole)
      return name_of(segment, "softmax") + "(" + region + ");";
    std::string update;
    for (int d : plan.softmax.update_loops)
      update += (update.empty() ? "" : " && ") + loop_var(plan, d) + " == 0";
    return name_of(segment, "softmax") + "(" + region + ", " +
           tile_pointer(plan, plan.softmax.state_tile, s.entered) + ", " +
           (update.empty() ? "true" : update) + ", " + n + " * " +
           num(plan.dims[static_cast<size_t>(over)].tile) + ");";
  }
  const bool rescale = s.kind == StepKind::Rescale;
  const std::string when =
      rescale ? n + " > 0" : n + " == " + num(plan.dims[static_cast<size_t>(over)].trips - 1);
  return "if (" + when + ") " +
         name_of(segment,
                 (rescale ? "rescale_" : "normalize_") + num(static_cast<std::int64_t>(step))) +
         "(" + tile_pointer(plan, s.tile, s.entered) + ", " +
         tile_pointer(plan, plan.softmax.state_tile, s.entered) + ");";
}

std::string softmax_pass_call(const SegmentPlan &plan, int segment) {
  return plan.softmax.form == SoftmaxForm::Pass ? name_of(segment, "softmax_pass") + "();" : "";
}

} // namespace dse::codegen
