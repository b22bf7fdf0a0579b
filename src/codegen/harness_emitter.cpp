// Harness emission. The reference is the workload itself, operator after operator, in double
// precision over real extents: no tiles, no padding, softmax in its textbook two-pass form.
#include "harness_emitter.hpp"

#include <algorithm>
#include <iomanip>
#include <map>
#include <sstream>

#include "dse/codegen/kernel_counts.hpp"
#include "dse/ir/sibling_stack.hpp"

namespace dse::codegen {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }
std::string ref(const std::string &tensor) { return "r_" + ident(tensor); }
std::string dim_var(const Workload &w, int d) {
  return "d_" + ident(w.dims.at(static_cast<size_t>(d)).name);
}

/// The extent of a tensor as `access` reads or writes it first: the positions from 0 to the last
/// one its index reaches (a negative offset reads padding before position 0).
std::vector<std::int64_t> real_shape(const Workload &w, const TensorAccess &access) {
  std::vector<std::int64_t> out;
  for (const IndexExpr &e : access.indices) {
    std::int64_t span = 1 + e.offset;
    for (const IndexTerm &t : e.terms)
      span += t.coef * (w.dim_size(t.dim) - 1);
    out.push_back(std::max<std::int64_t>(span, 1));
  }
  return out;
}

std::int64_t words(const std::vector<std::int64_t> &shape) {
  std::int64_t n = 1;
  for (std::int64_t e : shape)
    n *= e;
  return n;
}

/// Row-major offset of per-position index expressions into `shape`.
std::string offset(const std::vector<std::string> &index, const std::vector<std::int64_t> &shape) {
  std::string out = index.empty() ? "0" : "(" + index[0] + ")";
  for (size_t p = 1; p < index.size(); ++p)
    out = "(" + out + " * " + num(shape[p]) + " + " + index[p] + ")";
  return out;
}

std::string index_value(const Workload &w, const IndexExpr &e) {
  std::vector<std::string> terms;
  for (const IndexTerm &t : e.terms)
    terms.push_back((t.coef == 1 ? "" : num(t.coef) + " * ") + dim_var(w, t.dim));
  if (e.offset != 0)
    terms.push_back(num(e.offset));
  return sum_of(terms);
}

std::string element(const Workload &w, const TensorAccess &a,
                    const std::vector<std::int64_t> &shape) {
  std::vector<std::string> index;
  for (const IndexExpr &e : a.indices)
    index.push_back(index_value(w, e));
  return ref(a.tensor) + "[" + offset(index, shape) + "]";
}

/// The condition under which every compound index of `a` falls inside `shape` (reads outside
/// are padding, zero); empty when the access has no compound index.
std::string inside(const Workload &w, const TensorAccess &a,
                   const std::vector<std::int64_t> &shape) {
  std::string out;
  for (size_t p = 0; p < a.indices.size(); ++p) {
    if (a.indices[p].is_plain())
      continue;
    const std::string v = "(" + index_value(w, a.indices[p]) + ")";
    out += (out.empty() ? "" : " && ") + v + " >= 0 && " + v + " < " + num(shape[p]);
  }
  return out;
}

class Harness {
public:
  Harness(CodeWriter &out, const ProgramOps &program) : out_(out), p_(program) {
    for (const ProgramTensor &t : program.tensors) {
      shape_[t.name] = t.shape;
      dims_[t.name] = t.dims;
    }
  }

  void inputs(std::uint64_t seed) {
    out_.line("// Seeded inputs: splitmix64, uniform in [-1, 1).");
    out_.line("std::uint64_t rng_state = " + std::to_string(seed) + "ull;");
    out_.open("float next_input()");
    out_.line("std::uint64_t z = rng_state += 0x9E3779B97F4A7C15ull;");
    out_.line("z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;");
    out_.line("z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;");
    out_.line("z ^= z >> 31;");
    out_.line("return static_cast<float>(static_cast<double>(z >> 40) / 8388608.0 - 1.0);");
    out_.close();
    out_.open("void fill_inputs()");
    for (const ProgramTensor &t : p_.tensors)
      if (!t.produced)
        out_.line("for (float &x : " + dram_array(t.name) + ") x = next_input();");
    out_.close();
  }

