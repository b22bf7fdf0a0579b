#!/bin/sh
# Runs the network benchmark and prints, per shipped network on the 8 MiB-GSM vector DSP, the
# planning time, the GSM peak (words) before and after adaptive splitting, the memory
# compression ratio, the schedule's speed-up from laying out its vector passes, and its DRAM
# words with tensors kept on chip between segments and with every one through DRAM.
# Usage: bench/run_network_benchmark.sh [build-dir]
set -eu
build=${1:-build}
bench="$build/bench/dse_network_bench"
[ -x "$bench" ] || { echo "error: $bench not found; build with -DDSE_BUILD_BENCH=ON" >&2; exit 1; }
"$bench" 2>/dev/null | sed -n '/^network /,$p'
