#!/bin/sh
# Runs the libFuzzer campaign: builds the fuzz targets with clang in build-fuzz/, then runs each
# target (or the ones named) for SECONDS seconds on its corpus fuzz/corpus/<target>/, merges the
# inputs that add coverage back into that corpus (keeping it minimal) and copies every crash,
# timeout or out-of-memory input into fuzz/regressions/<target>/.
# Usage: scripts/fuzz.sh SECONDS [TARGET...]   (from anywhere; see fuzz/README.md)
# Environment: DSE_FUZZ_SANITIZE (default undefined; e.g. address,undefined),
#              FUZZ_FLAGS (extra libFuzzer flags, e.g. -max_len=4096).
set -eu
cd "$(dirname "$0")/.."

[ $# -ge 1 ] || { echo "usage: scripts/fuzz.sh SECONDS [TARGET...]" >&2; exit 2; }
seconds=$1
shift
targets=${*:-"hardware_yaml workload_yaml mapping_yaml network_yaml onnx_model sweep_set hier_mapping_yaml timeloop_architecture timeloop_problem timeloop_mapping"}
build=build-fuzz

CC=clang CXX=clang++ cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DDSE_FUZZ=ON -DDSE_FUZZ_SANITIZE="${DSE_FUZZ_SANITIZE-undefined}" \
  -DDSE_BUILD_TESTS=OFF -DDSE_BUILD_BENCH=OFF -DDSE_MPI=OFF >/dev/null
for t in $targets; do
  cmake --build "$build" --target "fuzz_$t"
done

for t in $targets; do
  corpus=fuzz/corpus/$t
  work=$build/runs/$t
  rm -rf "$work"
  mkdir -p "$work/new" "$work/artifacts" "$work/merged" "fuzz/regressions/$t"
  echo "== $t: ${seconds}s"
  # One child process at a time (-fork=1) that is restarted after a finding, so the run goes on.
  "$build/fuzz/fuzz_$t" "$work/new" "$corpus" -fork=1 -ignore_crashes=1 -ignore_ooms=1 \
    -ignore_timeouts=1 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$work/artifacts/" ${FUZZ_FLAGS-} 2>"$work/log" || true
  grep -E '^#[0-9]+: cov:' "$work/log" | tail -1 # executions, coverage, exec/s, findings
  "$build/fuzz/fuzz_$t" -merge=1 "$work/merged" "$corpus" "$work/new" 2>"$work/merge.log"
  rm -f "$corpus"/*
  cp "$work/merged"/* "$corpus"/
  echo "$t: corpus $(ls "$corpus" | wc -l) files, $(du -sk "$corpus" | cut -f1) KiB"
  for a in "$work"/artifacts/*; do
    [ -e "$a" ] || continue
    cp "$a" "fuzz/regressions/$t/"
    echo "$t: reproducer fuzz/regressions/$t/$(basename "$a")"
  done
done
