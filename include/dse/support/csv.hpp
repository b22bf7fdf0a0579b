// CSV output helper shared by every module that writes CSV files.
#pragma once

#include <string>

namespace dse {

/// A CSV field: control bytes escaped (escape_control, so every record is one line), then
/// quoted (RFC 4180) when it holds a comma or quote.
std::string csv_field(const std::string &text);

/// A number in the shortest form that reads back as the same double.
std::string csv_number(double v);

} // namespace dse
