// The machine's nominal peak rate of double-precision floating-point operations, against which
// `dse explore -v` and the benchmarks set the rate the search achieves.
#pragma once

namespace dse {

/// Cores x clock x flops per cycle and core: the clock is the first `cpu MHz` of /proc/cpuinfo,
/// the flops per cycle two fused multiply-adds per cycle on the widest vectors its `flags` name
/// (AVX-512: 32, AVX2 with FMA: 16, else 4). `threads`: cores counted (0: every core). Returns
/// 0 when /proc/cpuinfo cannot be read.
double nominal_peak_flops(int threads);

} // namespace dse
