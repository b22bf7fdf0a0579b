#!/bin/sh
# Times `dse explore` on the chain workloads without a candidate cache directory, with a cold one
# (emptied before every run: the spaces are built and written) and with a warm one (read back),
# and prints the median wall-clock time of each over RUNS runs (default 5), with the front's
# checksum to show that all three write the same front. Pass a second build directory to time its
# `dse explore` too (e.g. a build from before a change, for the in-process effect).
# Usage: bench/run_cache_benchmark.sh [build-dir [baseline-build-dir]]
set -eu
build=${1:-build}
baseline=${2:-}
runs=${RUNS:-5}
[ -x "$build/dse" ] || { echo "error: $build/dse not found; build first" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
hw="$here/hw_configs/sim-1g-1mb-60gbps.yaml"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# median_seconds DSE WORKLOAD [--cache-dir DIR [--cold]]: the median time of `runs` explores.
median_seconds() {
  dse=$1 workload=$2
  shift 2
  cold=no
  [ "${3:-}" = --cold ] && cold=yes
  i=0
  while [ "$i" -lt "$runs" ]; do
    [ "$cold" = yes ] && rm -rf "$2"
    start=$(date +%s.%N)
    "$dse" explore --hw "$hw" --workload "$workload" -o "$tmp/front.csv" ${1:+"$1"} ${2:+"$2"}
    end=$(date +%s.%N)
    echo "$start $end" | awk '{ printf "%.3f\n", $2 - $1 }'
    i=$((i + 1))
  done | sort -n | awk -v n="$runs" '{ t[NR] = $1 } END { print t[int((n + 1) / 2)] }'
}

printf '%-28s %10s %10s %10s %10s  %s\n' workload baseline no-cache cold warm front
for w in gpt3-6.7b-attention-s131072 conv-chain-112; do
  workload="$here/workloads/$w.yaml"
  base=-
  [ -n "$baseline" ] && base=$(median_seconds "$baseline/dse" "$workload")
  plain=$(median_seconds "$build/dse" "$workload")
  sum=$(md5sum <"$tmp/front.csv" | cut -c1-8)
  cold=$(median_seconds "$build/dse" "$workload" --cache-dir "$tmp/cache" --cold)
  [ "$(md5sum <"$tmp/front.csv" | cut -c1-8)" = "$sum" ] || sum="$sum (cold differs!)"
  warm=$(median_seconds "$build/dse" "$workload" --cache-dir "$tmp/cache")
  [ "$(md5sum <"$tmp/front.csv" | cut -c1-8)" = "$sum" ] || sum="$sum (warm differs!)"
  printf '%-28s %10s %10s %10s %10s  %s\n' "$w" "$base" "$plain" "$cold" "$warm" "$sum"
done
