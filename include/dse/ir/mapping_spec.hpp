// A user-written mapping (`dse eval --mapping`), by name, as read from YAML: per segment the
// operators, loop tree, retention depths, spatial mapping and tile sizes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "dse/support/error.hpp"

namespace dse {

struct NamedValue {
  std::string name;
  SourceLocation where;
};

/// Halo dims whose overlap is kept on chip, of one intermediate (named; unnamed in the list
/// form, which a segment of two operators takes for its only intermediate).
struct MappingCacheSpec {
  NamedValue intermediate;
  std::vector<NamedValue> dims;
};

struct MappingSegmentSpec {
  std::vector<NamedValue> ops;                          // one op, or a chain of them run fused
  std::vector<NamedValue> prefix;                       // fused only
  std::vector<MappingCacheSpec> cache;                  // fused through windows
  std::map<std::string, std::vector<NamedValue>> loops; // op -> sub-nest, outer -> inner
  std::map<std::string, std::pair<int, SourceLocation>> retention;      // tensor -> depth
  std::map<std::string, std::pair<NamedValue, NamedValue>> spatial;     // op -> (row, col) or "-"
  std::map<std::string, std::pair<std::int64_t, SourceLocation>> tiles; // dim -> tile size
  SourceLocation where;
};

struct MappingSpec {
  std::string workload; // empty if not given
  std::vector<MappingSegmentSpec> segments;
  std::string source_file;
};

} // namespace dse
