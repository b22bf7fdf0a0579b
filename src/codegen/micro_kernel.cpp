// Micro-kernel emission: c[i, j] += a[i, r...] * b[r..., j] with the accumulators in registers
// (Acc<R, C> of the preamble), the reduction loops inside, and the blocks of the tile outside.
#include "micro_kernel.hpp"

#include "emit_common.hpp"

namespace dse::codegen {

namespace {

/// Tiles below this many MACs run on one core: forking would cost more than it saves.
constexpr std::int64_t kParallelMacs = std::int64_t{1} << 15;

struct Strides {
  const std::vector<std::int64_t> &a;
  const std::vector<std::int64_t> &b;
  const std::vector<std::int64_t> &c;
  std::int64_t a_row = 0; // between register rows inside a block of A
};

std::int64_t at(const std::vector<std::int64_t> &v, int dim) {
  return dim < 0 ? 0 : v[static_cast<size_t>(dim)];
}

std::string times(const std::string &var, std::int64_t stride) {
  return stride == 0 ? "" : var + " * " + std::to_string(stride);
}

std::string prefix(int segment, const SegmentPlan &plan, int op) {
  return "s" + std::to_string(segment) + "_" + ident(plan.ops[static_cast<size_t>(op)].name);
}

std::string describe_op(const SegmentPlan &plan, int op) {
  const Problem &p = *plan.problem;
  const ProblemOp &pop = p.ops[static_cast<size_t>(op)];
  return access_text(*p.workload, pop.accesses.back()) +
         " += " + access_text(*p.workload, pop.accesses[0]) + " * " +
         access_text(*p.workload, pop.accesses[1]);
}

void emit_kernel_template(CodeWriter &out, const SegmentPlan &plan, int segment, int op,
                          const Strides &s) {
  const OpPlan &o = plan.ops[static_cast<size_t>(op)];
  out.line("template <int R, int C>");
  out.open("inline void " + prefix(segment, plan, op) +
           "_kernel(const float *a, const float *b, float *c)");
  out.line("Acc<R, C> acc;");
  out.line("acc.load_from(c, " + std::to_string(at(s.c, o.row_dim)) + ");");
  std::vector<std::string> a_terms{"a"}, b_terms{"b"};
  for (size_t k = 0; k < o.reduction_dims.size(); ++k) {
    const int d = o.reduction_dims[k];
    const std::string var = "r" + std::to_string(k);
    out.open("for (i64 " + var + " = 0; " + var + " < " +
             std::to_string(plan.dims[static_cast<size_t>(d)].tile) + "; ++" + var + ")");
    a_terms.push_back(times(var, at(s.a, d)));
    b_terms.push_back(times(var, at(s.b, d)));
  }
  out.line("acc.template fma<" + std::to_string(s.a_row) + ">(" + sum_of(a_terms) + ", " +
           sum_of(b_terms) + ");");
  for (size_t k = 0; k < o.reduction_dims.size(); ++k)
    out.close();
  out.line("acc.store_to(c, " + std::to_string(at(s.c, o.row_dim)) + ");");
  out.close();
}

/// One way to block an extent: the condition under which a block has `size` entries.
struct BlockCase {
  std::string when; // empty: always (or: every other block)
  std::int64_t size;
};

/// Full blocks and, when the extent is not a multiple, a narrower last block.
std::vector<BlockCase> block_cases(const std::string &var, std::int64_t extent,
                                   std::int64_t block) {
  const std::int64_t blocks = (extent + block - 1) / block;
  const std::int64_t left = extent % block;
  if (left == 0)
    return {{"", block}};
  if (blocks == 1)
    return {{"", left}};
  return {{var + " == " + std::to_string(blocks - 1), left}, {"", block}};
}

/// The call for the block (ib, jb): full blocks, or the narrower edge blocks of the tile.
void emit_dispatch(CodeWriter &out, const std::string &kernel, const std::vector<BlockCase> &rows,
                   const std::vector<BlockCase> &cols, std::int64_t nr) {
  for (size_t r = 0; r < rows.size(); ++r)
    for (size_t c = 0; c < cols.size(); ++c) {
      const bool last = r + 1 == rows.size() && c + 1 == cols.size();
      std::string when = rows[r].when;
      if (!cols[c].when.empty())
        when += (when.empty() ? "" : " && ") + cols[c].when;
      const std::string width = cols[c].size == nr ? "kNr" : std::to_string(cols[c].size);
      const std::string call =
          kernel + "<" + std::to_string(rows[r].size) + ", " + width + ">(ab, bb, cb);";
      out.line(last ? call : "if (" + when + ") " + call + " else");
    }
}

void emit_compute(CodeWriter &out, const SegmentPlan &plan, int segment, int op, const Strides &s,
                  const CodegenTarget &target) {
  const OpPlan &o = plan.ops[static_cast<size_t>(op)];
  const std::int64_t rows = o.row_dim < 0 ? 1 : plan.dims[static_cast<size_t>(o.row_dim)].tile;
  const std::int64_t cols = plan.dims[static_cast<size_t>(o.vec_dim)].tile;
  const std::int64_t mr = o.rows;
  const std::int64_t nr = target.col_block();
  const std::int64_t blocks_i = (rows + mr - 1) / mr, blocks_j = (cols + nr - 1) / nr;
  std::string counts; // the positions of each halo, known at run time
  for (int d : o.outer_dims)
    if (const int k = halo_of_position(plan, d); k >= 0)
      counts += ", i64 n" + std::to_string(k);
  out.open("void " + compute_function(segment, plan, op) +
           "(const float *__restrict a, const float *__restrict b, float *__restrict c" + counts +
           ")");
  // A producer's MACs per tile are per halo position: at most a window of them.
  std::int64_t tile_macs = o.macs_per_tile;
  for (int d : o.outer_dims)
    if (halo_of_position(plan, d) >= 0)
      tile_macs *= plan.dims[static_cast<size_t>(d)].tile;
  if (target.cores > 1 && tile_macs >= kParallelMacs) {
    out.line("#ifdef _OPENMP");
    out.line("#pragma omp parallel for collapse(" + std::to_string(o.outer_dims.size() + 2) +
             ") schedule(static) num_threads(kCores)");
    out.line("#endif");
  }
  std::vector<std::string> a_terms{"a"}, b_terms{"b"}, c_terms{"c"};
  for (size_t k = 0; k < o.outer_dims.size(); ++k) {
    const int d = o.outer_dims[k];
    const std::string var = "o" + std::to_string(k);
    const int halo = halo_of_position(plan, d);
    out.open("for (i64 " + var + " = 0; " + var + " < " +
             (halo >= 0 ? "n" + std::to_string(halo)
                        : std::to_string(plan.dims[static_cast<size_t>(d)].tile)) +
             "; ++" + var + ")");
    a_terms.push_back(times(var, at(s.a, d)));
    b_terms.push_back(times(var, at(s.b, d)));
    c_terms.push_back(times(var, at(s.c, d)));
  }
  out.open("for (i64 jb = 0; jb < " + std::to_string(blocks_j) + "; ++jb)");
  out.open("for (i64 ib = 0; ib < " + std::to_string(blocks_i) + "; ++ib)");
  a_terms.push_back(times("ib", mr * at(s.a, o.row_dim)));
  b_terms.push_back(times("jb", nr * at(s.b, o.vec_dim)));
  c_terms.push_back(times("ib", mr * at(s.c, o.row_dim)));
  c_terms.push_back(times("jb", nr * at(s.c, o.vec_dim)));
  out.line("const float *ab = " + sum_of(a_terms) + ";");
  out.line("const float *bb = " + sum_of(b_terms) + ";");
  out.line("float *cb = " + sum_of(c_terms) + ";");
  emit_dispatch(out, prefix(segment, plan, op) + "_kernel", block_cases("ib", rows, mr),
                block_cases("jb", cols, nr), nr);
  out.close();
  out.close();
  for (size_t k = 0; k < o.outer_dims.size(); ++k)
    out.close();
  out.close();
}

} // namespace

std::string compute_function(int segment, const SegmentPlan &plan, int op) {
  return prefix(segment, plan, op) + "_tile";
}

void emit_micro_kernel(CodeWriter &out, const SegmentPlan &plan, int segment, int op,
                       const CodegenTarget &target) {
  const OpPlan &o = plan.ops[static_cast<size_t>(op)];
  const TilePlan &a = plan.tiles[static_cast<size_t>(o.a_tile)];
  const bool a_packed = a.block < a.extent[static_cast<size_t>(a.order.back())];
  const Strides s{a.dim_stride, plan.tiles[static_cast<size_t>(o.b_tile)].dim_stride,
                  plan.tiles[static_cast<size_t>(o.c_tile)].dim_stride,
                  a_packed ? 1 : at(a.dim_stride, o.row_dim)};
  auto name = [&](int d) {
    return d < 0 ? std::string("-") : plan.dims[static_cast<size_t>(d)].name;
  };
  std::string reductions;
  for (int d : o.reduction_dims)
    reductions += " " + name(d);
  out.line("// Op '" + o.name + "' of segment " + std::to_string(segment) + ": " +
           describe_op(plan, op) + ", one tile at a time.");
  out.line("// Lanes along " + name(o.vec_dim) + ", register rows along " + name(o.row_dim) +
           ", reduction over" + (reductions.empty() ? " nothing" : reductions) + ".");
  emit_kernel_template(out, plan, segment, op, s);
  out.blank();
  emit_compute(out, plan, segment, op, s, target);
}

} // namespace dse::codegen
