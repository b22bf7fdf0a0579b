// Names from input files made safe where they are printed: control bytes written as escapes in
// CSV fields, text reports and terminals, and YAML scalars that read back as the same name.
#pragma once

#include <string>
#include <string_view>

namespace dse {

/// `s` with every control byte (below 0x20, and 0x7f) written as an escape (`\n`, `\t`, `\r`,
/// `\x1b`), so that a name cannot move the cursor, recolour a terminal or split a CSV row.
std::string escape_control(std::string_view s);

/// As escape_control, but keeping line feeds: for whole reports and messages whose layout uses
/// them.
std::string escape_control_in_text(std::string_view text);

/// `s` as a YAML double-quoted scalar that reads back as exactly `s` (quotes, backslashes and
/// control bytes escaped; other bytes, UTF-8 included, kept).
std::string yaml_double_quoted(std::string_view s);

} // namespace dse