  void reference(double tolerance) {
    out_.line("template <class T> double relative_error(const std::vector<float> &got, const "
              "std::vector<T> &want) {");
    out_.line("  double worst = 0.0, scale = 0.0;");
    out_.line("  for (std::size_t e = 0; e < want.size(); ++e) {");
    out_.line("    worst = std::max(worst, std::abs(static_cast<double>(got[e]) - "
              "static_cast<double>(want[e])));");
    out_.line("    scale = std::max(scale, std::abs(static_cast<double>(want[e])));");
    out_.line("  }");
    out_.line("  return scale > 0.0 ? worst / scale : worst;");
    out_.line("}");
    out_.blank();
    std::ostringstream text;
    text << std::setprecision(17) << tolerance;
    out_.line("constexpr double kTolerance = " + text.str() + ";");
    out_.line(
        "// The workload computed plainly in double precision; returns the largest relative error");
    out_.line("// (max |kernel - reference| / max |reference|) over the program's outputs.");
    out_.open("double check_outputs()");
    for (const ProgramTensor &t : p_.tensors) {
      if (!t.produced)
        out_.line("const std::vector<double> " + ref(t.name) + "(" + dram_array(t.name) +
                  ".begin(), " + dram_array(t.name) + ".end());");
      else
        out_.line("std::vector<double> " + ref(t.name) + "(" + num(words(t.shape)) + ", 0.0);");
    }
    for (int o : p_.ops) {
      const Operator &op = p_.workload->ops.at(static_cast<size_t>(o));
      if (op.kind == OpKind::Einsum)
        einsum(op);
      else
        softmax(op);
      stacked_slices(op);
    }
    out_.line("double error = 0.0;");
    for (const ProgramTensor &t : p_.tensors)
      if (t.produced && !t.read)
        out_.line("error = std::max(error, relative_error(" + dram_array(t.name) + ", " +
                  ref(t.name) + "));");
    out_.line("return error;");
    out_.close();
  }

private:
  /// The slices of a stacked einsum's reference result that its members' readers read.
  void stacked_slices(const Operator &op) {
    for (const ProgramTensor &t : p_.tensors)
      if (!t.stacked_in.empty() && t.stacked_in == op.einsum.output.tensor && !op.stacked.empty())
        out_.line("std::copy_n(" + ref(t.stacked_in) + ".begin() + " + num(t.offset) + ", " +
                  num(words(t.shape)) + ", " + ref(t.name) + ".begin());");
  }

  void open_dim_loop(int d) {
    const std::string v = dim_var(*p_.workload, d);
    out_.open("for (i64 " + v + " = 0; " + v + " < " + num(p_.workload->dim_size(d)) + "; ++" + v +
              ")");
  }

  /// Loops: output dims but the last, the reductions, then the last output dim (contiguous).
  void einsum(const Operator &op) {
    const Workload &w = *p_.workload;
    const Einsum &e = op.einsum;
    out_.line("// " + op.name + ": " + access_text(w, e.output) +
              (e.residual.empty() ? " += " : " = " + access_text(w, e.residual_access()) + " + ") +
              access_text(w, e.inputs[0]) +
              (e.inputs.size() > 1 ? " * " + access_text(w, e.inputs[1]) : ""));
    std::vector<int> order;
    for (const IndexExpr &x : e.output.indices)
      order.push_back(plain_dim(x));
    const int last = order.back();
    order.pop_back();
    for (int d : op.reduction_dims())
      order.push_back(d);
    order.push_back(last);
    if (!e.residual.empty()) { // the output starts from the residual
      for (const IndexExpr &x : e.output.indices)
        open_dim_loop(plain_dim(x));
      out_.line(element(w, e.output, shape_.at(e.output.tensor)) + " = " +
                element(w, e.residual_access(), shape_.at(e.residual)) + ";");
      for (size_t k = 0; k < e.output.indices.size(); ++k)
        out_.close();
    }
    for (int d : order)
      open_dim_loop(d);
    std::string product, guard;
    for (const TensorAccess &in : e.inputs) {
      product += (product.empty() ? "" : " * ") + element(w, in, shape_.at(in.tensor));
      const std::string in_range = inside(w, in, shape_.at(in.tensor));
      guard += (guard.empty() || in_range.empty() ? "" : " && ") + in_range;
    }
    out_.line((guard.empty() ? "" : "if (" + guard + ") ") +
              element(w, e.output, shape_.at(e.output.tensor)) + " += " + product + ";");
    for (size_t k = 0; k < order.size(); ++k)
      out_.close();
  }

