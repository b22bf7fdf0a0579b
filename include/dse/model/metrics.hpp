// Symbolic derivation of every metric of a candidate (docs/DESIGN.md §4.2) as posynomials in the
// tile sizes: DRAM traffic and buffer words from the dataflow; MACs, cycles, GB<->PE traffic and
// vector work from the recompute loops and spatial mapping.
#pragma once

#include <vector>

#include "dse/model/dataflow.hpp"
#include "dse/model/posynomial.hpp"

namespace dse {

/// DRAM traffic and live buffer words of one tensor under a dataflow.
struct TensorTraffic {
  Posynomial footprint; // words of one tile
  Posynomial reads;     // DRAM -> GB words
  Posynomial writes;    // GB -> DRAM words
};

/// The part of the dataflow metrics contributed by one operator's own tensors (the intermediates
/// excluded): what pruning of that operator's sub-nest compares.
struct LocalMetrics {
  Posynomial dram_reads;
  Posynomial dram_writes;
  Posynomial own_buffer;   // words live while this op runs
  Posynomial other_buffer; // words this op's tiles keep live while the other ops run
  std::vector<Posynomial> as_vector() const;
};

/// Metrics that depend on the loop tree and retention only.
struct DataflowMetrics {
  Posynomial dram_reads;
  Posynomial dram_writes;
  std::vector<Posynomial> buffer_words; // per op: GB words live while it runs
  std::vector<Posynomial> as_vector() const;
  /// Entry k of as_vector, not copied.
  const Posynomial &row(size_t k) const {
    return k == 0 ? dram_reads : k == 1 ? dram_writes : buffer_words[k - 2];
  }
  bool operator==(const DataflowMetrics &) const = default;
};

/// Metrics that depend only on the recompute loops and the spatial mapping.
struct ComputeMetrics {
  std::vector<Posynomial> macs;   // per op, recompute included
  std::vector<Posynomial> cycles; // per op
  Posynomial gb_reads;            // GB -> PE words
  Posynomial gb_writes;           // PE -> GB words
  Posynomial vector_ops;          // softmax/elementwise work
};

/// DRAM words op `op` reads from its einsum's residual: the padded output once (zero without one,
/// and zero when residual_held, dataflow.hpp).
Posynomial residual_reads(const Problem &problem, const Dataflow &dataflow, int op);

TensorTraffic tensor_traffic(const Problem &problem, const Dataflow &dataflow, int tensor);
LocalMetrics local_metrics(const Problem &problem, const Dataflow &dataflow, int op,
                           bool double_buffering);
DataflowMetrics dataflow_metrics(const Problem &problem, const Dataflow &dataflow,
                                 bool double_buffering);
/// Buffer words that every operator of a fused dataflow holds besides its own tiles: each
/// intermediate's tile, online softmax's running state and the overlap stores (zero unfused).
/// They depend only on the prefix, the intermediates' depths and the cached halo dims.
Posynomial shared_buffer_words(const Problem &problem, const Dataflow &dataflow,
                               bool double_buffering);
/// dataflow_metrics from each operator's local_metrics of the same dataflow and its
/// shared_buffer_words, already computed (`locals[o]` for operator o): an operator's local
/// metrics depend only on the prefix and its own sub-nest and retention, and the shared words
/// on the prefix choice, so the candidate space computes each once per local plan or choice.
DataflowMetrics combine_local_metrics(const Problem &problem,
                                      const std::vector<const LocalMetrics *> &locals,
                                      const Posynomial &shared);
/// Unfused softmax runs as its own pass: it reads the scores and writes the probabilities,
/// this many words each way (zero when the problem has no softmax or is fused).
Posynomial softmax_pass_words(const Problem &problem);
/// Fused online softmax on an intermediate (its normalised dim a prefix loop): the running max,
/// sum and last scale of every row that loop sweeps, 3 words per row, kept in the global buffer
/// (zero otherwise).
Posynomial softmax_state_words(const Problem &problem, const Dataflow &dataflow);
/// Chains fused through windows: per link and cached halo dim h, the overlap of consecutive
/// windows (Problem::halo_overlap positions along h's index: the window less the stride where
/// every later link recomputes) for every position the loops inside h and the sub-nests sweep,
/// kept in the global buffer around h's loop (zero without cached dims).
Posynomial overlap_store_words(const Problem &problem, const Dataflow &dataflow);
/// Compute metrics of the dataflows with these recompute loops and cached halo dims (per link).
ComputeMetrics compute_metrics(const Problem &problem, const std::vector<int> &recompute_dims,
                               const std::vector<std::vector<int>> &cached_dims,
                               const std::vector<SpatialMapping> &spatial);

} // namespace dse
