// hw_configs/sim-1g-1mb-60gbps.yaml from `pe_array:` on, spelt in the general form with
// `counting: legacy` (docs/HIERARCHY.md §2.4), for the tests that check both spellings agree.
#pragma once

#include <string>

namespace dse::test_common {

inline const std::string kSimHierarchySpelling = R"(counting: legacy
hierarchy:
  - {level: DRAM, bandwidth_gbps: 60, read_energy_pj: 320.0, write_energy_pj: 320.0}
  - {level: GlobalBuffer, capacity_kib: 1024, bandwidth_words_per_cycle: 64,
     read_energy_pj: 25.0, write_energy_pj: 25.0}
  - {fanout: array, x: 32, y: 32}
  - {level: RegFile, capacity_words: 64, read_energy_pj: 1.5, write_energy_pj: 1.5}
compute: {mac_energy_pj: 1.5}
)";

} // namespace dse::test_common
