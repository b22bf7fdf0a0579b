// Today's hardware form seen as a hierarchy (docs/HIERARCHY.md §1).
#include "dse/ir/hardware.hpp"

namespace dse {

namespace {

StorageLevel storage_level(const MemoryLevel &level, std::optional<double> words_per_cycle) {
  StorageLevel s;
  s.name = level.name;
  s.capacity_words = level.capacity_words;
  s.shared_words_per_cycle = words_per_cycle;
  s.read_pj = level.read_energy_pj;
  s.fill_pj = level.write_energy_pj;
  s.update_pj = level.write_energy_pj;
  s.double_buffering = level.double_buffering;
  return s;
}

/// The fan-outs between the global buffer and the compute units. The legacy model sees one
/// array whose rows are split over the cores; the general model keeps the cores as their own
/// fan-out above the array.
std::vector<Fanout> compute_fanouts(const Hardware &hw, Counting counting) {
  const char *array_name = hw.array.is_vector ? "lanes" : "array";
  if (counting == Counting::Legacy)
    return {Fanout{array_name, hw.array.cols, hw.array.rows * hw.cores, true, true}};
  std::vector<Fanout> fanouts;
  if (hw.cores > 1)
    fanouts.push_back(Fanout{"cores", hw.cores, 1, true, true});
  fanouts.push_back(Fanout{array_name, hw.array.cols, hw.array.rows, true, true});
  return fanouts;
}

} // namespace

Hierarchy hierarchy_from_levels(const Hardware &hw, Counting counting) {
  Hierarchy h;
  h.counting = counting;
  h.mac_pj = hw.array.mac_energy_pj;
  h.vector = hw.array.is_vector;
  h.levels.push_back(storage_level(hw.dram(), hw.dram_words_per_cycle()));
  h.levels.push_back(storage_level(hw.global_buffer(), hw.gb_words_per_cycle()));
  if (const MemoryLevel *rf = hw.register_file())
    h.levels.push_back(storage_level(*rf, std::nullopt));
  h.fanouts.resize(h.levels.size());
  h.fanouts[1] = compute_fanouts(hw, counting);
  return h;
}

} // namespace dse
