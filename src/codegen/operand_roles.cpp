// Role choice: enumerate the (row, lane) dimension pairs of each operator, keep the combinations
// whose intermediate layouts agree, and take the one with the fullest register blocks.
#include "operand_roles.hpp"

#include <algorithm>

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

/// Whether the roles of ops 0..o agree on the storage order of every intermediate between them.
bool consistent(const Problem &problem, const std::vector<OpRoles> &roles, size_t o) {
  if (o == 0)
    return true;
  const int t = problem.links[o - 1].intermediate;
  const int p0 = wanted_position(problem.ops[o - 1], roles[o - 1],
                                 static_cast<size_t>(slot_of(problem.ops[o - 1], t)));
  const int p1 =
      wanted_position(problem.ops[o], roles[o], static_cast<size_t>(slot_of(problem.ops[o], t)));
  return p0 < 0 || p1 < 0 || p0 == p1;
}

/// The best consistent choice among `options` (per op), enumerated op by op.
class RoleSearch {
public:
  RoleSearch(const Problem &problem, const std::vector<DimPlan> &dims, const CodegenTarget &target,
             std::vector<std::vector<OpRoles>> options)
      : problem_(problem), dims_(dims), target_(target), options_(std::move(options)),
        pick_(problem.ops.size()) {}

  std::vector<OpRoles> best() {
    choose(0);
    return best_;
  }
  /// The first op that no consistent choice reached.
  size_t deepest() const { return deepest_; }

private:
  void choose(size_t o) {
    deepest_ = std::max(deepest_, o);
    if (o == pick_.size()) {
      double s = 0;
      int natural = 0;
      for (size_t k = 0; k < pick_.size(); ++k) {
        s += score(problem_, static_cast<int>(k), pick_[k], dims_, target_);
        natural += natural_layouts(problem_.ops[k], pick_[k]);
      }
      // Fuller register blocks first; among equals, fewer copies that transpose.
      if (s > best_score_ * (1 + 1e-9) ||
          (s >= best_score_ * (1 - 1e-9) && natural > best_natural_)) {
        best_score_ = s;
        best_natural_ = natural;
        best_ = pick_;
      }
      return;
    }
    for (const OpRoles &r : options_[o]) {
      pick_[o] = r;
      if (consistent(problem_, pick_, o))
        choose(o + 1);
    }
  }

  const Problem &problem_;
  const std::vector<DimPlan> &dims_;
  const CodegenTarget &target_;
  std::vector<std::vector<OpRoles>> options_;
  std::vector<OpRoles> pick_;
  std::vector<OpRoles> best_;
  double best_score_ = -1;
  int best_natural_ = -1;
  size_t deepest_ = 0;
};

} // namespace

std::vector<OpRoles> choose_roles(const Problem &problem, const std::vector<DimPlan> &dims,
                                  const CodegenTarget &target) {
  std::vector<std::vector<OpRoles>> options;
  for (size_t o = 0; o < problem.ops.size(); ++o)
    options.push_back(role_options(problem, static_cast<int>(o)));
  RoleSearch search(problem, dims, target, std::move(options));
  std::vector<OpRoles> best = search.best();
  if (best.empty())
    throw UserError(
        "ops '" + problem.op(static_cast<int>(search.deepest()) - 1).name + "' and '" +
        problem.op(static_cast<int>(search.deepest())).name +
        "' need different storage orders of their intermediate '" +
        problem.tensors[static_cast<size_t>(problem.links[search.deepest() - 1].intermediate)]
            .name +
        "'");
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
