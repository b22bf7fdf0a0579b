#!/bin/sh
# Runs bench/kernel_bench.cpp once and prints the ratios it measured: the emitted GEMM kernels
# (1024^3, 2048^3) and the emitted fused FFN pairs (MMEE's BERT-width case, a narrow MLP) and
# fused attention (2K) against Eigen (GEMM) and the same computations done unfused with Eigen,
# one core each, on this machine.
# Usage: bench/run_kernel_benchmarks.sh [build-dir]
set -eu
build=${1:-build}
bench="$build/bench/dse_kernel_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
# Repetitions are interleaved at random and the fastest of each is kept, so that other work on a
# shared machine disturbs both sides of a ratio alike.
"$bench" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true |
  sed -n '/^emitted kernel vs Eigen/,$p'
