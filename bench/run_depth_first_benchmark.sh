#!/bin/sh
# Depth-first fusion of a convolution stack: VGG-16's first five layers
# (workloads/vgg16-first-five.yaml, padded as VGG pads) with 362 KiB on chip
# (hw_configs/fused-layer-362k.yaml).
# Explores the chain three times in the same run, layer by layer (--no-fusion), with runs of up to
# three layers fused through their windows (the default) and with runs of up to all five, takes
# each front's point with (about) the fewest DRAM words, evaluates it, and prints the DRAM words of
# feature maps (every tensor but the weights W*) and of weights, the MACs, the exploration time
# and the fused/layer-by-layer ratios. Then the exact fronts of a
# 3x3 -> 3x3 -> 1x1 chain and of an MLP block, and the network plans of ResNet-18 and MobileNetV2
# with pairs fused through windows against pairs read with bare indices only, and MobileNetV2's
# with runs of three (planning time, fused segments on the plan, DRAM words); last, the fewest
# DRAM words of a ResNet basic block whose fused form may hold its input for the add, and of
# BERT attention whose Q, K and V projections may stack to read their input once.
# Usage: bench/run_depth_first_benchmark.sh [build-dir]
set -eu
build=${1:-build}
dse="$build/dse"
[ -x "$dse" ] || { echo "error: $dse not found; build it first" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
hw=hw_configs/fused-layer-362k.yaml
workload=workloads/vgg16-first-five.yaml

# least_dram NAME [OPTIONS...]: of the DRAM-energy front, the point within 0.1% of the fewest
# DRAM words with the least energy (the fewest words alone may cost several times the MACs for a
# handful of words); its mapping in $out/NAME.yaml, and "feature-map-words weight-words macs
# seconds" on stdout.
least_dram() {
  name=$1
  shift
  start=$(date +%s.%N)
  "$dse" explore --hw $hw --workload $workload --objectives dram,energy -o "$out/$name.csv" "$@"
  end=$(date +%s.%N)
  point=$(awk -F, 'NR > 1 { d[NR - 2] = $5 + $6; e[NR - 2] = $3; n = NR - 1 }
    END { m = d[0]; for (i = 0; i < n; ++i) if (d[i] < m) m = d[i]
          best = -1; for (i = 0; i < n; ++i) if (d[i] <= 1.001 * m && (best < 0 || e[i] < e[best])) best = i
          print best }' "$out/$name.csv")
  "$dse" explore --hw $hw --workload $workload --objectives dram,energy --emit-mapping "$point" "$@" \
    > "$out/$name.yaml"
  "$dse" eval --hw $hw --workload $workload --mapping "$out/$name.yaml" | awk -v s="$start" -v e="$end" '
    $2 == "input" || $2 == "output" { if ($1 ~ /^W/) w += $5 + $6; else f += $5 + $6 }
    /^  operator/ { ops = 1; next }
    ops && NF == 5 { m += $2 }
    /^  gb<->pe/ { ops = 0 }
    END { printf "%.0f %.0f %.0f %.3f\n", f, w, m, e - s }'
}

layered=$(least_dram layer-by-layer --no-fusion)
fused=$(least_dram fused)
five=$(least_dram fused-five --max-fused 5)
printf '%-16s %16s %14s %14s %10s\n' plan feature-map-words weight-words MACs explore-s
for row in "layer-by-layer $layered" "fused-runs-of-3 $fused" "fused-runs-of-5 $five"; do
  # shellcheck disable=SC2086
  printf '%-16s %16s %14s %14s %10s\n' $row
done
for row in "runs-of-3 $layered $fused" "runs-of-5 $layered $five"; do
  echo "$row" | awk '{ printf "feature-map DRAM words %s / layer by layer: %.3f (%.1f%% fewer); all DRAM words %.3f; MACs %.4fx\n", $1, $6 / $2, 100 * (1 - $6 / $2), ($6 + $7) / ($2 + $3), $8 / $4 }'
done
for plan in fused fused-five; do
  echo "$plan plan:"
  grep -E '^  - ops|^    prefix|^    cache' "$out/$plan.yaml" | sed 's/^/  /'
done

# front LABEL WORKLOAD [OPTIONS...]: one row of the exact-front table.
front() {
  label=$1
  workload=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$out/time" "$dse" explore --hw hw_configs/academic-32x32-512k.yaml \
    --workload "$workload" -o "$out/front.csv" "$@"
  read -r seconds kib < "$out/time"
  awk -F, -v label="$label" -v s="$seconds" -v kib="$kib" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    { ++n; if ($col["fused"] == "yes") ++f; if ($0 ~ /[|] cache /) ++c
      l = $col["latency_s"]; e = $col["energy_pj"]
      if (n == 1 || l < lmin) lmin = l; if (n == 1 || e < emin) emin = e }
    END { printf "%-24s %8.2f %8.0f %7d %6d %7d %12.4g %12.4g\n", label, s, kib / 1024, n, f, c, lmin, emin }' \
    "$out/front.csv"
}

echo
printf '%-24s %8s %8s %7s %6s %7s %12s %12s\n' front seconds MiB points fused cached min-latency-s min-energy-pJ
front "conv3x3-3x3-1x1" workloads/conv3x3-3x3-1x1-56.yaml
front "conv3x3-3x3-1x1 unfused" workloads/conv3x3-3x3-1x1-56.yaml --no-fusion
front "MLP block (FFN)" workloads/ffn-2048x768x3072x768.yaml
front "MLP block unfused" workloads/ffn-2048x768x3072x768.yaml --no-fusion

# plan LABEL MODEL [OPTIONS...]: one row of the network table (vector DSP, latency objective):
# planning time, peak memory, fused segments on the plan, the schedule's DRAM words, and the same
# with every tensor between segments through DRAM (the segment searches' sum).
plan() {
  label=$1
  network=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$out/time" "$dse" network --hw hw_configs/vector-dsp-4core-8m.yaml \
    --model "$network" -o "$out/net" "$@" > /dev/null
  read -r seconds kib < "$out/time"
  words=$(sed -n 's/.*total: .* DRAM \([0-9.e+]*\) words.*/\1/p' "$out/net/summary.txt")
  awk -F, -v label="$label" -v s="$seconds" -v kib="$kib" -v words="$words" '
    NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
    $col["kind"] == "fused" { ++fused }
    $col["segment"] == "total" { through = $col["dram_words_through"] }
    END { printf "%-32s %8.2f %8.0f %7d %14.0f %14.0f\n", label, s, kib / 1024, fused, words, through }' \
    "$out/net/segments.csv"
}

echo
printf '%-32s %8s %8s %7s %14s %14s\n' network seconds MiB fused dram-words dram-through
for name in resnet18 mobilenet_v2; do
  plan "$name" "networks/$name.onnx"
  plan "$name --no-window-fusion" "networks/$name.onnx" --no-window-fusion
done
plan "mobilenet_v2 --max-fused 3" networks/mobilenet_v2.onnx --max-fused 3

# A ResNet basic block whose add reads the block's input again: the fewest DRAM words of its
# exact DRAM-energy front on 362 KiB, where the fused block may hold the input for the add, and
# the same block with a residual of its own (always read from DRAM), and without fusion.
echo
printf '%-40s %14s\n' "basic block, fewest DRAM words" dram-words
block=workloads/resnet-basic-block-56.yaml
sed 's/residual: X/residual: R/' $block > "$out/apart.yaml"
fewest() {
  "$dse" explore --hw $hw --workload "$@" --tiles pow2 --objectives dram,energy -o "$out/block.csv"
  awk -F, 'NR == 2 { printf "%14.0f\n", $5 + $6 }' "$out/block.csv"
}
printf '%-40s %s\n' "input held or read again" "$(fewest $block)"
printf '%-40s %s\n' "residual a tensor of its own" "$(fewest "$out/apart.yaml")"
printf '%-40s %s\n' "unfused" "$(fewest $block --no-fusion)"

# BERT-base attention fed by its Q, K and V projections, which read the layer input X alike: the
# fewest DRAM words of its exact DRAM-energy front and the exploration time, with the projections
# also stacked into one einsum that may read X once (the default) and with --no-stacking.
echo
printf '%-40s %14s %10s\n' "BERT attention block, fewest DRAM words" dram-words explore-s
attention=workloads/bert-base-attention-block-s512.yaml
for target in fused-layer-362k sim-1g-1mb-60gbps; do
  for stacking in "" --no-stacking; do
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    "$dse" explore --hw hw_configs/$target.yaml --workload $attention --tiles pow2 \
      --objectives dram,energy -o "$out/attention.csv" $stacking
    end=$(date +%s.%N)
    awk -F, -v label="$target ${stacking:-stacked}" -v s="$start" -v e="$end" \
      'NR == 2 { printf "%-40s %14.0f %10.2f\n", label, $5 + $6, e - s }' "$out/attention.csv"
  done
done
