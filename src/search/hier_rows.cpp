// The rows of one support of the hierarchical search, built from the counting rules of
// docs/HIERARCHY.md §4.1 and §5.1: Delta(l,t) = instances(l) * |tile(l,t)| * E(l,t), where
// instances(l) is the spatial factors of the gaps above l, the tile's words are a polynomial in
// the extents X[l][d] (each the temporal factors of levels l and below times the spatial factors
// of gaps l and below), and E(l,t) is the temporal factors of every level above the innermost
// level J above l whose order has a loop over the tensor, times J's loops down to its innermost
// loop over the tensor (1 if no such level).
#include "dse/search/hier_rows.hpp"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "dse/support/check.hpp"

namespace dse {

namespace {

/// A term of a tile's words: its coefficient and, per searched dimension, the power of its
/// extent.
using ExtentPowers = std::vector<int>;
using TilePolynomial = std::map<ExtentPowers, double>;

/// The words of `access`'s tile as a polynomial in the extents: each index 1 + sum c_i (X_i - 1).
TilePolynomial tile_polynomial(const TensorAccess &access, const std::vector<size_t> &index_of,
                               size_t dims) {
  TilePolynomial words{{ExtentPowers(dims, 0), 1.0}};
  for (const IndexExpr &index : access.indices) {
    TilePolynomial span;
    double constant = 1;
    for (const IndexTerm &term : index.terms) {
      ExtentPowers power(dims, 0);
      power[index_of[static_cast<size_t>(term.dim)]] = 1;
      span[power] += static_cast<double>(term.coef);
      constant -= static_cast<double>(term.coef);
    }
    if (constant != 0)
      span[ExtentPowers(dims, 0)] += constant;
    TilePolynomial product;
    for (const auto &[a, ca] : words)
      for (const auto &[b, cb] : span) {
        ExtentPowers sum = a;
        for (size_t i = 0; i < dims; ++i)
          sum[i] += b[i];
        product[sum] += ca * cb;
      }
    words.clear();
    for (const auto &[power, coef] : product)
      if (coef != 0)
        words.emplace(power, coef);
  }
  return words;
}

/// The innermost level above `level` whose order (in `orders`) has a loop over a dimension of
/// `relevant`, and how many of its loops, outermost first, reach its innermost such loop (no loops
/// when there is none).
struct EnclosingLevel {
  size_t level = 0;
  size_t loops = 0;
};
EnclosingLevel enclosing_level(const std::vector<const std::vector<int> *> &orders, size_t level,
                               std::uint64_t relevant) {
  EnclosingLevel found;
  for (size_t j = 0; j < level; ++j)
    for (size_t position = 0; position < orders[j]->size(); ++position)
      if ((relevant >> (*orders[j])[position] & 1U) != 0)
        found = {j, position + 1};
  return found;
}

std::uint64_t atom_key(std::uint32_t dim_index, const HierAtom &atom) {
  std::uint64_t key = dim_index;
  for (size_t l = 0; l < kMaxHierLevels; ++l) {
    DSE_CHECK(atom.temporal[l] < 16 && atom.spatial[l] < 16, "a basis atom's power overflows");
    key = key << 8 | std::uint64_t{atom.temporal[l]} << 4 | atom.spatial[l];
  }
  return key;
}

struct AtomListHash {
  size_t operator()(const std::vector<std::uint32_t> &atoms) const {
    size_t h = atoms.size();
    for (std::uint32_t a : atoms)
      h = h * 0x9E3779B97F4A7C15ULL + a;
    return h;
  }
};

} // namespace

std::uint32_t HierRowBlock::add_atom(std::uint32_t dim_index, const HierAtom &atom) {
  const size_t dims = dims_.size();
  for (size_t l = 0; l < levels_; ++l) {
    for (std::uint8_t k = 0; k < atom.temporal[l]; ++k)
      atom_factors_.push_back(static_cast<std::uint32_t>(l * dims + dim_index));
    for (std::uint8_t k = 0; k < atom.spatial[l]; ++k)
      atom_factors_.push_back(static_cast<std::uint32_t>((levels_ + l) * dims + dim_index));
  }
  atom_start_.push_back(static_cast<std::uint32_t>(atom_factors_.size()));
  return static_cast<std::uint32_t>(atom_start_.size() - 2);
}

HierRowBlock::HierRowBlock(const Operator &op, const std::vector<int> &dims,
                           const std::vector<std::uint64_t> &present,
                           const std::vector<std::span<const std::vector<int>>> &orders)
    : levels_(present.size()), dims_(dims) {
  const OperatorTensors tensors = operator_tensors(op);
  tensors_ = tensors.size();
  DSE_CHECK(levels_ <= kMaxHierLevels && tensors_ <= kMaxHierTensors && orders.size() == levels_,
            "a hierarchy or einsum larger than the symbolic rows hold");
  for (const std::span<const std::vector<int>> &o : orders) {
    radix_.push_back(o.size());
    rows_ *= o.size();
  }
  std::vector<size_t> index_of;
  for (size_t i = 0; i < dims.size(); ++i) {
    const auto d = static_cast<size_t>(dims[i]);
    index_of.resize(std::max(index_of.size(), d + 1));
    index_of[d] = i;
  }
  std::vector<TilePolynomial> tiles;
  std::vector<std::uint64_t> relevant;
  for (const TensorAccess *t : tensors) {
    tiles.push_back(tile_polynomial(*t, index_of, dims.size()));
    relevant.push_back(0);
    for (int d : dims)
      if (t->uses(d))
        relevant.back() |= std::uint64_t{1} << d;
  }
  std::unordered_map<std::uint64_t, std::uint32_t> atom_ids;
  std::unordered_map<std::vector<std::uint32_t>, std::uint32_t, AtomListHash> basis_ids;
  basis_start_.push_back(0);
  atom_start_.push_back(0);
  std::vector<HierAtom> atoms(dims.size());
  std::vector<std::uint32_t> monomial;
  std::vector<const std::vector<int> *> row_orders(levels_);
  entry_start_.push_back(0);
  for (size_t row = 0; row < rows_; ++row) {
    for (size_t l = 0; l < levels_; ++l)
      row_orders[l] = &orders[l][order_of(row, l)];
    for (size_t l = 1; l < levels_; ++l)
      for (size_t t = 0; t < tensors_; ++t) {
        const EnclosingLevel enclosing = enclosing_level(row_orders, l, relevant[t]);
        for (const auto &[power, coef] : tiles[t]) {
          monomial.clear();
          for (size_t i = 0; i < dims.size(); ++i) {
            HierAtom &a = atoms[i];
            a = HierAtom{};
            for (size_t g = 0; g < levels_; ++g) // instances above l, the extent's fan-outs below
              a.spatial[g] = static_cast<std::uint8_t>(g < l ? 1 : power[i]);
            for (size_t j = l; j < levels_; ++j)
              if ((present[j] >> i & 1U) != 0)
                a.temporal[j] = static_cast<std::uint8_t>(power[i]);
          }
          if (enclosing.loops > 0) {
            for (size_t j = 0; j < enclosing.level; ++j)
              for (size_t i = 0; i < dims.size(); ++i)
                if ((present[j] >> i & 1U) != 0)
                  ++atoms[i].temporal[j];
            const std::vector<int> &order = *row_orders[enclosing.level];
            for (size_t position = 0; position < enclosing.loops; ++position)
              ++atoms[index_of[static_cast<size_t>(order[position])]].temporal[enclosing.level];
          }
          for (size_t i = 0; i < dims.size(); ++i) {
            if (atoms[i] == HierAtom{})
              continue;
            const auto dim_index = static_cast<std::uint32_t>(i);
            const auto [at, added] = atom_ids.try_emplace(atom_key(dim_index, atoms[i]), 0);
            if (added)
              at->second = add_atom(dim_index, atoms[i]);
            monomial.push_back(at->second);
          }
          const auto [basis, added] =
              basis_ids.try_emplace(monomial, static_cast<std::uint32_t>(basis_ids.size()));
          if (added) {
            basis_atoms_.insert(basis_atoms_.end(), monomial.begin(), monomial.end());
            basis_start_.push_back(static_cast<std::uint32_t>(basis_atoms_.size()));
            readers_.push_back(0);
          }
          readers_[basis->second] |= count_bit(l, t, tensors_);
          entries_.push_back({basis->second, coef});
        }
        entry_start_.push_back(static_cast<std::uint32_t>(entries_.size()));
      }
  }
  factor_slots_ = atom_factors_;
  std::sort(factor_slots_.begin(), factor_slots_.end());
  factor_slots_.erase(std::unique(factor_slots_.begin(), factor_slots_.end()), factor_slots_.end());
}

size_t HierRowBlock::order_of(size_t row, size_t level) const {
  for (size_t l = levels_; l-- > level + 1;)
    row /= radix_[l];
  return row % radix_[level];
}

void HierRowBlock::evaluate_basis(const HierTilingFactors &tiling, std::uint32_t kept,
                                  std::vector<double> &scratch, std::vector<double> &b) const {
  // The tiling's factors first (temporal, then spatial, per level and dimension), each atom the
  // product of the ones it lists, each basis monomial the product of its atoms.
  const size_t dims = dims_.size();
  scratch.resize(2 * levels_ * dims + atom_start_.size() - 1);
  double *factor = scratch.data();
  for (std::uint32_t slot : factor_slots_) {
    const size_t kind_level = slot / dims;
    const auto d = static_cast<size_t>(dims_[slot % dims]);
    factor[slot] = kind_level < levels_ ? static_cast<double>(tiling.levels[kind_level].factor[d])
                                        : tiling.spatial[kind_level - levels_][d];
  }
  double *atom = factor + 2 * levels_ * dims;
  for (size_t a = 0; a + 1 < atom_start_.size(); ++a) {
    double value = 1;
    for (std::uint32_t f = atom_start_[a]; f < atom_start_[a + 1]; ++f)
      value *= factor[atom_factors_[f]];
    atom[a] = value;
  }
  b.resize(basis_size());
  for (size_t k = 0; k < b.size(); ++k) {
    if ((readers_[k] & kept) == 0)
      continue;
    double value = 1;
    for (std::uint32_t i = basis_start_[k]; i < basis_start_[k + 1]; ++i)
      value *= atom[basis_atoms_[i]];
    b[k] = value;
  }
}

std::uint32_t HierRowBlock::kept_counts(const std::vector<std::uint32_t> &keep, size_t tensors) {
  std::uint32_t kept = 0;
  for (size_t l = 1; l < keep.size(); ++l)
    for (size_t t = 0; t < tensors; ++t)
      if ((keep[l] >> t & 1U) != 0)
        kept |= count_bit(l, t, tensors);
  return kept;
}

void HierRowBlock::deliveries(size_t row, const std::vector<double> &b, std::uint32_t kept,
                              HierDeliveries &delta) const {
  const std::uint32_t *start = entry_start_.data() + row * (levels_ - 1) * tensors_;
  for (size_t l = 1; l < levels_; ++l)
    for (size_t t = 0; t < tensors_; ++t, ++start) {
      if ((kept & count_bit(l, t, tensors_)) == 0)
        continue;
      double sum = 0;
      for (std::uint32_t e = start[0]; e < start[1]; ++e)
        sum += entries_[e].coef * b[entries_[e].basis];
      delta[l][t] = sum;
    }
}

} // namespace dse
