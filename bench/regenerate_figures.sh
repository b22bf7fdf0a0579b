#!/bin/sh
# Reruns every command behind the figures README.md quotes, rewrites bench/figures/ (the buffer
# sizing curve's CSV and its plot) and prints the figures in the form README.md quotes them, one
# section per README passage, so that the README can be brought up to date from this output.
# Wall-clock times are measured on this machine (README quotes them as "about").
# tests/cli/readme_figures_test.cpp checks the pruning table and the loop-nest counts quoted in
# README.md against the binary.
# Usage: bench/regenerate_figures.sh [build-dir]
# Takes about a minute and a half on 2 cores; the kernel timings (bench/run_kernel_benchmarks.sh,
# one more minute) are added when the build has bench/dse_kernel_bench.
set -eu
build=${1:-build}
[ -x "$build/dse" ] || { echo "error: $build/dse not found; build first" >&2; exit 1; }
build=$(cd "$build" && pwd)
dse="$build/dse"
here=$(cd "$(dirname "$0")/.." && pwd)
figures="$here/bench/figures"
hw="$here/hw_configs"
workloads="$here/workloads"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# grouped N: N with thousands separators (9179136 -> 9,179,136)
grouped() {
  echo "$1" | sed -e ':a' -e 's/\([0-9]\)\([0-9]\{3\}\)\($\|,\)/\1,\2\3/' -e 'ta'
}
# mwords N: N words in millions, three significant digits (2631680 -> 2.63)
mwords() {
  awk -v n="$1" 'BEGIN { printf "%.3g", n / 1e6 }'
}
# capacity KIB: 512 -> "512 KiB", 2048 -> "2 MiB"
capacity() {
  if [ $(($1 % 1024)) -eq 0 ]; then echo "$(($1 / 1024)) MiB"; else echo "$1 KiB"; fi
}

