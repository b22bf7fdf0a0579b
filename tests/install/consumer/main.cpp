// Explores a workload on a hardware configuration with the installed dse library and prints the
// size of the Pareto front. Usage: consumer HARDWARE.yaml WORKLOAD.yaml
#include <exception>
#include <iostream>

#include "dse/config/hardware_loader.hpp"
#include "dse/config/workload_loader.hpp"
#include "dse/search/explore.hpp"

int main(int argc, char **argv) {
  if (argc != 3) {
    std::cerr << "usage: consumer HARDWARE.yaml WORKLOAD.yaml\n";
    return 2;
  }
  try {
    const dse::Hardware hw = dse::load_hardware(argv[1]);
    const dse::Workload workload = dse::load_workload(argv[2]);
    const dse::ExploreResult result = dse::explore(workload, hw, dse::SearchOptions{});
    std::cout << "front points: " << result.front.size() << "\n";
    return 0;
  } catch (const std::exception &e) {
    std::cerr << e.what() << "\n";
    return 1;
  }
}