  void softmax(const Operator &op) {
    const Workload &w = *p_.workload;
    const std::vector<std::int64_t> &shape = shape_.at(op.tensor);
    TensorAccess in{op.tensor, {}};
    for (int d : dims_.at(op.tensor))
      in.indices.push_back(IndexExpr{{IndexTerm{d, 1}}});
    TensorAccess result = in;
    result.tensor = op.out;
    out_.line("// " + op.name + ": " + op.out + " = softmax of " + op.tensor + " over " +
              w.dims.at(static_cast<size_t>(op.over_dim)).name);
    for (int d : dims_.at(op.tensor))
      if (d != op.over_dim)
        open_dim_loop(d);
    const std::string over = dim_var(w, op.over_dim);
    const std::string loop = "for (i64 " + over + " = 0; " + over + " < " +
                             num(w.dim_size(op.over_dim)) + "; ++" + over + ")";
    const std::string x = element(w, in, shape);
    out_.line("double m = -std::numeric_limits<double>::infinity(), z = 0.0;");
    out_.line(loop + " m = std::max(m, " + x + ");");
    out_.line(loop + " z += std::exp(" + x + " - m);");
    out_.line(loop + " " + element(w, result, shape) + " = std::exp(" + x + " - m) / z;");
    for (size_t k = 0; k + 1 < in.indices.size(); ++k)
      out_.close();
  }

  CodeWriter &out_;
  const ProgramOps &p_;
  std::map<std::string, std::vector<std::int64_t>> shape_;
  std::map<std::string, std::vector<int>> dims_;
};

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s)
    out += (c == '"' || c == '\\') ? '\'' : c;
  return out + "\"";
}

void emit_report(CodeWriter &out, const CounterTable &counters,
                 const std::vector<SegmentPlan> &plans, const EmitOptions &options) {
  std::vector<std::string> labels, words, macs;
  for (const SegmentPlan &plan : plans)
    labels.push_back(quoted(kernel_segment_label(*plan.problem)));
  for (const CounterTable::Entry &e : counters.words)
    words.push_back("{" + num(e.segment) + ", " + quoted(e.name) + "}");
  for (const CounterTable::Entry &e : counters.macs)
    macs.push_back("{" + num(e.segment) + ", " + quoted(e.name) + "}");
  out.line("struct CounterName { int segment; const char *name; };");
  out.line("constexpr const char *kTitle = " + quoted(options.title) + ";");
  out.line("constexpr const char *kSegmentLabels[] = " + braced(labels) + ";");
  out.line("constexpr CounterName kWordCounters[] = " + braced(words) + ";");
  out.line("constexpr CounterName kMacCounters[] = " + braced(macs) + ";");
  out.blank();
  out.line("/// The run as one JSON object: counters per segment, time and the check.");
  out.open("void print_report(double seconds, bool checked, double error, bool passed)");
  out.line(
      "std::printf(\"{\\\"kernel\\\": \\\"%s\\\", \\\"seconds\\\": %.9g, \", kTitle, seconds);");
  out.line(
      "std::printf(\"\\\"check\\\": {\\\"performed\\\": %s, \\\"max_relative_error\\\": %.9g, "
      "\\\"tolerance\\\": %g, \\\"passed\\\": %s}, \\\"segments\\\": [\", checked ? \"true\" : "
      "\"false\", error, kTolerance, passed ? \"true\" : \"false\");");
  out.open("for (int s = 0; s < " + num(static_cast<std::int64_t>(plans.size())) + "; ++s)");
  out.line("std::printf(\"%s{\\\"label\\\": \\\"%s\\\", \\\"words\\\": [\", s ? \", \" : \"\", "
           "kSegmentLabels[s]);");
  out.line("const char *sep = \"\";");
  out.open("for (std::size_t e = 0; e < std::size(kWordCounters); ++e)");
  out.line("if (kWordCounters[e].segment != s) continue;");
  out.line("std::printf(\"%s{\\\"tensor\\\": \\\"%s\\\", \\\"reads\\\": %lld, \\\"writes\\\": "
           "%lld}\", sep, "
           "kWordCounters[e].name, static_cast<long long>(dram_reads[e]), static_cast<long "
           "long>(dram_writes[e]));");
  out.line("sep = \", \";");
  out.close();
  out.line("std::printf(\"], \\\"macs\\\": [\");");
  out.line("sep = \"\";");
  out.open("for (std::size_t e = 0; e < std::size(kMacCounters); ++e)");
  out.line("if (kMacCounters[e].segment != s) continue;");
  out.line(
      "std::printf(\"%s{\\\"op\\\": \\\"%s\\\", \\\"macs\\\": %lld}\", sep, kMacCounters[e].name, "
      "static_cast<long long>(macs[e]));");
  out.line("sep = \", \";");
  out.close();
  out.line("std::printf(\"]}\");");
  out.close();
  out.line("std::printf(\"]}\\n\");");
  out.close();
}

