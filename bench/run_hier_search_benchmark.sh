#!/bin/sh
# Runs the hierarchical search benchmark (GEMMs on the reference architecture a16; a GEMM and
# GPT-3 attention at sequence length 131072 on a three-level design) and prints, per hardware and
# workload: the space before pruning, mappings decided per second, spatial rows, keep vectors,
# tilings that fit and tilings searched, mappings evaluated, mappings per second, the time to the
# exact front on one thread (the baseline) and on every thread, their ratio, and the front's size;
# then, for fronts over energy and DRAM words on a16 (every thread), the tilings reached and the
# time with the DRAM floor of the bounds and without it (the baseline), and their ratio.
# Usage: bench/run_hier_search_benchmark.sh [build-dir] [benchmark filter]
set -eu
build=${1:-build}
filter=${2:-.}
bench="$build/bench/dse_hier_search_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
"$bench" --benchmark_filter="$filter" 2>/dev/null | sed -n '/^hardware/,$p'
