// A split region run part by part as one segment of the network schedule: each distinct part
// searched as a graph of its own (its compute nodes alone, or fused depth first), the tensors a
// part keeps inside the region held in the global buffer where they fit beside its tiles, the
// parts run one after another.
#pragma once

#include <optional>
#include <vector>

#include "dse/graph/fusion_segments.hpp"
#include "dse/graph/split_region.hpp"

namespace dse {

/// `region` run part by part: every part planned with `options` as a graph of its own, its vector
/// nodes costed as in a plan and the tensors computed and read inside the part kept in the global
/// buffer where they fit (residency_schedule), in the cheaper of two ways in options.objective:
/// its compute nodes searched alone in the buffer left beside all the part's slabs (which then
/// all stay on chip), or, with two compute nodes or more, fused depth first as a network's plan
/// fuses them (runs of up to options.search.max_fused, through their windows) in the whole
/// buffer. The parts' counts are added up; `cost.fused` says whether some part runs fused. Its
/// buffer words are the most a part holds; the tensors it reads from and writes to the rest of
/// the graph keep their names in graph_tensors, so that the schedule may keep them on chip.
/// Nothing when a part has no graph (part_graph) or no mapping fits it.
std::optional<Segment> parted_segment(const Graph &graph, const Hardware &hw,
                                      const SplitRegion &region, const FusionOptions &options);

/// How many times the parts of a split region the schedule tries: a part's searches leave room
/// for its slabs, which more parts make smaller.
inline constexpr int kPartMultiples[] = {1, 2, 4};

/// The segments of `regions` run part by part, each region first widened to whole segments of
/// `unfused` (a compute node goes with the vector nodes attached to it), along the same axis in
/// kPartMultiples times its parts: of those that run, the cheapest in options.objective; the
/// regions none of which runs are left out.
std::vector<Segment> parted_segments(const Graph &graph, const Hardware &hw,
                                     const std::vector<SplitRegion> &regions,
                                     const std::vector<Segment> &unfused,
                                     const FusionOptions &options);

} // namespace dse
