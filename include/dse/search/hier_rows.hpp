// The symbolic count rows of the hierarchical search (docs/HIERARCHY.md §5): for one support (the
// loops present at every storage level), one row per combination of loop orders, whose
// deliveries Delta(l,t) into every on-chip level are sparse combinations of basis monomials in
// the temporal factors phi[l][d] and the fan-outs' spatial factors s[g][d] (the rows of Q). A
// basis monomial is a product over dimensions of one atom per dimension, so a tiling's column of
// B is a product of per-dimension atom values, and a row's deliveries are Q x b.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "dse/ir/hier_mapping.hpp"
#include "dse/ir/hierarchy.hpp"
#include "dse/ir/workload.hpp"

namespace dse {

inline constexpr size_t kMaxHierLevels = kMaxStorageLevels; // DRAM included
inline constexpr size_t kMaxHierTensors = 3;                // two inputs and an output

/// Delta(l,t) per storage level l >= 1 and tensor t (level 0 unused); entries for tensors a level
/// does not keep are not read.
using HierDeliveries = std::array<std::array<double, kMaxHierTensors>, kMaxHierLevels>;
static_assert((kMaxHierLevels - 1) * kMaxHierTensors <= 32, "a bit per on-chip count");

/// One dimension's part of a basis monomial: the power of its temporal factor at each level and
/// of its spatial factor in each gap (gap g: the fan-outs below level g).
struct HierAtom {
  std::array<std::uint8_t, kMaxHierLevels> temporal{};
  std::array<std::uint8_t, kMaxHierLevels> spatial{};
  bool operator==(const HierAtom &) const = default;
};

/// A tiling as the basis reads it: the storage levels' blocks (their temporal factors), and per
/// gap and workload dimension the product of its fan-outs' spatial factors.
struct HierTilingFactors {
  const std::vector<LevelMapping> &levels;
  const std::vector<std::vector<double>> &spatial;
};

/// The rows of one support: Q, sparse over the basis, with the basis as per-dimension atoms.
class HierRowBlock {
public:
  /// For einsum `op` (tensors in operator_tensors order) searched over `dims`: `present[l]` holds
  /// a bit per index of `dims` whose loop exists at storage level l (factor > 1), and `orders[l]`
  /// the orders of those loops (outer to inner, workload dimensions) that the rows combine, level
  /// 0's varying slowest.
  HierRowBlock(const Operator &op, const std::vector<int> &dims,
               const std::vector<std::uint64_t> &present,
               const std::vector<std::span<const std::vector<int>>> &orders);

  size_t rows() const { return rows_; }
  size_t basis_size() const { return basis_start_.size() - 1; }
  /// The index into orders[level] that row `row` takes.
  size_t order_of(size_t row, size_t level) const;

  /// The counts that keep vector `keep` (per storage level a bit per tensor it keeps) reads of an
  /// einsum with `tensors` tensors: a bit per on-chip level l and tensor t, (l - 1) * tensors + t.
  static std::uint32_t kept_counts(const std::vector<std::uint32_t> &keep, size_t tensors);

  /// The column b of B for a tiling, the basis monomials that only unread counts use left out;
  /// `scratch` holds the tiling's factors and atoms.
  void evaluate_basis(const HierTilingFactors &tiling, std::uint32_t kept,
                      std::vector<double> &scratch, std::vector<double> &b) const;

  /// Delta(l,t) of row `row` at column `b` for the counts `kept` reads; the other entries are left
  /// as they are.
  void deliveries(size_t row, const std::vector<double> &b, std::uint32_t kept,
                  HierDeliveries &delta) const;

private:
  struct Entry {
    std::uint32_t basis = 0;
    double coef = 0;
  };
  /// The bit of on-chip level `level`'s count of tensor `tensor` in a set of counts.
  static std::uint32_t count_bit(size_t level, size_t tensor, size_t tensors) {
    return std::uint32_t{1} << ((level - 1) * tensors + tensor);
  }
  /// Adds an atom of dimension dims[dim_index]: the tiling factors it multiplies.
  std::uint32_t add_atom(std::uint32_t dim_index, const HierAtom &atom);

  size_t levels_ = 0;
  size_t tensors_ = 0;
  size_t rows_ = 1;
  std::vector<int> dims_;
  std::vector<size_t> radix_;               // per level: the orders its rows take
  std::vector<std::uint32_t> atom_start_;   // per atom: its factors in atom_factors_
  std::vector<std::uint32_t> atom_factors_; // indices into a tiling's factors, one per power
  std::vector<std::uint32_t> factor_slots_; // the tiling's factors some atom reads
  std::vector<std::uint32_t> basis_start_;  // per basis monomial: its atoms in basis_atoms_
  std::vector<std::uint32_t> basis_atoms_;  // atom indices
  std::vector<std::uint32_t> readers_;      // per basis monomial: the counts that read it
  std::vector<std::uint32_t> entry_start_;  // per (row, level >= 1, tensor): its entries
  std::vector<Entry> entries_;
};

} // namespace dse
