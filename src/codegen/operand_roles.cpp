// Role choice: enumerate the (row, lane) dimension pairs of each operator, keep the combinations
// whose intermediate layouts agree, and take the one with the fullest register blocks.
#include "operand_roles.hpp"

#include "dse/support/error.hpp"

namespace dse::codegen {

namespace {

/// Rows shorter than this (fp32 words) are read from the plain layout without cache-set
/// conflicts, and copying them in panels would only cut them into short pieces.
constexpr std::int64_t kPanelMinWords = 128;

/// Fraction of a blocked extent that holds real work: extent / (blocks * block).
double block_fill(std::int64_t extent, std::int64_t block) {
  const std::int64_t blocks = (extent + block - 1) / block;
  return static_cast<double>(extent) / static_cast<double>(blocks * block);
}

/// The only index position of `access` that uses `dim`, or -1 (unused or used twice).
int only_position(const TensorAccess &access, int dim) {
  int found = -1;
  for (size_t p = 0; p < access.indices.size(); ++p)
    for (const IndexTerm &t : access.indices[p].terms)
      if (t.dim == dim) {
        if (found >= 0)
          return -1;
        found = static_cast<int>(p);
      }
  return found;
}

/// Whether `dim` can run along the lanes of input `access`: one position, coefficient 1.
bool contiguous_in(const TensorAccess &access, int dim) {
  const int p = only_position(access, dim);
  if (p < 0)
    return false;
  for (const IndexTerm &t : access.indices[static_cast<size_t>(p)].terms)
    if (t.dim == dim)
      return t.coef == 1;
  return false;
}

/// Every legal role choice of op `o`, in a fixed order (lane dim, then row dim, output order).
std::vector<OpRoles> role_options(const Problem &problem, int o) {
  const ProblemOp &op = problem.ops[static_cast<size_t>(o)];
  const TensorAccess &out = op.accesses.back();
  std::vector<OpRoles> options;
  // A producer's positions read through a window are counted at run time: never rows or lanes.
  for (const IndexExpr &je : out.indices) {
    if (!je.is_plain())
      continue;
    const int j = je.terms[0].dim;
    const bool in0 = op.accesses[0].uses(j);
    const bool in1 = op.accesses[1].uses(j);
    if (in0 == in1)
      continue;
    const int b = in0 ? 0 : 1;
    if (!contiguous_in(op.accesses[static_cast<size_t>(b)], j))
      continue;
    const int a = 1 - b;
    for (const IndexExpr &ie : out.indices) {
      const int i = ie.terms[0].dim;
      if (ie.is_plain() && i != j && op.accesses[static_cast<size_t>(a)].uses(i) &&
          !op.accesses[static_cast<size_t>(b)].uses(i))
        options.push_back({a, b, i, j});
    }
    options.push_back({a, b, -1, j});
  }
  if (options.empty())
    throw UserError("op '" + problem.op(o).name +
                    "' has no output dimension that exactly one input reads contiguously, so the "
                    "emitter has no vector dimension for it");
  return options;
}

double score(const Problem &problem, int o, const OpRoles &r, const std::vector<DimPlan> &dims,
             const CodegenTarget &target) {
  double macs = 1;
  for (int d : problem.ops[static_cast<size_t>(o)].dims)
    macs *= static_cast<double>(dims[static_cast<size_t>(d)].tile);
  const std::int64_t extent = r.row_dim < 0 ? 1 : dims[static_cast<size_t>(r.row_dim)].tile;
  const double rows =
      r.row_dim < 0 ? 1.0 / target.rows : block_fill(extent, register_rows(extent, target.rows));
  return macs * rows * block_fill(dims[static_cast<size_t>(r.vec_dim)].tile, target.col_block());
}

/// The contiguous position that role `r` of op `o` asks of the tensor in slot `slot` (-1: any).
int wanted_position(const ProblemOp &op, const OpRoles &r, size_t slot) {
  const TensorAccess &access = op.accesses[slot];
  if (slot + 1 == op.tensors.size() || static_cast<int>(slot) == r.b_input)
    return only_position(access, r.vec_dim);
  return r.row_dim < 0 ? -1 : only_position(access, r.row_dim);
}

/// How many of the op's tensors keep their last index contiguous (copied without transposing).
int natural_layouts(const ProblemOp &op, const OpRoles &r) {
  int n = 0;
  for (size_t slot = 0; slot < op.tensors.size(); ++slot) {
    const int p = wanted_position(op, r, slot);
    n += p < 0 || p + 1 == static_cast<int>(op.accesses[slot].indices.size()) ? 1 : 0;
  }
  return n;
}

int slot_of(const ProblemOp &op, int tensor) {
  for (size_t s = 0; s < op.tensors.size(); ++s)
    if (op.tensors[s] == tensor)
      return static_cast<int>(s);
  return -1;
}

bool consistent(const Problem &problem, const std::vector<OpRoles> &roles) {
  if (!problem.fused())
    return true;
  const int t = problem.links.front().intermediate;
  const int p0 =
      wanted_position(problem.ops[0], roles[0], static_cast<size_t>(slot_of(problem.ops[0], t)));
  const int p1 =
      wanted_position(problem.ops[1], roles[1], static_cast<size_t>(slot_of(problem.ops[1], t)));
  return p0 < 0 || p1 < 0 || p0 == p1;
}

} // namespace

std::vector<OpRoles> choose_roles(const Problem &problem, const std::vector<DimPlan> &dims,
                                  const CodegenTarget &target) {
  std::vector<std::vector<OpRoles>> options;
  for (size_t o = 0; o < problem.ops.size(); ++o)
    options.push_back(role_options(problem, static_cast<int>(o)));
  std::vector<OpRoles> best;
  double best_score = -1;
  int best_natural = -1;
  std::vector<OpRoles> pick(problem.ops.size());
  const size_t second = problem.fused() ? options[1].size() : 1;
  for (const OpRoles &r0 : options[0])
    for (size_t k = 0; k < second; ++k) {
      pick[0] = r0;
      if (problem.fused())
        pick[1] = options[1][k];
      if (!consistent(problem, pick))
        continue;
      double s = 0;
      int natural = 0;
      for (size_t o = 0; o < pick.size(); ++o) {
        s += score(problem, static_cast<int>(o), pick[o], dims, target);
        natural += natural_layouts(problem.ops[o], pick[o]);
      }
      // Fuller register blocks first; among equals, fewer copies that transpose.
      if (s > best_score * (1 + 1e-9) || (s >= best_score * (1 - 1e-9) && natural > best_natural)) {
        best_score = s;
        best_natural = natural;
        best = pick;
      }
    }
  if (best.empty())
    throw UserError(
        "the ops of the fused pair need different storage orders of the intermediate '" +
        problem.tensors[static_cast<size_t>(problem.links.front().intermediate)].name + "'");
  return best;
}

int register_rows(std::int64_t extent, int max_rows) {
  int best = max_rows;
  for (int r = max_rows - 1; r >= (max_rows + 1) / 2; --r)
    if (block_fill(extent, r) > block_fill(extent, best))
      best = r;
  return best;
}

std::vector<std::int64_t> panel_blocks(const Problem &problem, const std::vector<OpRoles> &roles,
                                       const std::vector<int> &rows,
                                       const std::vector<DimPlan> &dims, int nr) {
  std::vector<std::int64_t> out(problem.tensors.size(), 0);
  auto pack = [&](int tensor, const TensorAccess &access, int dim, std::int64_t block) {
    const int p = only_position(access, dim);
    const std::int64_t tile = dims[static_cast<size_t>(dim)].tile;
    if (problem.tensors[static_cast<size_t>(tensor)].role != TensorRole::Input || p < 0 ||
        !access.indices[static_cast<size_t>(p)].is_plain() || tile % block != 0 ||
        tile < kPanelMinWords)
      return;
    out[static_cast<size_t>(tensor)] = block;
  };
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    const ProblemOp &op = problem.ops[o];
    const OpRoles &r = roles[o];
    const auto a = static_cast<size_t>(r.a_input), b = static_cast<size_t>(r.b_input);
    if (r.row_dim >= 0)
      pack(op.tensors[a], op.accesses[a], r.row_dim, rows[o]);
    pack(op.tensors[b], op.accesses[b], r.vec_dim, nr);
  }
  return out;
}

std::vector<int> contiguous_positions(const Problem &problem, const std::vector<OpRoles> &roles) {
  std::vector<int> out(problem.tensors.size(), -1);
  for (size_t o = 0; o < problem.ops.size(); ++o) {
    const ProblemOp &op = problem.ops[o];
    for (size_t s = 0; s < op.tensors.size(); ++s) {
      const int p = wanted_position(op, roles[o], s);
      if (p >= 0)
        out[static_cast<size_t>(op.tensors[s])] = p;
    }
  }
  return out;
}

} // namespace dse::codegen
