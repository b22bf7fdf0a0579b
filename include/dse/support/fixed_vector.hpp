// A vector of at most N elements held in place: for the short per-operator lists that the
// searches build millions of times (an einsum's tensors, their trips), without allocating.
#pragma once

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>

#include "dse/support/check.hpp"

namespace dse {

template <typename T, size_t N> class FixedVector {
public:
  FixedVector() = default;
  void push_back(const T &value) {
    DSE_CHECK(size_ < N, "more than " + std::to_string(N) + " elements in a fixed vector");
    items_[size_++] = value;
  }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T &operator[](size_t i) const { return items_[i]; }
  T &operator[](size_t i) { return items_[i]; }
  const T *begin() const { return items_.data(); }
  const T *end() const { return items_.data() + size_; }

  friend bool operator==(const FixedVector &a, const FixedVector &b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }
  friend auto operator<=>(const FixedVector &a, const FixedVector &b) {
    return std::lexicographical_compare_three_way(a.begin(), a.end(), b.begin(), b.end());
  }

private:
  std::array<T, N> items_{};
  size_t size_ = 0;
};

} // namespace dse
