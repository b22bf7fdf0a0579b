// Segment emission: one C++ statement per step of the plan, so the generated loop nest reads
// like the schedule (prefix loops, then each operator's sub-nest).
#include "schedule_emitter.hpp"

#include "dse/support/contains.hpp"
#include "halo_emitter.hpp"
#include "micro_kernel.hpp"
#include "softmax_emitter.hpp"

namespace dse::codegen {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

class SegmentWriter {
public:
  SegmentWriter(CodeWriter &out, const SegmentPlan &plan, int segment, const CounterTable &counters)
      : out_(out), plan_(plan), segment_(segment), counters_(counters) {}

  void write(const std::string &gb_name) {
    out_.open("void " + segment_function(segment_) + "()");
    out_.line("static_assert(" + num(plan_.peak_words) + " <= kGbWords, \"segment " +
              num(segment_) + " needs " + num(plan_.peak_words) +
              " words of global buffer at its peak, more than '" + gb_name + "' holds\");");
    emit_halo_ranges(out_, plan_, -1);
    for (size_t k = 0; k < plan_.steps.size(); ++k)
      step(k);
    out_.close();
  }

private:
  const TilePlan &tile(int t) const { return plan_.tiles[static_cast<size_t>(t)]; }
  std::string words_entry(int t) const {
    return num(counters_.tensor_entry[static_cast<size_t>(segment_)][static_cast<size_t>(t)]);
  }

  /// copy_in / copy_out of the tile's box between the arena and the DRAM array of `tensor`
  /// (by default its own).
  std::string copy(const char *fn, int t, const std::string &tensor = {}) const {
    const TilePlan &x = tile(t);
    const std::string array = tensor.empty() ? x.name : tensor;
    return std::string(fn) + "<" + num(static_cast<std::int64_t>(x.extent.size())) + ">(gb + " +
           num(x.offset) + ", " + dram_array(array) + ".data(), " + dram_shape(array) + ", " +
           braced(box_origin(plan_, t)) + ", " + braced(x.extent) + ", " + braced(x.order) + ", " +
           num(x.block) + ");";
  }

  /// How an output tile starts on its first visit: zeros, or its residual's box (counted); a
  /// held residual is added where each position is first computed (held_residual).
  std::string first_visit(int t, const std::string &zero) const {
    const int op = plan_.problem->tensors[static_cast<size_t>(t)].owner;
    const int entry =
        counters_.residual_entry[static_cast<size_t>(segment_)][static_cast<size_t>(op)];
    if (entry < 0 || plan_.residual_held)
      return zero;
    const std::string &residual = plan_.problem->op(op).einsum.residual;
    return copy("copy_in", t, residual) + " dram_reads[" + num(entry) +
           "] += " + num(tile(t).words) + "; // starts from the residual " + residual;
  }

  void allocate(int t) {
    const TilePlan &x = tile(t);
    const std::string at = "gb + " + num(x.offset);
    if (x.halo >= 0) { // an overlap store: no DRAM array, filled by the first step
      out_.line("zero(" + at + ", " + num(x.words) + "); // " + x.name);
      return;
    }
    if (x.tensor < 0) { // the online softmax's state: no DRAM array, no counter entry
      out_.line("softmax_state_init(" + at + ", " + num(x.words / 3) + "); // " + x.name);
      return;
    }
    const std::string zero = "zero(" + at + ", " + num(x.words) + ");";
    const std::string load =
        copy("copy_in", t) + " dram_reads[" + words_entry(t) + "] += " + num(x.words) + ";";
    switch (x.role) {
    case TensorRole::Input:
      if (follows_halos(plan_, t))
        out_.line(halo_box_load(plan_, t, "dram_reads[" + words_entry(t) + "]") + " // " + x.name +
                  ": what the positions computed read");
      else
        out_.line(load + " // " + x.name);
      return;
    case TensorRole::Intermediate:
      out_.line(zero + " // " + x.name + " (intermediate, never leaves the arena)");
      return;
    case TensorRole::Output:
      if (x.revisit_loops.empty()) {
        out_.line(first_visit(t, zero) + " // " + x.name);
        return;
      }
      std::string again;
      for (int d : x.revisit_loops)
        again += (again.empty() ? "" : " || ") + loop_var(plan_, d) + " != 0";
      out_.line("if (" + again + ") { // " + x.name + ": partial sums written before come back");
      out_.line("  " + load);
      out_.line("} else {");
      out_.line("  " + first_visit(t, zero));
      out_.line("}");
      return;
    }
  }

  void release(int t) {
    const TilePlan &x = tile(t);
    if (x.tensor >= 0 && x.role == TensorRole::Output)
      out_.line(copy("copy_out", t) + " dram_writes[" + words_entry(t) + "] += " + num(x.words) +
                ";");
  }

