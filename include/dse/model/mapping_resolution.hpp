// Turns a mapping written by name (MappingSpec) into problems, candidates and tilings, checking
// every name and every rule of the model with errors that point into the mapping file.
#pragma once

#include <vector>

#include "dse/ir/mapping_spec.hpp"
#include "dse/model/dataflow.hpp"
#include "dse/model/tiling.hpp"

namespace dse {

struct ResolvedSegment {
  Problem problem;
  Candidate candidate;
  Tiling tiling;
};

/// One resolved segment per spec segment. Every einsum of the workload must be mapped exactly
/// once; a two-op segment must be a fusable producer -> consumer pair.
std::vector<ResolvedSegment> resolve_mapping(const Workload &workload, const MappingSpec &spec);

} // namespace dse