void emit_main(CodeWriter &out) {
  out.line("#ifndef DSE_KERNEL_NO_MAIN");
  out.line("// Usage: kernel [--no-check] [--repeat N]. Prints one JSON object; exits 1 if the "
           "check fails.");
  out.open("int main(int argc, char **argv)");
  out.line("bool check = true;");
  out.line("int repeat = 1;");
  out.open("for (int k = 1; k < argc; ++k)");
  out.line("const std::string arg = argv[k];");
  out.line("if (arg == \"--no-check\") check = false;");
  out.line(
      "else if (arg == \"--repeat\" && k + 1 < argc) repeat = std::max(1, std::atoi(argv[++k]));");
  out.line("else { std::fprintf(stderr, \"usage: %s [--no-check] [--repeat N]\\n\", argv[0]); "
           "return 2; }");
  out.close();
  out.line("fill_inputs();");
  out.line("double best = std::numeric_limits<double>::infinity();");
  out.open("for (int r = 0; r < repeat; ++r)");
  out.line("const auto start = std::chrono::steady_clock::now();");
  out.line("run_schedule();");
  out.line("best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - "
           "start).count());");
  out.close();
  out.line("const double error = check ? check_outputs() : 0.0;");
  out.line("const bool passed = !check || error <= kTolerance;");
  out.line("print_report(best, check, error, passed);");
  out.line("return passed ? 0 : 1;");
  out.close();
  out.line("#endif");
}

void emit_c_interface(CodeWriter &out, const ProgramOps &program) {
  out.line("// For harnesses that load the kernel as a shared library (compiled with "
           "-DDSE_KERNEL_NO_MAIN).");
  out.open("extern \"C\" float *dse_kernel_tensor(const char *name)");
  for (const ProgramTensor &t : program.tensors)
    if (t.in_dram)
      out.line("if (std::strcmp(name, " + quoted(t.name) + ") == 0) return " + dram_array(t.name) +
               ".data();");
  out.line("return nullptr;");
  out.close();
  out.line("extern \"C\" void dse_kernel_run() { run_schedule(); }");
}

/// The program's tensors that a stacked einsum of the program writes as slices of its result,
/// one member after another (the stack index first): produced there, read in place.
void mark_stacked_members(ProgramOps &p) {
  for (int o : p.ops) {
    const Operator &op = p.workload->ops.at(static_cast<size_t>(o));
    std::int64_t offset = 0;
    for (int m : op.stacked) {
      const TensorAccess &result = p.workload->ops.at(static_cast<size_t>(m)).einsum.output;
      const std::vector<std::int64_t> shape = real_shape(*p.workload, result);
      for (ProgramTensor &t : p.tensors)
        if (t.name == result.tensor) {
          if (t.shape != shape)
            throw UserError(p.workload->ops.at(static_cast<size_t>(o)).where,
                            "kernels read a stacked result only at the extents it is written: '" +
                                t.name + "' is read beyond them (through a window)");
          t.produced = true;
          t.stacked_in = op.einsum.output.tensor;
          t.offset = offset;
          for (const IndexExpr &e : result.indices)
            t.dims.push_back(plain_dim(e));
        }
      offset += words(shape);
    }
  }
}

} // namespace

