#!/bin/sh
# What fusion and recompute buy on the workloads MMEE reports on (REFERENCES.md in the design
# folder), measured as ablations of the searched space: the best value dse finds with every
# decision allowed, against the best without fusion (--no-fusion) or without recompute
# (--no-recompute), on the same hardware. MMEE's published figure is printed beside each ratio
# for orientation; the energy tables and designs differ, so the numbers are not expected to agree.
# Usage: bench/run_reference_comparisons.sh [build-dir]
set -eu
build=${1:-build}
dse="$build/dse"
[ -x "$dse" ] || { echo "error: $dse not found; build first" >&2; exit 1; }
here=$(dirname "$0")/..
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# front HW WORKLOAD OBJECTIVES [FLAGS...]: explore into $tmp/front.csv
front() {
  f_hw=$1 f_workload=$2 f_objectives=$3
  shift 3
  "$dse" explore --hw "$f_hw" --workload "$here/workloads/$f_workload.yaml" \
    --objectives "$f_objectives" "$@" -o "$tmp/front.csv"
}
# least COLUMN: the smallest value of a column of $tmp/front.csv ("dram" sums reads and writes;
# the columns read come before the quoted dataflow text, so splitting at commas is safe)
least() {
  awk -F, -v col="$1" '
    NR == 1 { for (i = 1; i <= NF; i++) at[$i] = i; next }
    { v = col == "dram" ? $at["dram_read_words"] + $at["dram_write_words"] : $at[col] + 0
      if (best == "" || v < best) best = v }
    END { printf "%.6g", best }' "$tmp/front.csv"
}
# ratio HW WORKLOAD OBJECTIVES COLUMN FLAG [OPTIONS...]: best without FLAG / best with
# everything, both explored with OPTIONS
ratio() {
  r_hw=$1 r_workload=$2 r_objectives=$3 r_column=$4 r_flag=$5
  shift 5
  front "$r_hw" "$r_workload" "$r_objectives" "$@"
  full=$(least "$r_column")
  front "$r_hw" "$r_workload" "$r_objectives" "$r_flag" "$@"
  without=$(least "$r_column")
  awk -v a="$without" -v b="$full" 'BEGIN { printf "%.2fx", a / b }'
}
# With the global buffer resized: a copy of HW with capacity_kib set to KIB.
resized() {
  sed "s/capacity_kib: [0-9]*/capacity_kib: $2/" "$1" > "$tmp/hw-$2.yaml"
  echo "$tmp/hw-$2.yaml"
}

sim="$here/hw_configs/sim-1g-1mb-60gbps.yaml"
echo "fusion and recompute, as (best without) / (best with); MMEE's figure in brackets"
echo
echo "GPT-3 6.7B attention (s=2048), least DRAM traffic, 1 GHz / 60 GB/s design:"
echo "  [MMEE: 1.30x overall vs no fusion; recompute 1.20-1.31x at larger buffers]"
for kib in 64 256 1024 4096 16384; do
  hw=$(resized "$sim" "$kib")
  printf "  %6s KiB: fusion %s, recompute %s\n" "$kib" \
    "$(ratio "$hw" gpt3-6.7b-attention-s2048 dram,buffer dram --no-fusion)" \
    "$(ratio "$hw" gpt3-6.7b-attention-s2048 dram,buffer dram --no-recompute)"
done
echo
echo "conv chain [112^2, 64, 192, 128, 3^2, 1^2], least energy:  [MMEE: fusion 2.34x]"
for hw in edge-16x16-32k academic-32x32-512k sim-1g-1mb-60gbps set-32x32-16m; do
  printf "  %-22s fusion %s\n" "$hw" \
    "$(ratio "$here/hw_configs/$hw.yaml" conv-chain-112 latency,energy energy_pj --no-fusion)"
done
echo
echo "FFN [2048, 768, 3072, 768], least latency, roofline and sequential latency models:"
echo "  [MMEE: fusion 1.14x]"
for hw in edge-16x16-32k academic-32x32-512k sim-1g-1mb-60gbps set-32x32-16m; do
  printf "  %-22s fusion %s (roofline), %s (sequential)\n" "$hw" \
    "$(ratio "$here/hw_configs/$hw.yaml" ffn-2048x768x3072x768 latency,energy latency_s \
      --no-fusion)" \
    "$(ratio "$here/hw_configs/$hw.yaml" ffn-2048x768x3072x768 latency,energy latency_s \
      --no-fusion --latency-model sequential)"
done
echo
echo "PaLM-62B attention (s=2048), Pareto points over (DRAM words, buffer words) that recompute:"
echo "  [MMEE: about two thirds]"
for hw in academic-32x32-512k sim-1g-4mb-128gbps set-32x32-16m; do
  front "$here/hw_configs/$hw.yaml" palm-62b-attention-s2048 dram,buffer
  printf "  %-22s %s of %s\n" "$hw" "$(grep -c 'recompute' "$tmp/front.csv" || true)" \
    "$(($(wc -l < "$tmp/front.csv") - 1))"
done