echo "== Pruning: the table of candidates before -> after pruning"
echo "   (dse explore -v --hw hw_configs/sim-1g-1mb-60gbps.yaml --workload workloads/W.yaml)"
echo
echo "| workload | problem | candidates |"
echo "|---|---|---|"
for row in "gemm-1024:gemm:a single GEMM" "ffn-2048x768x3072x768:up+down fused:the FFN pair" \
  "gpt3-6.7b-attention-s2048:qk+pv fused:attention, softmax attached"; do
  workload=${row%%:*}
  rest=${row#*:}
  label=${rest%%:*}
  what=${rest#*:}
  "$dse" explore -v --hw "$hw/sim-1g-1mb-60gbps.yaml" --workload "$workloads/$workload.yaml" \
    -o "$tmp/front.csv" 2> "$tmp/verbose.txt"
  counts=$(grep "^$label: dataflows" "$tmp/verbose.txt" |
    sed 's/.*; candidates \([0-9]*\) -> \([0-9]*\);.*/\1 \2/')
  [ -n "$counts" ] || { echo "error: no statistics for '$label' in dse explore -v" >&2; exit 1; }
  echo "| \`$workload\` | \`$label\` ($what) | $(grouped "${counts% *}") -> $(grouped "${counts#* }") |"
done

echo
echo "== Command line, --max-loop-nests: loop nests of an einsum of 7 and 8 tiled dimensions"
echo
sentence="an einsum of"
for n in 7 8; do
  names=$(echo abcdefgh | cut -c1-"$n" | sed 's/./&,/g; s/,$//')
  sizes=$(echo "$names" | sed 's/\([a-h]\)/\1: 2/g; s/,/, /g')
  printf 'name: wide\ndims: {%s}\nops:\n  - {name: big, einsum: "O[%s] += X[%s] * Y[%s]"}\n' \
    "$sizes" "$names" "$names" "$names" > "$tmp/wide.yaml"
  # With a limit of 1 the command refuses the space and prints its size.
  if "$dse" explore --hw "$hw/sim-1g-1mb-60gbps.yaml" --workload "$tmp/wide.yaml" \
    --max-loop-nests 1 > /dev/null 2> "$tmp/error.txt"; then
    echo "error: an einsum of $n dimensions was not refused" >&2
    exit 1
  fi
  count=$(sed -n 's/.*candidate space has \([^ ]*\) loop nests.*/\1/p' "$tmp/error.txt")
  case $n in
    7) sentence="$sentence $n tiled dimensions has $count" ;;
    *) sentence="$sentence, of $n dimensions $count" ;;
  esac
done
echo "$sentence"

echo
echo "== Worked example: sizing the global buffer"
echo "   (rewrites bench/figures/buffer-sizing-gpt3-32k-conv-chain.csv and .png)"
echo
start=$(date +%s)
(cd "$tmp" && "$dse" sweep --hw "$hw/sim-1g-1mb-60gbps.yaml" \
  --workload "$workloads/gpt3-6.7b-attention-s32768.yaml" \
  --workload "$workloads/conv-chain-112.yaml" \
  --set GlobalBuffer.capacity_kib=32..16384:x2 --buffer-curve --within 5% -o sizing.csv) \
  > "$tmp/within.txt"
seconds=$(($(date +%s) - start))
cases=$(($(wc -l < "$tmp/sizing-summary.csv") - 1))
echo "It explores $cases cases in about $seconds s on $(nproc) cores and answers:"
echo
echo '```text'
cat "$tmp/within.txt"
echo '```'
curve="$figures/buffer-sizing-gpt3-32k-conv-chain.csv"
cp "$tmp/sizing-buffer-curve.csv" "$curve"
"$dse" plot "$curve" -o "${curve%.csv}.png"
echo
echo "lowest DRAM traffic (M words) per capacity, and its ratio to the previous capacity's:"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
  { w = $at["workload"]; kib = $at["GlobalBuffer.capacity_kib"]; dram = $at["min_dram_words"]
    printf "  %-28s %6s KiB %10.4g", w, kib, dram / 1e6
    if (w == last) printf "  (/%.2f)", previous / dram
    printf "\n"; last = w; previous = dram }' "$curve"
# The conv chain: the capacity where its traffic levels off (after its last drop of 2% or more
# per doubling) and the first capacity where it reaches the least; the attention's least and
# greatest drop per doubling.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
  $at["workload"] == "conv-chain-112" { n++; kib[n] = $at["GlobalBuffer.capacity_kib"]
    dram[n] = $at["min_dram_words"] + 0; if (least == "" || dram[n] < least) least = dram[n] }
  END { off = 1; for (i = 2; i <= n; i++) if (dram[i - 1] >= 1.02 * dram[i]) off = i
        for (i = 1; i <= n; i++) if (!min && dram[i] == least) min = i
        print kib[off], dram[off], kib[min], dram[min] }' "$curve" > "$tmp/conv.txt"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
  $at["workload"] == "gpt3-6.7b-attention-s32768" { dram = $at["min_dram_words"] + 0
    if (previous != "") { r = previous / dram; if (lo == "" || r < lo) lo = r; if (r > hi) hi = r }
    previous = dram }
  END { printf "attention traffic falls by %.2fx to %.2fx with every doubling of the buffer\n", \
        lo, hi }' "$curve"
read -r off_kib off_words min_kib min_words < "$tmp/conv.txt"
echo
echo "its traffic levels off at $(capacity "$off_kib") ($(mwords "$off_words") M words) and reaches"
echo "the compulsory minimum ... ($(mwords "$min_words") M words), from $(capacity "$min_kib") on"

echo
echo "== Command line: fusion and recompute as ablations (bench/run_reference_comparisons.sh)"
echo
sh "$here/bench/run_reference_comparisons.sh" "$build" | tee "$tmp/ablations.txt"
echo
awk '
  /^GPT-3/ { part = "attention" } /^conv chain/ { part = "conv" } /^FFN/ { part = "ffn" }
  /^PaLM/ { part = "" }
  part == "attention" && / KiB: / {
    kib = $1; fusion = $4; sub(/,$/, "", fusion); recompute = $6
    mib = kib % 1024 == 0 ? kib / 1024 " MiB" : kib " KiB"
    if (recompute != "1.00x") { r[++nr] = recompute " at " mib }
    if (first_fusion == "") first_fusion = fusion " (" mib ")"
    if (fusion + 0 > best_fusion + 0) { best_fusion = fusion; best_at = mib }
  }
  part == "conv" && $2 == "fusion" && $1 !~ /^\[/ { v = $3 + 0
    if (conv_lo == "" || v < conv_lo) conv_lo = v; if (v > conv_hi) conv_hi = v
    if (v > 1.005 && (gain_lo == "" || v < gain_lo)) gain_lo = v; conv[++nc] = $1 " " $3 }
  part == "ffn" && $2 == "fusion" && $1 !~ /^\[/ { roof = $3 + 0; seq = $5 + 0
    if (roof > roof_hi) roof_hi = roof; if (seq > seq_hi) seq_hi = seq }
  END {
    printf "On GPT-3 6.7B attention (least DRAM traffic, 1 GHz / 60 GB/s design) recompute saves "
    for (i = 1; i <= nr; i++) printf "%s%s", r[i], i == nr ? "" : i == nr - 1 ? " and " : ", "
    printf "; fusion saves %s to %s (%s)\n", first_fusion, best_fusion, best_at
    printf "conv chain energy gain from fusion: %.2fx to %.2fx (%.2fx to %.2fx where it gains):\n", \
      conv_lo, conv_hi, gain_lo, conv_hi
    for (i = 1; i <= nc; i++) printf "  %s\n", conv[i]
    printf "FFN latency gain from fusion: at most %.2fx (roofline), %.2fx (sequential)\n", \
      roof_hi, seq_hi
  }' "$tmp/ablations.txt"

echo
echo "== Kernels: fused FFN fronts on hw_configs/host-cpu-avx512.yaml"
echo
# fused_points CSV: how many of a front's points are fused, of how many
fused_points() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    { n++; if ($at["fused"] == "yes") f++ } END { printf "%d of %d", f, n }' "$1"
}
"$dse" explore --hw "$hw/host-cpu-avx512.yaml" --workload "$workloads/ffn-2048x768x3072x768.yaml" \
  -o "$tmp/ffn.csv"
echo "MMEE's BERT-width FFN: $(fused_points "$tmp/ffn.csv") front points fused"
cat > "$tmp/narrow.yaml" <<'EOF'
name: ffn-narrow
dims: {m: 32768, k: 128, n: 512, l: 128}
ops:
  - {name: up, einsum: "H[m,n] += A[m,k] * W1[k,n]"}
  - {name: down, einsum: "O[m,l] += H[m,n] * W2[n,l]"}
EOF
"$dse" explore --hw "$hw/host-cpu-avx512.yaml" --workload "$tmp/narrow.yaml" -o "$tmp/narrow.csv"
echo "narrow MLP (32768 x 128 -> 512 -> 128): $(fused_points "$tmp/narrow.csv") front points fused"
# The fused BERT-width FFN mapping of bench/kernel_bench.cpp.
cat > "$tmp/ffn-fused.yaml" <<'EOF'
segments:
  - ops: [up, down]
    prefix: [m, n]
    loops: {up: [k], down: [l]}
    retention: {A: 1, W1: 2, H: 2, W2: 2, O: 1}
    spatial: {up: ['-', '-'], down: ['-', '-']}
    tiles: {m: 256, n: 64, k: 256, l: 768}
EOF
"$dse" eval --json --hw "$hw/host-cpu-avx512.yaml" \
  --workload "$workloads/ffn-2048x768x3072x768.yaml" --mapping "$tmp/ffn-fused.yaml" \
  -o "$tmp/eval.json"
# Reads of each weight over its size (768 x 3072 words), and the unfused pair's intermediate
# traffic (H written and read back once: 2 x 2048 x 3072 words) against the extra weight reads.
tr -d ' \n' < "$tmp/eval.json" | grep -o '"name":"W[12]","role":"input","retention_depth":[0-9]*,"footprint_words":[0-9.]*,"dram_reads":[0-9.e+]*' |
  sed 's/.*"name":"\(W[12]\)".*"dram_reads":\(.*\)/\1 \2/' |
  awk '{ times = $2 / (768 * 3072); extra += $2 - 768 * 3072
         printf "the fused pair (bench/kernel_bench.cpp mapping) reads %s %g times\n", $1, times }
       END { printf "extra weight reads %.3g M words, against %.3g M words of the unfused intermediate\n",
             extra / 1e6, 2 * 2048 * 3072 / 1e6 }'
if [ -x "$build/bench/dse_kernel_bench" ]; then
  echo
  echo "kernel timings (bench/run_kernel_benchmarks.sh):"
  sh "$here/bench/run_kernel_benchmarks.sh" "$build"
else
  echo "(kernel timings skipped: build the dse_kernel_bench target for them)"
fi