ProgramOps program_ops(const std::vector<SegmentPlan> &plans) {
  ProgramOps p;
  p.workload = plans.front().problem->workload;
  std::vector<std::string> in_dram;
  for (const SegmentPlan &plan : plans) {
    for (const ProblemOp &op : plan.problem->ops) {
      p.ops.push_back(op.workload_op);
      p.ops.insert(p.ops.end(), op.attached_ops.begin(), op.attached_ops.end());
    }
    for (const TilePlan &t : plan.tiles)
      if (t.tensor >= 0 && t.role != TensorRole::Intermediate)
        in_dram.push_back(t.name);
    if (plan.softmax.form == SoftmaxForm::Pass)
      in_dram.push_back(p.workload->ops.at(static_cast<size_t>(plan.softmax.workload_op)).out);
    for (const ProblemOp &op : plan.problem->ops)
      if (const std::string &r =
              p.workload->ops.at(static_cast<size_t>(op.workload_op)).einsum.residual;
          !r.empty())
        in_dram.push_back(r);
  }
  // In workload order, a stack where its first member is.
  const auto position = [&p](int op) {
    return std::pair(computed_einsums(*p.workload, op).front(), op);
  };
  std::sort(p.ops.begin(), p.ops.end(), [&](int a, int b) { return position(a) < position(b); });
  auto touch = [&](const std::string &name,
                   const std::vector<std::int64_t> &shape) -> ProgramTensor & {
    for (ProgramTensor &t : p.tensors)
      if (t.name == name)
        return t;
    const bool dram = std::find(in_dram.begin(), in_dram.end(), name) != in_dram.end();
    p.tensors.push_back({name, shape, {}, dram, false, false, {}, 0});
    return p.tensors.back();
  };
  // A residual is read at its output's indices: its extents, before any padded read of it.
  for (int o : p.ops)
    if (const Einsum &e = p.workload->ops.at(static_cast<size_t>(o)).einsum; !e.residual.empty())
      touch(e.residual, real_shape(*p.workload, e.residual_access())).read = true;
  for (int o : p.ops) {
    const Operator &op = p.workload->ops.at(static_cast<size_t>(o));
    if (op.kind == OpKind::Einsum) {
      for (const TensorAccess &in : op.einsum.inputs)
        touch(in.tensor, real_shape(*p.workload, in)).read = true;
      ProgramTensor &out =
          touch(op.einsum.output.tensor, real_shape(*p.workload, op.einsum.output));
      out.produced = true;
      for (const IndexExpr &e : op.einsum.output.indices)
        out.dims.push_back(plain_dim(e));
      continue;
    }
    ProgramTensor &in = touch(op.tensor, {});
    in.read = true;
    const ProgramTensor copy = in;
    ProgramTensor &out = touch(op.out, copy.shape);
    out.produced = true;
    out.dims = copy.dims;
  }
  mark_stacked_members(p);
  return p;
}

void emit_dram(CodeWriter &out, const ProgramOps &program, const CounterTable &counters) {
  out.line("// DRAM: every tensor that crosses the global buffer, row-major at its real extents.");
  out.line("// A stacked einsum's member results are slices of its result.");
  for (bool slices : {false, true})
    for (const ProgramTensor &t : program.tensors) {
      if (!t.in_dram || t.stacked_in.empty() != !slices)
        continue;
      out.line("constexpr std::array<i64, " + num(static_cast<std::int64_t>(t.shape.size())) +
               "> " + dram_shape(t.name) + " = " + braced(t.shape) + ";");
      if (slices)
        out.line("const std::span<float> " + dram_array(t.name) + "(" + dram_array(t.stacked_in) +
                 ".data() + " + num(t.offset) + ", " + num(words(t.shape)) + ");");
      else
        out.line("std::vector<float> " + dram_array(t.name) + "(" + num(words(t.shape)) + ");");
    }
  out.blank();
  out.line("// Counters: words moved DRAM -> global buffer (reads) and back (writes) per tensor, "
           "padded");
  out.line("// tile words included; MACs per operator, padded tiles and recompute included.");
  out.line("i64 dram_reads[" + num(static_cast<std::int64_t>(counters.words.size())) + "];");
  out.line("i64 dram_writes[" + num(static_cast<std::int64_t>(counters.words.size())) + "];");
  out.line("i64 macs[" + num(static_cast<std::int64_t>(counters.macs.size())) + "];");
  out.blank();
}

void emit_harness(CodeWriter &out, const ProgramOps &program, const CounterTable &counters,
                  const std::vector<SegmentPlan> &plans, const EmitOptions &options) {
  Harness h(out, program);
  h.inputs(options.seed);
  out.blank();
  h.reference(options.tolerance);
  out.blank();
  emit_report(out, counters, plans, options);
  out.blank();
  out.line("} // namespace");
  out.blank();
  emit_main(out);
  out.blank();
  emit_c_interface(out, program);
}

} // namespace dse::codegen
