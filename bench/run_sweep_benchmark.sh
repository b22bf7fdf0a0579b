#!/bin/sh
# Runs the sweep benchmark and prints the time of one 12 x 3 sweep against 36 separate explores.
# Usage: bench/run_sweep_benchmark.sh [build-dir]
set -eu
build=${1:-build}
bench="$build/bench/dse_sweep_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
"$bench" 2>/dev/null | tail -n 1
