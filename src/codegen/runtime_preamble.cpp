// Runtime text shared by all generated kernels. GCC/Clang vector extensions keep it portable:
// the host compiler maps `vec` onto AVX2, AVX-512 or NEON registers.
#include "runtime_preamble.hpp"

namespace dse::codegen {

const char *runtime_preamble() {
  return R"(using i64 = std::int64_t;
typedef float vec __attribute__((vector_size(kLanes * sizeof(float))));
typedef std::int32_t ivec __attribute__((vector_size(kLanes * sizeof(float))));

[[maybe_unused]] inline vec load(const float *p) {
  vec v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
[[maybe_unused]] inline void store(float *p, vec v) { std::memcpy(p, &v, sizeof v); }
/// The first N lanes (the others zero), for blocks narrower than a vector.
template <int N> inline vec load_lanes(const float *p) {
  if constexpr (N == kLanes)
    return load(p);
  vec v{};
  std::memcpy(&v, p, N * sizeof(float));
  return v;
}
template <int N> inline void store_lanes(float *p, vec v) { std::memcpy(p, &v, N * sizeof(float)); }
[[maybe_unused]] inline vec splat(float x) { return vec{} + x; }
[[maybe_unused]] inline vec select(ivec mask, vec a, vec b) {
  return (vec)((mask & (ivec)a) | (~mask & (ivec)b));
}
[[maybe_unused]] inline vec vmax(vec a, vec b) { return select(a > b, a, b); }
[[maybe_unused]] inline vec vmin(vec a, vec b) { return select(a < b, a, b); }
[[maybe_unused]] inline float hmax(vec v) {
  float m = v[0];
  for (int q = 1; q < kLanes; ++q)
    m = std::max(m, v[q]);
  return m;
}
[[maybe_unused]] inline float hsum(vec v) {
  float s = 0.0f;
  for (int q = 0; q < kLanes; ++q)
    s += v[q];
  return s;
}

/// exp(x) in every lane (Cephes polynomial; relative error about 2e-7).
[[maybe_unused]] inline vec exp_vec(vec x) {
  x = vmin(vmax(x, splat(-87.33f)), splat(88.37f));
  const vec n = (x * 1.44269504f + 12582912.0f) - 12582912.0f; // round(x / ln 2)
  const vec r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
  vec p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const vec y = p * r * r + r + 1.0f;
  const ivec e = (__builtin_convertvector(n, ivec) + 127) << 23;
  return y * (vec)e;
}

/// The register-level arena of the micro-kernel: R rows of C accumulators (C <= kNr).
template <int R, int C> struct Acc {
  static constexpr int kFull = C / kLanes;
  static constexpr int kTail = C % kLanes;
  static constexpr int kVecs = kFull + (kTail > 0 ? 1 : 0);
  vec v[R][kVecs];

  static void row(const float *p, vec *out) {
    for (int q = 0; q < kFull; ++q)
      out[q] = load(p + q * kLanes);
    if constexpr (kTail > 0)
      out[kFull] = load_lanes<kTail>(p + kFull * kLanes);
  }
  void load_from(const float *c, i64 row_stride) {
    for (int r = 0; r < R; ++r)
      row(c + r * row_stride, v[r]);
  }
  void store_to(float *c, i64 row_stride) const {
    for (int r = 0; r < R; ++r) {
      for (int q = 0; q < kFull; ++q)
        store(c + r * row_stride + q * kLanes, v[r][q]);
      if constexpr (kTail > 0)
        store_lanes<kTail>(c + r * row_stride + kFull * kLanes, v[r][kFull]);
    }
  }
  /// One reduction step: v[r] += a[r * SA] * b[0 .. C).
  template <i64 SA> void fma(const float *a, const float *b) {
    vec bv[kVecs];
    row(b, bv);
    for (int r = 0; r < R; ++r) {
      const float x = a[r * SA];
      for (int q = 0; q < kVecs; ++q)
        v[r][q] += x * bv[q];
    }
  }
};

/// The part of the box [lo, lo + ext) inside an array of `shape`: its origin `from` and extent
/// `count` per position; false when it is empty.
template <std::size_t R>
bool clip(const std::array<i64, R> &shape, const std::array<i64, R> &lo,
          const std::array<i64, R> &ext, std::array<i64, R> &from, std::array<i64, R> &count) {
  for (std::size_t p = 0; p < R; ++p) {
    from[p] = std::clamp<i64>(lo[p], 0, shape[p]);
    count[p] = std::clamp<i64>(lo[p] + ext[p], 0, shape[p]) - from[p];
    if (count[p] <= 0)
      return false;
  }
  return true;
}

/// Calls run(array_offset, tile_offset, length, tile_step) for every run of the clipped box along
/// the array's contiguous last position. The tile, of extents `layout` (at least the box's), stores
/// the box from its origin in `order` (the last position contiguous) with that position packed in
/// blocks of `blk` (blocks outermost); a run is cut at block boundaries, so it is contiguous in
/// the tile unless the tile transposes it.
template <std::size_t R, class Run>
void for_each_run(const float *array, const std::array<i64, R> &shape, const std::array<i64, R> &lo,
                  const std::array<i64, R> &ext, const std::array<i64, R> &layout,
                  const std::array<int, R> &order, i64 blk, Run run) {
  std::array<i64, R> from{}, count{};
  if (!clip(shape, lo, ext, from, count))
    return;
  const std::size_t in = static_cast<std::size_t>(order[R - 1]);
  std::array<i64, R> array_stride{}, tile_stride{};
  i64 s = 1;
  for (std::size_t p = R; p-- > 0;) {
    array_stride[p] = s;
    s *= shape[p];
  }
  const i64 array_words = s;
  s = blk;
  for (std::size_t k = R - 1; k-- > 0;) {
    tile_stride[static_cast<std::size_t>(order[k])] = s;
    s *= layout[static_cast<std::size_t>(order[k])];
  }
  const i64 block_words = s; // one block of the contiguous position, every other position whole
  std::array<i64, R> x{};
  for (;;) {
    i64 a = 0, rest = 0;
    for (std::size_t p = 0; p < R; ++p) {
      a += (from[p] + x[p]) * array_stride[p];
      if (p != in)
        rest += (from[p] - lo[p] + x[p]) * tile_stride[p];
    }
    if constexpr (R > 1) { // fetch a later run ahead: strided rows defeat the hardware prefetchers
      const i64 ahead = a + 4 * array_stride[R - 2];
      for (i64 line = 0; line < count[R - 1] && ahead + line < array_words; line += 16)
        __builtin_prefetch(array + ahead + line);
    }
    const i64 e = from[in] - lo[in] + x[in]; // where the run starts along the blocked position
    i64 t = e / blk * block_words + rest + e % blk;
    if (in != R - 1) { // the tile transposes the array's runs
      run(a, t, count[R - 1], tile_stride[R - 1]);
    } else {
      for (i64 left = count[in], piece = std::min(left, blk - e % blk); left > 0;
           left -= piece, a += piece, t += block_words - (blk - piece), piece = std::min(left, blk))
        run(a, t, piece, 1);
    }
    std::size_t p = R - 1;
    while (p > 0 && ++x[p - 1] == count[p - 1])
      x[--p] = 0;
    if (p == 0)
      return;
  }
}

/// n words from `from` (stride from_step) to `to` (stride to_step); one of the strides is 1.
[[maybe_unused]] inline void copy_run(float *to, i64 to_step, const float *from, i64 from_step,
                                      i64 n) {
  if (to_step == 1 && from_step == 1 && n >= 64) {
    std::memcpy(to, from, static_cast<std::size_t>(n) * sizeof(float));
    return;
  }
  for (i64 e = 0; e < n; ++e)
    to[e * to_step] = from[e * from_step];
}

/// DMA-style copy of a box of a DRAM array into a tile of extents `layout` (the box from its
/// origin); elements outside the array read zero. Returns the box's words, the DRAM words moved.
template <std::size_t R>
i64 copy_in_box(float *tile, const float *src, const std::array<i64, R> &shape,
                const std::array<i64, R> &lo, const std::array<i64, R> &ext,
                const std::array<i64, R> &layout, const std::array<int, R> &order, i64 blk) {
  i64 words = 1, layout_words = 1;
  bool inside = true;
  for (std::size_t p = 0; p < R; ++p) {
    words *= ext[p];
    layout_words *= layout[p];
    inside = inside && lo[p] >= 0 && lo[p] + ext[p] <= shape[p];
  }
  if (!inside)
    std::memset(tile, 0, static_cast<std::size_t>(layout_words) * sizeof(float));
  for_each_run<R>(src, shape, lo, ext, layout, order, blk,
                  [&](i64 a, i64 t, i64 n, i64 step) { copy_run(tile + t, step, src + a, 1, n); });
  return words;
}
/// copy_in_box of a box that fills its tile.
template <std::size_t R>
void copy_in(float *tile, const float *src, const std::array<i64, R> &shape,
             const std::array<i64, R> &lo, const std::array<i64, R> &ext,
             const std::array<int, R> &order, i64 blk) {
  copy_in_box<R>(tile, src, shape, lo, ext, ext, order, blk);
}
/// DMA-style copy of a tile back into a DRAM array; elements outside the array are skipped.
template <std::size_t R>
void copy_out(const float *tile, float *dst, const std::array<i64, R> &shape,
              const std::array<i64, R> &lo, const std::array<i64, R> &ext,
              const std::array<int, R> &order, i64 blk) {
  for_each_run<R>(dst, shape, lo, ext, ext, order, blk,
                  [&](i64 a, i64 t, i64 n, i64 step) { copy_run(dst + a, 1, tile + t, step, n); });
}
/// A box of `count` elements between two arena tiles of per-position strides (overlap stores).
template <std::size_t R>
void copy_region(float *to, const std::array<i64, R> &to_stride, const float *from,
                 const std::array<i64, R> &from_stride, const std::array<i64, R> &count) {
  std::array<i64, R> x{};
  for (std::size_t p = 0; p < R; ++p)
    if (count[p] <= 0)
      return;
  for (;;) {
    i64 a = 0, b = 0;
    for (std::size_t p = 0; p < R; ++p) {
      a += x[p] * to_stride[p];
      b += x[p] * from_stride[p];
    }
    to[a] = from[b];
    std::size_t p = R;
    while (p > 0 && ++x[p - 1] == count[p - 1])
      x[--p] = 0;
    if (p == 0)
      return;
  }
}

/// The words before position `x` (from the tile's origin) of a tile of extents `layout` stored
/// in `order` with its last position packed in blocks of `blk` (the layout of for_each_run).
template <std::size_t R>
i64 tile_offset(const std::array<i64, R> &x, const std::array<i64, R> &layout,
                const std::array<int, R> &order, i64 blk) {
  i64 s = blk, rest = 0;
  for (std::size_t k = R - 1; k-- > 0;) {
    const auto p = static_cast<std::size_t>(order[k]);
    rest += x[p] * s;
    s *= layout[p];
  }
  const i64 e = x[static_cast<std::size_t>(order[R - 1])];
  return e / blk * s + rest + e % blk;
}
/// A tile in the arena: where it is, the position its box starts at, and its layout.
template <std::size_t R> struct TileView {
  float *at;
  std::array<i64, R> origin, layout;
  std::array<int, R> order;
  i64 blk;
  float &operator[](const std::array<i64, R> &position) const {
    std::array<i64, R> x{};
    for (std::size_t p = 0; p < R; ++p)
      x[p] = position[p] - origin[p];
    return at[tile_offset<R>(x, layout, order, blk)];
  }
};
/// Adds to the positions [lo, lo + count) of an output tile, but those at or past `real`
/// (padding), the residual read from the tile of the input it is, held on chip.
template <std::size_t R>
void add_held_residual(const TileView<R> &out, const TileView<R> &in,
                       const std::array<i64, R> &lo, const std::array<i64, R> &count,
                       const std::array<i64, R> &real) {
  std::array<i64, R> x{};
  for (std::size_t p = 0; p < R; ++p)
    if (count[p] <= 0 || lo[p] >= real[p])
      return;
  for (;;) {
    std::array<i64, R> v{};
    bool inside = true;
    for (std::size_t p = 0; p < R; ++p) {
      v[p] = lo[p] + x[p];
      inside = inside && v[p] < real[p];
    }
    if (inside)
      out[v] += in[v];
    std::size_t p = R;
    while (p > 0 && ++x[p - 1] == count[p - 1])
      x[--p] = 0;
    if (p == 0)
      return;
  }
}

[[maybe_unused]] inline void zero(float *p, i64 words) {
  std::memset(p, 0, static_cast<std::size_t>(words) * sizeof(float));
}

/// Softmax of one contiguous row: its first n_real entries normalised, the padding zeroed.
[[maybe_unused]] inline void softmax_row(float *row, i64 n_real, i64 n_ext) {
  const i64 full = n_real / kLanes * kLanes;
  vec mv = splat(-std::numeric_limits<float>::infinity());
  for (i64 e = 0; e < full; e += kLanes)
    mv = vmax(mv, load(row + e));
  float m = hmax(mv);
  for (i64 e = full; e < n_real; ++e)
    m = std::max(m, row[e]);
  vec sv{};
  for (i64 e = 0; e < full; e += kLanes) {
    const vec p = exp_vec(load(row + e) - m);
    store(row + e, p);
    sv += p;
  }
  float sum = hsum(sv);
  for (i64 e = full; e < n_real; ++e) {
    row[e] = exp_vec(splat(row[e] - m))[0];
    sum += row[e];
  }
  const float inv = 1.0f / sum;
  for (i64 e = 0; e < n_real; ++e)
    row[e] *= inv;
  std::fill(row + n_real, row + n_ext, 0.0f);
}

/// Calls f(v, width) for the lanes [v, v + width) of a row of W contiguous words, in vectors and
/// a narrower last one (width is a std::integral_constant).
template <int W, class F> void for_lanes(F f) {
  for (int v = 0; v + kLanes <= W; v += kLanes)
    f(v, std::integral_constant<int, kLanes>{});
  if constexpr (W % kLanes != 0)
    f(W / kLanes * kLanes, std::integral_constant<int, W % kLanes>{});
}

/// One tile of the normalised dim (strided by `sn`, n_real real entries of n_ext) for W rows
/// held in contiguous lanes, online form: with `update`, folds the tile into each row's running
/// max (mx) and sum (sm) and keeps the rescale factor (sc); always turns the scores into
/// exp(s - running max). Rows stream through the lanes, so the tile is read in storage order.
template <int W>
void online_softmax_rows(float *s, i64 sn, i64 n_real, i64 n_ext, float *mx, float *sm, float *sc,
                         bool update) {
  if (update) {
    std::memcpy(sc, mx, W * sizeof(float)); // the old max, for now
    for (i64 e = 0; e < n_real; ++e)
      for_lanes<W>([&](int v, auto w) {
        constexpr int n = decltype(w)::value;
        store_lanes<n>(mx + v, vmax(load_lanes<n>(mx + v), load_lanes<n>(s + e * sn + v)));
      });
    for_lanes<W>([&](int v, auto w) {
      constexpr int n = decltype(w)::value;
      const vec scale = exp_vec(load_lanes<n>(sc + v) - load_lanes<n>(mx + v));
      store_lanes<n>(sc + v, scale);
      store_lanes<n>(sm + v, load_lanes<n>(sm + v) * scale);
    });
  }
  for (i64 e = 0; e < n_real; ++e)
    for_lanes<W>([&](int v, auto w) {
      constexpr int n = decltype(w)::value;
      const vec p = exp_vec(load_lanes<n>(s + e * sn + v) - load_lanes<n>(mx + v));
      store_lanes<n>(s + e * sn + v, p);
      if (update)
        store_lanes<n>(sm + v, load_lanes<n>(sm + v) + p);
    });
  for (i64 e = n_real; e < n_ext; ++e)
    std::memset(s + e * sn, 0, W * sizeof(float));
}

/// Softmax of whole rows (W contiguous lanes, the normalised dim strided by `sn`).
template <int W> void softmax_rows(float *s, i64 sn, i64 n_real, i64 n_ext) {
  float mx[W], sm[W], sc[W];
  std::fill(mx, mx + W, -std::numeric_limits<float>::infinity());
  std::fill(sm, sm + W, 0.0f);
  online_softmax_rows<W>(s, sn, n_real, n_ext, mx, sm, sc, true);
  for (i64 e = 0; e < n_real; ++e)
    for (int v = 0; v < W; ++v)
      s[e * sn + v] /= sm[v];
}

/// Running max -inf, sum 0 and scale 0 for `rows` rows.
[[maybe_unused]] inline void softmax_state_init(float *state, i64 rows) {
  std::fill(state, state + rows, -std::numeric_limits<float>::infinity());
  std::fill(state + rows, state + 3 * rows, 0.0f);
}
)";
}

} // namespace dse::codegen
