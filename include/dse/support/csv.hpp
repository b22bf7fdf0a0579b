// Numbers and fields as every report writes them: CSV fields, and numbers that read back
// exactly.
#pragma once

#include <string>

namespace dse {

/// A CSV field: control bytes escaped (escape_control, so every record is one line), then
/// quoted (RFC 4180) when it holds a comma or quote.
std::string csv_field(const std::string &text);

/// A number in the shortest form that reads back as the same double.
std::string csv_number(double v);

/// A number for text reports: a whole number below 2^53 in full digits (1048576, not 1.04858e+06
/// or 1e+06), any other in the shortest form that reads back as the same double.
std::string exact_number(double v);

} // namespace dse
