// The program around the schedule: DRAM arrays and counters, seeded inputs, the plain reference
// loop nest and its check, the JSON report, `main`, and a small C interface for harnesses.
#pragma once

#include <string>
#include <vector>

#include "code_writer.hpp"
#include "dse/codegen/kernel_emitter.hpp"
#include "emit_common.hpp"

namespace dse::codegen {

/// A tensor of the emitted program.
struct ProgramTensor {
  std::string name;
  std::vector<std::int64_t> shape; // real extents
  std::vector<int> dims;           // produced tensors: the dim of each (plain) index
  bool in_dram = false;            // crosses the global buffer: it has a DRAM array
  bool produced = false;           // written by an operator of the program (else: a random input)
  bool read = false; // read by an operator of the program (else, if produced: checked)
  /// A stacked einsum's member result: the stacked result it is a slice of, from `offset`.
  std::string stacked_in;
  std::int64_t offset = 0;
};

/// The program's operators (the segments' einsums and what is attached to them), in workload
/// order, and every tensor they touch.
struct ProgramOps {
  const Workload *workload = nullptr;
  std::vector<int> ops;
  std::vector<ProgramTensor> tensors;
};

ProgramOps program_ops(const std::vector<SegmentPlan> &plans);

/// DRAM arrays (row-major, real extents) and the counters.
void emit_dram(CodeWriter &out, const ProgramOps &program, const CounterTable &counters);

/// Inputs, reference, check, report, main and the C interface; `run_schedule()` must exist.
void emit_harness(CodeWriter &out, const ProgramOps &program, const CounterTable &counters,
                  const std::vector<SegmentPlan> &plans, const EmitOptions &options);

} // namespace dse::codegen
