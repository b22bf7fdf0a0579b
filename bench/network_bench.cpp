// Network benchmark: planning time of each shipped network (the whole `dse network` pipeline,
// per-segment searches on pow2 tiles included) on the 8 MiB-GSM vector DSP, with the memory
// compression ratio of adaptive splitting, the schedule's speed-up from laying out its vector
// passes (its latency with every pass in the graph's own layout over its latency), and its DRAM
// words with and without tensors kept on chip between segments.
#include <benchmark/benchmark.h>
#include <cstdio>
#include <map>

#include "dse/config/graph_loader.hpp"
#include "dse/config/hardware_loader.hpp"
#include "dse/graph/network_plan.hpp"
#include "single_run.hpp"

namespace {

const std::string kRoot = DSE_SOURCE_DIR;
const std::vector<std::string> kNetworks = {"resnet18", "vgg16", "googlenet", "mobilenet_v2",
                                            "bert_base_layer_s512"};

struct Row {
  double seconds = 0;
  double peak_before = 0;
  double peak_after = 0;
  double compression = 0;
  double layout_speedup = 0;
  int segments = 0;
  double dram_words = 0;         // the schedule's
  double dram_words_through = 0; // the same with every tensor between segments through DRAM
};

/// The schedule's latency with every vector pass in the graph's own layout over its latency.
double layout_speedup(const dse::NetworkSchedule &s) {
  for (const dse::PassContribution &c : s.contributions)
    if (c.pass == "layout planning")
      return c.without.latency_s / s.total.latency_s;
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  const dse::Hardware hw = dse::load_hardware(kRoot + "/hw_configs/vector-dsp-4core-8m.yaml");
  std::map<std::string, Row> rows;
  for (const std::string &name : kNetworks) {
    const dse::Graph graph = dse::load_network(kRoot + "/networks/" + name + ".onnx");
    dse_bench::register_single_run("plan/" + name, [&, graph, name](benchmark::State &state) {
      dse::NetworkOptions options;
      options.search.menu = dse::TileMenu::PowersOfTwo;
      for (auto _ : state) {
        const dse::NetworkPlan plan = dse::plan_network(graph, hw, options);
        rows[name] = {plan.seconds,
                      plan.memory_before.peak_words,
                      plan.memory_after.peak_words,
                      plan.compression(),
                      layout_speedup(plan.schedule),
                      static_cast<int>(plan.fusion.segments.size()),
                      plan.schedule.total.dram_words,
                      plan.fusion.total.dram_words};
      }
      state.counters["compression"] = rows[name].compression;
      state.counters["layout_speedup"] = rows[name].layout_speedup;
    });
  }
  dse_bench::run_registered(argc, argv);
  std::printf("\n%-22s %10s %14s %14s %12s %9s %14s %14s\n", "network", "plan_s", "gsm_peak_before",
              "gsm_peak_after", "compression", "layout", "dram_words", "dram_through");
  for (const std::string &name : kNetworks) {
    const auto it = rows.find(name);
    if (it == rows.end())
      continue;
    const Row &r = it->second;
    std::printf("%-22s %10.3f %14.0f %14.0f %11.2f%% %8.5fx %14.0f %14.0f\n", name.c_str(),
                r.seconds, r.peak_before, r.peak_after, 100 * r.compression, r.layout_speedup,
                r.dram_words, r.dram_words_through);
  }
  return 0;
}
