// Sweep benchmark: 12 global-buffer capacities x 3 workloads as one sweep (candidate spaces shared
// across configurations) against the same 36 cases explored separately, measured in one run.
#include <benchmark/benchmark.h>
#include <cstdio>

#include "dse/config/hardware_parameters.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/sweep.hpp"
#include "single_run.hpp"

namespace {

const std::string kHardware = std::string(DSE_SOURCE_DIR) + "/hw_configs/sim-1g-1mb-60gbps.yaml";
const std::vector<std::string> kWorkloads = {"gpt3-6.7b-attention-s2048", "ffn-2048x768x3072x768",
                                             "bert-base-attention-s512"};

struct Setup {
  std::vector<dse::Hardware> hws;
  std::vector<dse::Workload> workloads;
  std::vector<dse::SweepCase> cases;
};

Setup make_setup() {
  Setup s;
  for (double kib = 32; kib <= 65536; kib *= 2)
    s.hws.push_back(dse::load_hardware_with(kHardware, {{"GlobalBuffer.capacity_kib", kib}}));
  for (const std::string &w : kWorkloads)
    s.workloads.push_back(
        dse::load_workload(std::string(DSE_SOURCE_DIR) + "/workloads/" + w + ".yaml"));
  for (const dse::Hardware &hw : s.hws)
    for (const dse::Workload &w : s.workloads)
      s.cases.push_back({&hw, &w});
  return s;
}

} // namespace

int main(int argc, char **argv) {
  const Setup setup = make_setup();
  double sweep_seconds = 0, separate_seconds = 0;
  dse_bench::register_single_run("sweep/12x3", [&](benchmark::State &state) {
    for (auto _ : state)
      sweep_seconds = dse::run_sweep(setup.cases, dse::SearchOptions{}).seconds;
  });
  dse_bench::register_single_run("separate/12x3", [&](benchmark::State &state) {
    for (auto _ : state) {
      separate_seconds = 0;
      for (const dse::SweepCase &c : setup.cases)
        separate_seconds += dse::explore(*c.workload, *c.hw, dse::SearchOptions{}).seconds;
    }
  });
  dse_bench::run_registered(argc, argv);
  if (sweep_seconds > 0 && separate_seconds > 0)
    std::printf("\n%zu cases (12 capacities x %zu workloads): sweep %.3f s, separate explores "
                "%.3f s, ratio %.3f\n",
                setup.cases.size(), setup.workloads.size(), sweep_seconds, separate_seconds,
                sweep_seconds / separate_seconds);
  return 0;
}
