// An execution plan at the global-memory level: the steps a network runs in (whole nodes, or the
// parts of split regions) and the buffers each step reads and writes, with how many words.
#pragma once

#include <string>
#include <vector>

#include "dse/ir/graph.hpp"

namespace dse {

/// A tensor, or one part's slab of a tensor internal to a split region.
struct PlanBuffer {
  std::string name;
  double words = 0;
  bool graph_input = false;  // starts in DRAM: the first access loads it
  bool graph_output = false; // written to DRAM once complete
  bool dram_only = false;    // a split region's streamed boundary: every access goes to DRAM
};

struct BufferAccess {
  int buffer = 0;
  double words = 0; // words touched (a slab of the buffer, or all of it)
  bool write = false;
};

struct PlanStep {
  int node = -1;
  int part = -1;   // part of a split region; -1 for a whole node
  int region = -1; // index of the split region it belongs to, or -1
  std::vector<BufferAccess> accesses;
  double weight_words = 0;  // weights read from DRAM for this step and held while it runs
  double working_words = 0; // other words held on chip while it runs (tiles), not from a buffer
  double macs = 0;
  double vector_ops = 0;
};

struct ExecPlan {
  std::vector<PlanBuffer> buffers;
  std::vector<PlanStep> steps;
};

/// The steps from a buffer's first access to its last, when it is live (-1 for both: never).
struct BufferSpan {
  int first = -1;
  int last = -1;
  bool live_at(int step) const { return first >= 0 && first <= step && step <= last; }
};

/// Each buffer's span over the plan's steps.
std::vector<BufferSpan> buffer_spans(const ExecPlan &plan);

/// One step per node in graph order, one buffer per activation and graph input.
ExecPlan whole_node_plan(const Graph &graph);

/// Adds one buffer per tensor of `graph`, so that buffer i is tensor i (weights get empty buffers
/// that no step accesses: steps charge weights through weight_words).
void add_tensor_buffers(const Graph &graph, ExecPlan &plan);

} // namespace dse