  void compute(const Step &s) {
    const OpPlan &o = plan_.ops[static_cast<size_t>(s.op)];
    out_.line(compute_function(segment_, plan_, s.op) + "(" +
              operand_pointer(plan_, s.op, o.a_tile, s.entered) + ", " +
              operand_pointer(plan_, s.op, o.b_tile, s.entered) + ", " +
              operand_pointer(plan_, s.op, o.c_tile, s.entered) + halo_counts(plan_, s.op) + ");");
    out_.line("macs[" +
              num(counters_.mac_entry[static_cast<size_t>(segment_)][static_cast<size_t>(s.op)]) +
              "] += " + macs_expression(plan_, s.op) + ";");
    if (plan_.residual_held && s.op + 1 == static_cast<int>(plan_.ops.size()))
      held_residual(s);
  }

  /// A tile of `t` in the arena, for the run-time: where it is, where its box starts, its layout.
  std::string view(int t) const {
    const TilePlan &x = tile(t);
    return "TileView<" + num(static_cast<std::int64_t>(x.extent.size())) + ">{gb + " +
           num(x.offset) + ", " + braced(stored_origin(plan_, t)) + ", " + braced(x.extent) + ", " +
           braced(x.order) + ", " + num(x.block) + "}";
  }

  /// The last operator's output positions that step `s` computes for the first time (every
  /// reduction loop entered at its first tile) add the residual from the held input's tile.
  void held_residual(const Step &s) {
    const int out = plan_.problem->ops.back().tensors.back();
    const TilePlan &z = tile(out);
    std::vector<std::string> lo, real, first;
    for (const IndexExpr &e : z.access.indices) {
      const int d = plain_dim(e);
      const DimPlan &dim = plan_.dims[static_cast<size_t>(d)];
      lo.push_back(contains(s.entered, d) ? loop_var(plan_, d) + " * " + num(dim.tile) : "0");
      real.push_back(num(dim.size));
    }
    for (int d : s.entered)
      if (!z.access.uses(d))
        first.push_back(loop_var(plan_, d) + " == 0");
    std::vector<std::string> count;
    for (std::int64_t e : region_extent(plan_, out, s.entered))
      count.push_back(num(e));
    std::string when;
    for (const std::string &c : first)
      when += (when.empty() ? "if (" : " && ") + c;
    out_.line((when.empty() ? "" : when + ") ") + "add_held_residual(" + view(out) + ", " +
              view(plan_.problem->held_residual) + ", " + braced(lo) + ", " + braced(count) + ", " +
              braced(real) + "); // the residual from the held " +
              plan_.problem->tensors[static_cast<size_t>(plan_.problem->held_residual)].name);
  }

  void step(size_t k) {
    const Step &s = plan_.steps[k];
    switch (s.kind) {
    case StepKind::LoopBegin: {
      const DimPlan &d = plan_.dims[static_cast<size_t>(s.dim)];
      const std::string v = loop_var(plan_, s.dim);
      out_.open("for (i64 " + v + " = 0; " + v + " < " + num(d.trips) + "; ++" + v + ")");
      out_.line("// " + d.name + ": tiles of " + num(d.tile) +
                (d.padded() == d.size
                     ? ""
                     : " (padded to " + num(d.padded()) + " of " + num(d.size) + ")"));
      emit_halo_ranges(out_, plan_, s.dim);
      return;
    }
    case StepKind::LoopEnd:
      out_.close();
      return;
    case StepKind::Allocate:
      allocate(s.tile);
      return;
    case StepKind::Release:
      release(s.tile);
      return;
    case StepKind::Compute:
      compute(s);
      return;
    case StepKind::Softmax:
    case StepKind::Rescale:
    case StepKind::Normalize:
      out_.line(softmax_step_statement(plan_, segment_, k));
      return;
    case StepKind::HaloLoad:
    case StepKind::HaloSave:
      out_.line(overlap_copy(plan_, s));
      return;
    }
  }

  CodeWriter &out_;
  const SegmentPlan &plan_;
  int segment_;
  const CounterTable &counters_;
};

} // namespace

std::string segment_function(int segment) { return "segment_" + std::to_string(segment); }

void emit_segment(CodeWriter &out, const SegmentPlan &plan, int segment,
                  const CounterTable &counters, const CodegenTarget &target) {
  for (size_t o = 0; o < plan.ops.size(); ++o) {
    emit_micro_kernel(out, plan, segment, static_cast<int>(o), target);
    out.blank();
  }
  emit_softmax_functions(out, plan, segment, counters);
  out.line("// Segment " + num(segment) + ": " + plan.description);
  SegmentWriter(out, plan, segment, counters).write(target.gb_name);
}

} // namespace dse::codegen
