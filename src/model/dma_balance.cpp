// The per-unit split behind the balanced DMA latency: which unit carries which words.
#include "dse/model/dma_balance.hpp"

#include <algorithm>

#include "dse/support/check.hpp"

namespace dse {

// The rule. Let T be the fluid optimum max(R / (L + B), W / (S + B), (R + W) / (L + S + B)) over
// the load-only (L), store-only (S) and bidirectional (B) bandwidths. Load-only units carry
// min(R, L * T) of the reads and store-only units min(W, S * T) of the writes; the bidirectional
// units carry what is left of both. Within each of these three groups, words are split in
// proportion to the units' bandwidths, so units of a group are equally busy. What is left fits
// the bidirectional units within T (that is what the three terms of T say), so no unit is busy
// longer than T, and every unit of a binding group is busy exactly T. The DRAM's own bandwidth
// floor (dram_transfer_cycles) lengthens the transfer but does not change the split.
std::vector<DmaUnitLoad> dma_unit_loads(double reads, double writes, const Hardware &hw) {
  if (hw.dma_units.empty())
    return {};
  double load = 0, store = 0, both = 0;
  for (const DmaUnit &u : hw.dma_units) {
    const double rate = hw.dma_words_per_cycle(u);
    (u.direction == DmaDirection::Load    ? load
     : u.direction == DmaDirection::Store ? store
                                          : both) += rate;
  }
  DSE_CHECK(load + both > 0 && store + both > 0, "the loader requires loading and storing units");
  const double t = std::max(
      {reads / (load + both), writes / (store + both), (reads + writes) / (load + store + both)});
  // Without bidirectional units the direction-bound groups take everything (L * T >= R up to
  // rounding).
  const double on_load = both > 0 ? std::min(reads, load * t) : reads;
  const double on_store = both > 0 ? std::min(writes, store * t) : writes;
  std::vector<DmaUnitLoad> loads;
  for (const DmaUnit &u : hw.dma_units) {
    const double rate = hw.dma_words_per_cycle(u);
    DmaUnitLoad l{u.name, 0, 0, 0};
    switch (u.direction) {
    case DmaDirection::Load:
      l.read_words = on_load * rate / load;
      break;
    case DmaDirection::Store:
      l.write_words = on_store * rate / store;
      break;
    case DmaDirection::Both:
      l.read_words = (reads - on_load) * rate / both;
      l.write_words = (writes - on_store) * rate / both;
      break;
    }
    l.cycles = l.words() / rate;
    loads.push_back(std::move(l));
  }
  return loads;
}

void add_dma_loads(std::vector<DmaUnitLoad> &total, const std::vector<DmaUnitLoad> &part) {
  if (part.empty())
    return;
  if (total.empty()) {
    total = part;
    return;
  }
  DSE_CHECK(total.size() == part.size(), "loads of the same hardware's units");
  for (size_t i = 0; i < part.size(); ++i) {
    total[i].read_words += part[i].read_words;
    total[i].write_words += part[i].write_words;
    total[i].cycles += part[i].cycles;
  }
}

} // namespace dse
