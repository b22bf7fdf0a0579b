#!/bin/sh
# Checks that every C++ source is formatted as .clang-format says, then builds dse and runs the
# whole test suite twice: a release build (build/), then an AddressSanitizer +
# UndefinedBehaviorSanitizer build (build-sanitize/). On Debian 12, as root,
# missing build dependencies are installed first. Usage: scripts/test.sh (from anywhere).
set -eu
cd "$(dirname "$0")/.."

packages="g++ cmake ninja-build libeigen3-dev libtbb-dev libcli11-dev libyaml-cpp-dev
  nlohmann-json3-dev libgtest-dev libbenchmark-dev libopenmpi-dev openmpi-bin gnuplot-nox libonnx-dev libprotobuf-dev libjemalloc-dev pkg-config clang-format"

some_package_missing() {
  for p in $packages; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || return 0
  done
  return 1
}

if command -v dpkg-query >/dev/null && some_package_missing; then
  apt-get update
  # shellcheck disable=SC2086 # one word per package
  apt-get install -y $packages
fi

echo "== formatting (clang-format; apply with the same command without --dry-run --Werror)"
find src include tests bench fuzz \( -name '*.cpp' -o -name '*.hpp' \) -print |
  xargs clang-format --dry-run --Werror

echo "== release build and tests"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DDSE_BUILD_TESTS=ON
cmake --build build -j 2
ctest --test-dir build --output-on-failure -j 2

echo "== AddressSanitizer + UndefinedBehaviorSanitizer build and tests"
# Without MPI: LeakSanitizer reports OpenMPI's own start-up allocations as leaks.
# Assertions on: no NDEBUG (assert, Eigen's index checks and nlohmann_json's run) and
# libstdc++'s bounds checks (_GLIBCXX_ASSERTIONS; ASan misses an index past size() but within
# capacity). -O2 with line tables (-g1) so that sanitizer reports name file:line; full debug info
# or -O0/-O1 would slow the build and the run for nothing the sanitizers need.
cmake -S . -B build-sanitize -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -D_GLIBCXX_ASSERTIONS" -DDSE_BUILD_TESTS=ON \
  -DDSE_SANITIZE=ON -DDSE_BUILD_BENCH=OFF -DDSE_MPI=OFF
cmake --build build-sanitize -j 2
UBSAN_OPTIONS=print_stacktrace=1 ctest --test-dir build-sanitize --output-on-failure -j 2
