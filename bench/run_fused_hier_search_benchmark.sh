#!/bin/sh
# Runs the fused-pair search benchmark (an FFN pair fused at a16's global buffer, at growing
# sizes, then at the shipped FFN's, which takes about ten seconds on two threads and twice that on
# one) and prints, per size: the fused search's loop trees, level-1 tilings, tilings skipped by the
# bound, nest fronts, nests and mappings evaluated, its time on every thread beside two baselines
# measured in the same run (the same search on one thread, and the two operators searched
# unfused, as `dse explore` does without --hier-fusion), the ratios, and the least energy of each
# front. Filters: `2048x768` runs the shipped FFN alone, `ffn-(16|32|64)x` the small sizes.
# Usage: bench/run_fused_hier_search_benchmark.sh [build-dir] [benchmark filter]
set -eu
build=${1:-build}
filter=${2:-.}
bench="$build/bench/dse_fused_hier_search_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
"$bench" --benchmark_filter="$filter" 2>/dev/null | sed -n '/^ffn/,$p'
