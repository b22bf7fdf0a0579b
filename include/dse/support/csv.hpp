// CSV output helper shared by every module that writes CSV files.
#pragma once

#include <string>

namespace dse {

/// A CSV field, quoted (RFC 4180) when it holds a comma, quote or newline.
std::string csv_field(const std::string &s);

/// A number in the shortest form that reads back as the same double.
std::string csv_number(double v);

} // namespace dse
