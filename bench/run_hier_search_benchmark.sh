#!/bin/sh
# Runs the hierarchical search benchmark on the reference architecture a16 and prints, per GEMM:
# spatial rows, keep vectors, tilings before and after the maximal-tiling pruning, mappings
# evaluated, mappings per second, time to the exact front and its size.
# Usage: bench/run_hier_search_benchmark.sh [build-dir] [benchmark filter]
set -eu
build=${1:-build}
filter=${2:-.}
bench="$build/bench/dse_hier_search_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
"$bench" --benchmark_filter="$filter" 2>/dev/null | sed -n '/^gemm/,$p'
