#!/bin/sh
# Runs the search benchmarks, one workload per process so that peak memory is per workload, and
# prints for each: candidates before/after pruning, mappings evaluated, mappings per second, time
# to the full front (and again with its candidate spaces cached, as a warm --cache-dir serves
# them; bench/run_cache_benchmark.sh times the command itself), the time of the same exploration
# evaluating every tiling column (today's baseline for the boxes of tilings) and the boxes' gain,
# peak memory, the matrix path's speed-up over the brute-force evaluator, the tiling boxes and
# columns visited, the mappings whose objectives were computed, and the flop rate of the Q x B
# products with its share of the machine's nominal peak.
# Usage: bench/run_benchmarks.sh [build-dir]
set -eu
build=${1:-build}
bench="$build/bench/dse_search_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
for w in gpt3-6.7b-attention-s2048 gpt3-6.7b-attention-s131072 ffn-2048x768x3072x768 conv-chain-112; do
  "$bench" --benchmark_filter="/$w/" 2>/dev/null | tail -n 2 | { [ "$w" = gpt3-6.7b-attention-s2048 ] && cat || tail -n 1; }
done
