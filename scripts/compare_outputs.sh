#!/bin/sh
# Checks that a change leaves every number unchanged: runs the shipped examples (explore, eval,
# sweep, network, emit) with the `dse` of a baseline revision and with the working tree's, and
# compares every output byte for byte (wall-clock times left out). Exit 0 when identical.
# Usage: scripts/compare_outputs.sh BASELINE_REV [NEW_DSE]
#   BASELINE_REV  a git revision, built in build-compare/base (a detached worktree);
#   NEW_DSE       the binary under test (default: build/dse, built first).
set -eu
cd "$(dirname "$0")/.."
root=$(pwd)

[ $# -ge 1 ] || { echo "usage: scripts/compare_outputs.sh BASELINE_REV [NEW_DSE]" >&2; exit 2; }
base_rev=$1
new_dse=${2:-$root/build/dse}
work=$root/build-compare
src=$work/base-src

rm -rf "$src" "$work/base" "$work/new"
git worktree prune
git worktree add --detach "$src" "$base_rev" >/dev/null
trap 'git -C "$root" worktree remove --force "$src"' EXIT
cmake -S "$src" -B "$work/build-base" -G Ninja -DCMAKE_BUILD_TYPE=Release -DDSE_BUILD_TESTS=OFF \
  -DDSE_BUILD_BENCH=OFF >/dev/null
cmake --build "$work/build-base" --target dse
if [ $# -lt 2 ]; then cmake --build build --target dse; fi

# Runs every example with binary $1, writing into directory $2.
run_examples() {
  dse=$1 out=$2 hw=$root/hw_configs wl=$root/workloads nets=$root/networks
  mkdir -p "$out"
  for w in gemm-small-64 gemm-1024 gemm-512x768x3072 ffn-2048x768x3072x768 conv-chain-112 \
    bert-base-attention-s512 gpt3-6.7b-attention-s2048 palm-62b-attention-s2048; do
    for h in sim-1g-1mb-60gbps edge-16x16-32k vector-dsp-4core-8m; do
      "$dse" explore --hw "$hw/$h.yaml" --workload "$wl/$w.yaml" -o "$out/$w-$h.csv"
      "$dse" explore --hw "$hw/$h.yaml" --workload "$wl/$w.yaml" --json -o "$out/$w-$h.json"
      "$dse" explore --hw "$hw/$h.yaml" --workload "$wl/$w.yaml" --objectives dram,buffer \
        --emit-mapping 0 -o "$out/$w-$h-dram.csv" >"$out/$w-$h-map.yaml"
      "$dse" eval --hw "$hw/$h.yaml" --workload "$wl/$w.yaml" --mapping "$out/$w-$h-map.yaml" \
        >"$out/$w-$h-eval.txt"
      "$dse" eval --hw "$hw/$h.yaml" --workload "$wl/$w.yaml" --mapping "$out/$w-$h-map.yaml" \
        --json -o "$out/$w-$h-eval.json"
    done
  done
  "$dse" explore --hw "$hw/sim-1g-1mb-60gbps.yaml" --workload "$wl/gemm-1024.yaml" --tiles pow2 \
    --objectives latency,energy,dram --latency-model sequential -o "$out/gemm-1024-seq.csv"
  "$dse" sweep --hw "$hw/sim-1g-1mb-60gbps.yaml" --workload "$wl/gpt3-6.7b-attention-s2048.yaml" \
    --workload "$wl/gemm-1024.yaml" --set GlobalBuffer.capacity_kib=32..4096:x4 \
    --set DRAM.bandwidth_gbps=30,60 --buffer-curve --within 5% -o "$out/sweep.csv" \
    >"$out/sweep-within.txt"
  for m in tiny-cnn.yaml resnet18.onnx mobilenet_v2.onnx; do
    "$dse" network --hw "$hw/vector-dsp-4core-8m.yaml" --model "$nets/$m" -o "$out/net-$m" \
      >"$out/net-$m.stdout"
    "$dse" network --hw "$hw/vector-dsp-4core-8m.yaml" --model "$nets/$m" --report \
      >"$out/net-$m.txt"
    sed -i '/time: /d' "$out/net-$m.txt" "$out/net-$m.stdout" "$out/net-$m/summary.txt"
  done
  for w in gemm-small-64 gemm-512x768x3072 bert-base-attention-s512; do
    "$dse" emit --hw "$hw/vector-dsp-4core-8m.yaml" --workload "$wl/$w.yaml" --point 0 \
      -o "$out/$w-kernel.cpp"
  done
}

run_examples "$work/build-base/dse" "$work/base"
run_examples "$new_dse" "$work/new"
if diff -r "$work/base" "$work/new"; then
  echo "identical: $(find "$work/new" -type f | wc -l) outputs of $base_rev and $new_dse"
else
  echo "outputs differ between $base_rev and $new_dse" >&2
  exit 1
fi
