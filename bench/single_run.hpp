// What the benchmark programs share: cases timed once each (a whole search is the unit measured),
// and running what is registered with the command line's flags before the program prints its
// summary.
#pragma once

#include <benchmark/benchmark.h>
#include <functional>
#include <string>
#include <utility>

namespace dse_bench {

/// Registers `run` as benchmark `name`, run once and timed in seconds of wall time.
inline void register_single_run(const std::string &name,
                                std::function<void(benchmark::State &)> run) {
  benchmark::RegisterBenchmark(name.c_str(), std::move(run))
      ->Iterations(1)
      ->Unit(benchmark::kSecond)
      ->UseRealTime();
}

/// Runs the registered benchmarks, honouring --benchmark_* flags.
inline void run_registered(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
}

} // namespace dse_bench
