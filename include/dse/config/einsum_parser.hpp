// Parses einsum strings such as `Y[k,p,q] += W[k,c,r,s] * X[c,2*p+r,q+s]` into their syntax,
// with dimension names not yet bound to a workload's dimensions.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "dse/support/error.hpp"

namespace dse {

/// One `coef*dim` term as written. `offset` is its 0-based position in the einsum string.
struct ParsedTerm {
  std::string dim;
  std::int64_t coef = 1;
  int offset = 0;
};

/// One index expression (`p`, `p+r`, `2*p + 1*r`, `p+r-1`): a sum of terms and constants.
struct ParsedIndex {
  std::vector<ParsedTerm> terms;
  std::int64_t constant = 0; // the sum of the constants, `-1` of `p+r-1`
  std::string text;          // as written, surrounding whitespace trimmed
  int offset = 0;
};

/// One tensor access `X[...]`.
struct ParsedAccess {
  std::string tensor;
  std::vector<ParsedIndex> indices;
  std::string text; // as written
  int offset = 0;
};

/// `Out[...] += In0[...]` or `Out[...] += In0[...] * In1[...]`.
struct ParsedEinsum {
  ParsedAccess output;
  std::vector<ParsedAccess> inputs; // one or two
};

/// Parses `text`. `where` locates text[0] in its file; a syntax error is a UserError whose
/// column is `where.column` plus the offset of the offending character. Coefficients must be
/// positive integers below 2^31; constants (added or subtracted) at most 2^31 - 1.
ParsedEinsum parse_einsum(std::string_view text, const SourceLocation &where);

} // namespace dse
