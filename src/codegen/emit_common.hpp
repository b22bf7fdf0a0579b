// Names and expressions shared by the emitters: loop counters, DRAM arrays, tile pointers under
// the loops entered at a step, region extents, and the table of counters the kernel keeps.
#pragma once

#include <string>
#include <vector>

#include "dse/codegen/kernel_plan.hpp"

namespace dse::codegen {

/// The counters a kernel keeps: DRAM<->GB words per (segment, tensor) and per softmax pass, and
/// MACs per (segment, op). Entry order is the order of the JSON report.
struct CounterTable {
  struct Entry {
    int segment = 0;
    std::string name;
  };
  std::vector<Entry> words;
  std::vector<Entry> macs;
  std::vector<std::vector<int>> tensor_entry;   // [segment][problem tensor]
  std::vector<int> pass_entry;                  // [segment], -1 without a softmax pass
  std::vector<std::vector<int>> residual_entry; // [segment][op], -1 without a residual
  std::vector<std::vector<int>> mac_entry;      // [segment][op]
};

CounterTable counter_table(const std::vector<SegmentPlan> &plans);

std::string loop_var(const SegmentPlan &plan, int dim);
std::string dram_array(const std::string &tensor);
std::string dram_shape(const std::string &tensor);
/// `gb + offset + ...`: where the current region of `tile` starts when the loops `entered` are
/// running (loops it spans contribute their current tile's offset).
std::string tile_pointer(const SegmentPlan &plan, int tile, const std::vector<int> &entered);
/// Per index position of a plain-indexed tile: the current tile of entered loops, else its extent.
std::vector<std::int64_t> region_extent(const SegmentPlan &plan, int tile,
                                        const std::vector<int> &entered);
/// Per index position: where the box of `tile` starts, from the loops above its depth.
std::vector<std::string> box_origin(const SegmentPlan &plan, int tile);
/// `X[c,p+r,2*q]` as written in the workload.
std::string access_text(const Workload &workload, const TensorAccess &access);
/// The halo whose positions are plan dim `dim` (SegmentPlan::halos), or -1.
int halo_of_position(const SegmentPlan &plan, int dim);
/// The run-time variable `what` (lo, first, n) of halo k: see halo_emitter.hpp.
std::string halo_var(int k, const char *what);
/// The dim of a plain index expression.
inline int plain_dim(const IndexExpr &e) { return e.terms.front().dim; }

} // namespace dse::codegen
