#!/bin/sh
# Times, as whole processes, the runs that docs/DESIGN.md §4.3 and the README's speed figures are
# about: each with the boxes of tilings (the default) and again with --every-column (every tiling
# column evaluated, the baseline the boxes are measured against) in the same run, and prints both
# times (medians of five runs, one for the two --tiles all runs that take seconds), their ratio,
# the peak memory of the default run and the time it aims at.
# Usage: bench/run_speed_targets.sh [build-dir]
set -eu
build=${1:-build}
dse="$build/dse"
[ -x "$dse" ] || { echo "error: $dse not found; build it first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
sim=hw_configs/sim-1g-1mb-60gbps.yaml
dsp=hw_configs/vector-dsp-4core-8m.yaml

# measure RUNS COMMAND...: prints "seconds peak-MiB", the median time and the largest peak of
# RUNS runs of the command (its output goes to $out).
measure() {
  runs=$1
  shift
  : >"$out/times"
  i=0
  while [ "$i" -lt "$runs" ]; do
    /usr/bin/time -f "%e %M" -o "$out/time" "$@" >"$out/stdout" 2>"$out/stderr" || {
      echo "error: $* failed:" >&2
      cat "$out/stderr" >&2
      exit 1
    }
    cat "$out/time" >>"$out/times"
    i=$((i + 1))
  done
  sort -n "$out/times" | awk '{t[NR] = $1; if ($2 > peak) peak = $2}
    END {printf "%s %.1f", t[int((NR + 1) / 2)], peak / 1024}'
}

# row LABEL TARGET-SECONDS RUNS COMMAND...: the default run, then the baseline, each the median
# of RUNS runs (the machine's noise is tens of milliseconds).
row() {
  label=$1 target=$2 runs=$3
  shift 3
  boxes=$(measure "$runs" "$@")
  columns=$(measure "$runs" "$@" --every-column)
  echo "$label $target $boxes $columns" | awk '{
    ratio = $3 > 0 ? $5 / $3 : 0
    printf "%-34s %9s %9s %10s %9.1f %8s\n", $1, $3, $5, sprintf("%.1fx", ratio), $4, $2
  }'
}

printf "%-34s %9s %9s %10s %9s %8s\n" run "boxes s" "columns s" "gain" "peak MiB" "target"
row gpt3-attention-128K 0.1 5 "$dse" explore --hw $sim \
  --workload workloads/gpt3-6.7b-attention-s131072.yaml -o "$out/front.csv"
row gemm-1024-buffer-curve-20 0.1 5 "$dse" sweep --hw $sim --workload workloads/gemm-1024.yaml \
  --set GlobalBuffer.capacity_kib=1..524288:x2 --buffer-curve -o "$out/sweep.csv"
row gemm-1024-tiles-all 5 5 "$dse" explore --hw $sim --workload workloads/gemm-1024.yaml \
  --tiles all -o "$out/front.csv"
row conv-chain-112-tiles-all 60 1 "$dse" explore --hw $sim --workload workloads/conv-chain-112.yaml \
  --tiles all -o "$out/front.csv"
row gpt3-attention-2K-tiles-all 60 1 "$dse" explore --hw $sim \
  --workload workloads/gpt3-6.7b-attention-s2048.yaml --tiles all --max-tilings 1e8 \
  -o "$out/front.csv"
for net in resnet18:0.2 vgg16:0.2 googlenet:0.2 mobilenet_v2:0.5 bert_base_layer_s512:0.5; do
  name=${net%%:*}
  row "network-$name" "${net#*:}" 5 "$dse" network --hw $dsp --model "networks/$name.onnx" \
    -o "$out/network"
done
